#!/usr/bin/env bash
# Coverage-guided fuzzing of the client's decoders with Jazzer: runs each @FuzzTest target of
# clickhouse-tcp-core in fuzzing mode for DURATION (30s, 10m, 1h; one JVM per target, since Jazzer
# fuzzes one test per JVM, and the time includes its start-up), one target at a time, then prints
# executions, coverage and findings per target.
#
#   scripts/fuzz.sh 10m                       # every target, 10 minutes each
#   scripts/fuzz.sh 30s BlockCodecFuzzTest    # some targets (simple class names)
#   scripts/fuzz.sh --ci 200000               # CI's short budget: 200,000 executions per target from a
#                                             # fixed seed (reproducible), stop at the first finding
#
# Each input is bounded by the targets' @Timeout (30 s), which Jazzer passes to libFuzzer as -timeout;
# JUnit's own timeouts are off here, since the one fuzzing invocation lasts the whole DURATION.
# Environment: FUZZ_HEAP (JVM heap, default 512m: an allocation the wire can force beyond it is a
# finding), FUZZ_KEEP_GOING (distinct findings before a target stops; default 10, 1 with --ci),
# FUZZ_NO_BUILD=1 (use the already compiled test classes), FUZZ_SEED (libFuzzer's seed; with --ci
# default 1, else random). With --ci the budget is a number of executions, not a time, and the seed is
# fixed: the same tree fuzzes the same inputs on every machine, so a finding is reproducible and a CI
# run's outcome does not depend on the machine's speed (a cap of 10 minutes per target guards against
# a hang). Campaigns (without --ci) explore with a fresh seed each time.
# Inputs that found new coverage stay in clickhouse-tcp-core/.cifuzz-corpus/ (not committed; later
# runs start from them). Crashing inputs go where Jazzer puts them: the target's regression inputs
# directory, src/test/resources/<package>/<Class>Inputs/<method>/crash-<sha1>, which the normal test
# run replays. Logs: clickhouse-tcp-core/target/fuzz/<target>.log. Exit status 1 when a target found
# something (or failed to run).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

ci=0
if [ "${1:-}" = "--ci" ]; then
    ci=1
    shift
fi
if [ $# -lt 1 ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d'
    exit 2
fi
duration="$1"
shift

all_targets=(
    "dev.clickhousetcp.client.ServerPacketFuzzTest#serverStream"
    "dev.clickhousetcp.protocol.BlockCodecFuzzTest#block"
    "dev.clickhousetcp.data.SemiStructuredFuzzTest#column"
    "dev.clickhousetcp.io.CompressedFrameFuzzTest#frames"
    "dev.clickhousetcp.io.ChunkedFramingFuzzTest#chunked"
    "dev.clickhousetcp.data.TypeNameFuzzTest#typeName"
    "dev.clickhousetcp.client.ParameterFormatFuzzTest#parameter"
)
targets=()
if [ $# -eq 0 ]; then
    targets=("${all_targets[@]}")
else
    for want in "$@"; do
        found=0
        for t in "${all_targets[@]}"; do
            cls="${t%%#*}"
            if [ "${cls##*.}" = "$want" ] || [ "$t" = "$want" ]; then
                targets+=("$t")
                found=1
            fi
        done
        if [ "$found" -eq 0 ]; then
            echo "unknown target $want" >&2
            exit 2
        fi
    done
fi

if [ "$ci" -eq 1 ]; then
    case "$duration" in
        *[!0-9]*|'') echo "--ci takes a number of executions per target, not '$duration'" >&2; exit 2 ;;
    esac
    budget_args=(-Djazzer.internal.arg.1=-runs="$duration" -Djazzer.internal.arg.2=-seed="${FUZZ_SEED:-1}"
        -Djazzer.internal.arg.3=-max_total_time=600)
    duration="$duration runs, seed ${FUZZ_SEED:-1}"
else
    case "$duration" in
        *h) seconds=$(( ${duration%h} * 3600 )) ;;
        *m) seconds=$(( ${duration%m} * 60 )) ;;
        *s) seconds=${duration%s} ;;
        *) seconds=$duration ;;
    esac
    budget_args=(-Djazzer.internal.arg.1=-max_total_time="$seconds")
    if [ -n "${FUZZ_SEED:-}" ]; then
        budget_args+=(-Djazzer.internal.arg.2=-seed="$FUZZ_SEED")
    fi
fi
heap="${FUZZ_HEAP:-512m}"
keep_going="${FUZZ_KEEP_GOING:-$([ "$ci" -eq 1 ] && echo 1 || echo 10)}"
module=clickhouse-tcp-core
out="$module/target/fuzz"
mkdir -p "$out"
cpfile="$out/classpath.txt"
if [ "${FUZZ_NO_BUILD:-0}" != "1" ] || [ ! -s "$cpfile" ]; then
    echo "==> compiling the fuzz targets"
    mvn -B -ntp -q -pl "$module" -am test-compile dependency:build-classpath \
        -Dmdep.outputFile="$PWD/$cpfile" -Dmdep.includeScope=test
fi
classpath="target/test-classes:target/classes:$(cat "$cpfile")"

status=0
summary=()
for t in "${targets[@]}"; do
    name="${t##*.}"
    name="${name%%#*}"
    log="$PWD/$out/$name.log"
    echo "==> fuzzing $t for $duration (heap $heap)"
    set +e
    (cd "$module" && JAZZER_FUZZ=1 java -Xmx"$heap" -Xss1m -XX:+UseSerialGC -cp "$classpath" \
        -Djazzer.internal.arg.0=fuzz "${budget_args[@]}" \
        -Djunit.jupiter.execution.timeout.mode=disabled \
        -Djazzer.keep_going="$keep_going" \
        -Djazzer.instrument='dev.clickhousetcp.**' \
        dev.clickhousetcp.fuzz.FuzzLauncher "$t") >"$log" 2>&1
    rc=$?
    set -e
    runs=$(grep -aoE 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 | awk '{print $2 " runs in " $5 " s"}')
    if [ -z "$runs" ]; then
        runs=$(grep -aoE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
        runs="${runs:-0} runs"
    fi
    cov=$(grep -aoE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1)
    findings=$(grep -acE '^== Java Exception|^==[0-9]+== ERROR' "$log" || true)
    line=$(printf '%-28s %-26s %-34s findings: %s' "$name" "$runs" "${cov:-cov: ?}" "$findings")
    summary+=("$line")
    if [ "$rc" -ne 0 ]; then
        status=1
        echo "    FAILED (exit $rc): see $log"
        grep -aE '^== Java Exception|^Caused by|^\s+at dev\.clickhousetcp' "$log" | head -15 || true
    fi
done

echo
echo "==> fuzzing summary ($duration per target; cov = instrumented edges covered, ft = features)"
for line in "${summary[@]}"; do
    echo "$line"
done
exit "$status"
