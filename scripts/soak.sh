#!/usr/bin/env bash
# Soak run of the connection-lifecycle stress test (not part of `mvn verify`'s usual length).
#
# Runs ConcurrencyStressTest (clickhouse-tcp-core) for a given time per pool size, instead of its fixed
# number of operations: 16 threads on pools of 1, 2 and 8 (and 8 behind a lagging network) run the
# seeded random mix of operations against a private ClickHouse 26.7 server the test starts itself.
#
#   scripts/soak.sh [DURATION] [SEED]
#
#   DURATION  ISO-8601 duration per pool size (default PT10M: four runs, about 40 minutes in all)
#   SEED      the random seed (default: a new one; it is printed, and named in every violation)
#
# Environment: SOAK_THREADS (default 16) threads per pool; SOAK_OPS operations per thread instead of a
# duration. The summary line (operations, faults, rows lost and duplicated, wrong results, leaked
# connections, exceptions by kind) is printed at the end and kept in
# clickhouse-tcp-core/target/reliability/ConcurrencyStressTest.txt. Exits non-zero on any violation.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

duration="${1:-PT10M}"
args=()
if [ -n "${SOAK_OPS:-}" ]; then
    args+=("-Dstress.opsPerThread=${SOAK_OPS}")
else
    args+=("-Dstress.duration=${duration}")
fi
if [ -n "${2:-}" ]; then
    args+=("-Dstress.seed=$2")
fi
if [ -n "${SOAK_THREADS:-}" ]; then
    args+=("-Dstress.threads=${SOAK_THREADS}")
fi

report=clickhouse-tcp-core/target/reliability/ConcurrencyStressTest.txt
output=clickhouse-tcp-core/target/surefire-reports/dev.clickhousetcp.client.ConcurrencyStressTest-output.txt
rm -f "$report"

echo "soak: ConcurrencyStressTest ${args[*]}"
status=0
mvn -B -ntp -q -pl clickhouse-tcp-core -am -Dtest=ConcurrencyStressTest -Dsurefire.failIfNoSpecifiedTests=false \
    "${args[@]}" verify || status=$?

if [ -f "$output" ]; then
    grep -E '^pool ' "$output" || true
fi
if [ -f "$report" ]; then
    cat "$report"
else
    echo "soak: no summary was written (see clickhouse-tcp-core/target/surefire-reports)" >&2
fi
exit "$status"
