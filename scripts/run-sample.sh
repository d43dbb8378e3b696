#!/usr/bin/env bash
# Runs the sample app (sample-app/) against the embedded ClickHouse 26.7 server:
#   1. starts the server (scripts/clickhouse-server.sh start modern; a no-op when it already runs),
#   2. builds the app and the modules it needs (tests skipped),
#   3. prints how to call the app, then runs it in the foreground. Ctrl-C stops the app; the
#      ClickHouse server keeps running (when this script started it, it says how to stop it).
#
# Environment:
#   PORT                 HTTP port of the app                       (default 8080)
#   CLICKHOUSE_HOST      ClickHouse host                            (default 127.0.0.1)
#   CLICKHOUSE_PORT      ClickHouse native port                     (default CLICKHOUSE_MODERN_TCP_PORT or 19000)
#   CLICKHOUSE_USER, CLICKHOUSE_PASSWORD, CLICKHOUSE_DATABASE      (default: default, empty, default)
#   SKIP_SERVER=1        use an already running ClickHouse at CLICKHOUSE_HOST:CLICKHOUSE_PORT
#   SKIP_BUILD=1         reuse the jar of an earlier build
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export PORT=${PORT:-8080}
export CLICKHOUSE_HOST=${CLICKHOUSE_HOST:-127.0.0.1}
export CLICKHOUSE_PORT=${CLICKHOUSE_PORT:-${CLICKHOUSE_MODERN_TCP_PORT:-19000}}

step() { printf '\n==> %s\n' "$*"; }
fail() {
    printf 'run-sample.sh: error: %s\n' "$*" >&2
    exit 1
}

command -v java >/dev/null 2>&1 || fail "java (17 or newer) is not installed"

STOP_HINT="The ClickHouse server at $CLICKHOUSE_HOST:$CLICKHOUSE_PORT was not started by this script (SKIP_SERVER=1)."
if [ "${SKIP_SERVER:-0}" != 1 ]; then
    STOP_HINT="The ClickHouse server keeps running; stop it with:
  bash scripts/clickhouse-server.sh stop modern"
    step "starting ClickHouse 26.7 (bash scripts/clickhouse-server.sh start modern)"
    bash scripts/clickhouse-server.sh start modern
fi

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    command -v mvn >/dev/null 2>&1 || fail "mvn (Maven 3.8 or newer) is not installed"
    step "building the sample app (mvn -B -q -DskipTests install -pl sample-app -am; the first build downloads dependencies)"
    mvn -B -q -DskipTests install -pl sample-app -am
fi

JAR=
for candidate in sample-app/target/clickhouse-tcp-sample-app-*.jar; do
    [ -f "$candidate" ] && JAR=$candidate
done
[ -n "$JAR" ] || fail "no sample-app/target/clickhouse-tcp-sample-app-*.jar; run without SKIP_BUILD=1"

if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    fail "port $PORT is already in use; choose another one, e.g. PORT=8081 $0"
fi

URL="http://localhost:$PORT"
cat <<EOF

==> the app will listen on $URL (ClickHouse native protocol at $CLICKHOUSE_HOST:$CLICKHOUSE_PORT)

Try it from another terminal once it says "Started SampleApplication":

  # the dashboard (chart, top users, live pool and query numbers): open $URL/ in a browser

  # ingest events (JSON array; eventTime, value and tags are optional); the same Idempotency-Key twice stores them once
  curl -s -X POST $URL/events -H 'Content-Type: application/json' -H 'Idempotency-Key: batch-1' \\
       -d '[{"userId": 1, "eventType": "click", "value": 2.5, "tags": ["web"]},
            {"eventTime": "2025-01-02T03:04:05.678Z", "userId": 2, "eventType": "purchase", "value": 19.99}]'

  # generate 1,000,000 random events inside ClickHouse, or 100,000 in the app (batched inserts)
  curl -s -X POST '$URL/events/generate?count=1000000&mode=server'
  curl -s -X POST '$URL/events/generate?count=100000&mode=client'

  # analytics
  curl -s $URL/analytics/counts
  curl -s '$URL/analytics/top-users?limit=10'
  curl -s '$URL/analytics/timeline?bucket=hour&type=purchase'
  curl -s '$URL/analytics/series?bucket=minute'
  curl -s $URL/analytics/summary

  # export (streamed, constant memory), a session report, a long query and its cancellation
  curl -s -o events.csv $URL/events/export
  curl -s '$URL/events/export?format=ndjson&limit=5'
  curl -s '$URL/reports/power-users?minEvents=10'
  curl -s -X POST '$URL/reports/slow?seconds=600'          # answers the report's id (its query_id)
  curl -s -X DELETE $URL/reports/<id>

  # actuator: health (readiness includes the schema), metrics, Prometheus, the clickhouse endpoint
  curl -s $URL/actuator/health
  curl -s $URL/actuator/metrics/clickhouse.tcp.pool.active
  curl -s $URL/actuator/prometheus | grep ^clickhouse_tcp
  curl -s $URL/actuator/clickhouse

  # a trace: its id is in the app's log lines; the app's and ClickHouse's spans of it
  curl -s '$URL/trace/<traceId>/spans?flush=true'

A guided tour with what each answers: docs/tour.md

Ctrl-C stops the app. $STOP_HINT

EOF

step "starting the app: java -jar $JAR"
exec java -jar "$JAR"
