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
#
# Builds benchmarks/target/benchmarks.jar when it is missing (or always with BENCHMARKS_REBUILD=1),
# starts the local "modern" server with scripts/clickhouse-server.sh (skip with
# BENCHMARKS_START_SERVER=0, e.g. when -Dclickhouse.host/-Dclickhouse.port in JAVA_OPTS point
# elsewhere), then runs JMH with the GC profiler and writes benchmarks/results/<UTC timestamp>.json.
# JAVA_OPTS go to the JMH host JVM; its -D options are inherited by the forked benchmark JVMs.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

JAR=benchmarks/target/benchmarks.jar
if [ ! -f "$JAR" ] || [ "${BENCHMARKS_REBUILD:-0}" = 1 ]; then
    echo "building $JAR"
    mvn -B -q -pl benchmarks -am package -DskipTests
fi

if [ "${BENCHMARKS_START_SERVER:-1}" = 1 ]; then
    bash scripts/clickhouse-server.sh start modern
fi

mkdir -p benchmarks/results
RESULT="benchmarks/results/$(date -u +%Y%m%dT%H%M%SZ).json"
# shellcheck disable=SC2086 # JAVA_OPTS is a list of options
java ${JAVA_OPTS:-} -jar "$JAR" "$@" -prof gc -rf json -rff "$RESULT"
if [ -f "$RESULT" ]; then
    echo "results: $RESULT"
fi
