#!/usr/bin/env bash
# Runs the JMH benchmarks against a real ClickHouse server and keeps the results as JSON.
#
#   benchmarks/run.sh [JMH options and benchmark regexps]
#
# Examples:
#   benchmarks/run.sh                                  # everything, with the default iterations
#   benchmarks/run.sh SelectColumnBenchmark            # one class
#   benchmarks/run.sh -wi 1 -i 2 -w 1s -r 1s           # a quick smoke run
#   benchmarks/run.sh -l                               # list the benchmarks
#   benchmarks/run.sh --category tcp-regression        # one category: tcp-regression | cross | peers | table | jdbc
#   benchmarks/run.sh --category table -f 2            # 5,000,000 rows from a MergeTree table: floor, ours, client-v2
#   benchmarks/run.sh --category cross -f 1 -wi 2 -i 3 -w 1s -r 1s
#   benchmarks/run.sh --category jdbc -f 1             # JDBC: our driver, jdbc-v2 (HTTP), housepower, HikariCP, Spring
#
# With --category, the category's JMH include pattern is added, and after the run the report generator
# writes <result>.md (table with ratios to the HTTP arm) and <result>.png (chart) beside the JSON.
# The peers category also runs the C++ macro harness (CppReference) into <result>-cpp.md
# (CPP_ROWS, default 5000000; CPP_REPS, default 7).
#
# Builds benchmarks/target/benchmarks.jar when it is missing or older than a source or pom it is built from
# (or always with BENCHMARKS_REBUILD=1),
# starts the local "modern" server with scripts/clickhouse-server.sh (skip with
# BENCHMARKS_START_SERVER=0, e.g. when -Dclickhouse.host/-Dclickhouse.port in JAVA_OPTS point
# elsewhere), then runs JMH with the GC profiler and writes benchmarks/results/<UTC timestamp>.json.
# JAVA_OPTS go to the JMH host JVM; its -D options are inherited by the forked benchmark JVMs.
set -euo pipefail

CATEGORY=""
if [ "${1:-}" = "--category" ]; then
    CATEGORY=${2:?--category needs tcp-regression, cross, peers, table or jdbc}
    shift 2
fi
case "$CATEGORY" in
    "") PATTERN=() ;;
    tcp-regression) PATTERN=('\.(SelectColumnBenchmark|ColumnAccessBenchmark|ReadTiersBenchmark|StringReadBenchmark|ProjectedReadBenchmark|CompositeReadBenchmark|InsertShapesBenchmark|ArrayWriteShapeBenchmark|InsertBenchmark|ConnectionCostBenchmark|ObservationBenchmark|PoolConcurrencyBenchmark|CompressionBenchmark|FrameCodecBenchmark|WideReadBenchmark)\.') ;;
    cross) PATTERN=('\.Transport[A-Za-z]*Benchmark\.') ;;
    peers) PATTERN=('\.(HousepowerBenchmark|TableHousepowerBenchmark)\.') ;;
    table) PATTERN=('\.Table[A-Za-z]*Benchmark\.') ;;
    jdbc) PATTERN=('\.Jdbc[A-Za-z]*Benchmark\.') ;;
    *) echo "unknown category '$CATEGORY' (tcp-regression, cross, peers, table, jdbc)" >&2; exit 2 ;;
esac

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

JAR=benchmarks/target/benchmarks.jar
# Rebuild when asked, when the jar is missing, or when any source or pom it is built from is newer.
STALE=""
if [ -f "$JAR" ]; then
    STALE=$(find pom.xml benchmarks/pom.xml benchmarks/src clickhouse-tcp-core/pom.xml clickhouse-tcp-core/src \
        clickhouse-tcp-jdbc/pom.xml clickhouse-tcp-jdbc/src \
        -newer "$JAR" -type f -print -quit)
fi
if [ ! -f "$JAR" ] || [ -n "$STALE" ] || [ "${BENCHMARKS_REBUILD:-0}" = 1 ]; then
    echo "building $JAR${STALE:+ ($STALE changed)}"
    mvn -B -q -pl benchmarks -am clean package -DskipTests
fi

if [ "${BENCHMARKS_START_SERVER:-1}" = 1 ]; then
    bash scripts/clickhouse-server.sh start modern
fi

mkdir -p benchmarks/results
RESULT="benchmarks/results/$(date -u +%Y%m%dT%H%M%SZ)${CATEGORY:+-$CATEGORY}.json"
# shellcheck disable=SC2086 # JAVA_OPTS is a list of options
java ${JAVA_OPTS:-} -jar "$JAR" "${PATTERN[@]}" "$@" -prof gc -rf json -rff "$RESULT"
if [ -f "$RESULT" ]; then
    echo "results: $RESULT"
    if [ -n "$CATEGORY" ]; then
        # shellcheck disable=SC2086
        java ${JAVA_OPTS:-} -cp "$JAR" dev.clickhousetcp.benchmarks.Report "$RESULT" "${RESULT%.json}.md" "${RESULT%.json}.png"
    fi
fi
if [ "$CATEGORY" = peers ]; then
    echo "C++ reference: clickhouse-client ... FORMAT Native > /dev/null against in-process reads"
    # shellcheck disable=SC2086
    java ${JAVA_OPTS:-} -Xms2g -Xmx2g -cp "$JAR" dev.clickhousetcp.benchmarks.CppReference \
        "${RESULT%.json}-cpp.md" "${CPP_ROWS:-5000000}" "${CPP_REPS:-7}"
fi
