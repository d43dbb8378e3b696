#!/usr/bin/env bash
# Starts, stops and inspects the two real ClickHouse servers the integration tests run against.
#
#   modern  ClickHouse 26.7, the engine embedded in libchdb.so (npm package @chdb/lib-linux-x64-gnu),
#           run by a tiny C host (scripts/chdb-host/host.c). Native 19000, HTTP 18123.
#   legacy  ClickHouse 18.16 from Debian's clickhouse-server package, with its own config.
#           Native 29000, HTTP 28123, native over TLS 29440.
#   cluster optional: three more ClickHouse 26.7 nodes like modern (cluster1, cluster2, cluster3; native
#           19101-19103, HTTP 18101-18103), each with a remote_servers section naming cluster
#           tcp_cluster: shard 1 = cluster1, shard 2 = cluster2 and cluster3 (two replicas, written both
#           by Distributed tables: internal_replication false; the embedded engine runs no Keeper, see
#           docs/scaling.md). Memory per node is capped (max_server_memory_usage, small caches).
#
# Usage: scripts/clickhouse-server.sh start|stop|status|restart modern|legacy|all|cluster|cluster1|cluster2|cluster3
#        (all = modern and legacy; cluster = its three nodes; clusterN = one node of it)
#
# Every command is idempotent: start leaves a healthy server alone, replaces a dead or hung one, and
# cleans up stale pid files; stop is a no-op for a stopped server. See docs/servers.md.
#
# Environment:
#   CLICKHOUSE_TCP_CACHE          downloads and built host   (default ~/.cache/clickhouse-tcp)
#   CLICKHOUSE_TCP_STATE          data, configs, logs, pids  (default /tmp/clickhouse-tcp-servers);
#                                 one server of each kind per state directory: with other ports, servers
#                                 of other state directories run side by side (locks, pid files, checks
#                                 are all per state directory)
#   CLICKHOUSE_MODERN_TCP_PORT    (19000)   CLICKHOUSE_MODERN_HTTP_PORT  (18123)
#   CLICKHOUSE_LEGACY_TCP_PORT    (29000)   CLICKHOUSE_LEGACY_HTTP_PORT  (28123)
#   CLICKHOUSE_LEGACY_TLS_PORT    (29440)
#   CLICKHOUSE_CLUSTER_TCP_BASE   (19100)   node N listens on native BASE+N
#   CLICKHOUSE_CLUSTER_HTTP_BASE  (18100)   node N listens on HTTP BASE+N
#   CLICKHOUSE_CLUSTER_MEMORY     bytes each cluster node may use (default 1073741824)
#   CLICKHOUSE_READY_TIMEOUT      seconds to wait for a server to answer (default 120)
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly SCRIPT_DIR
readonly HOST_SOURCE="$SCRIPT_DIR/chdb-host/host.c"
readonly CACHE_DIR=${CLICKHOUSE_TCP_CACHE:-${HOME:-/tmp}/.cache/clickhouse-tcp}
STATE_DIR=${CLICKHOUSE_TCP_STATE:-/tmp/clickhouse-tcp-servers}
readonly LISTEN=127.0.0.1
readonly READY_TIMEOUT=${CLICKHOUSE_READY_TIMEOUT:-120}
readonly STOP_TIMEOUT=30
readonly UNHEALTHY_GRACE=10
readonly LOCK_TIMEOUT=600

readonly CHDB_PACKAGE=@chdb/lib-linux-x64-gnu
readonly CHDB_VERSION=26.7.3-stable.1
readonly CHDB_TARBALL="chdb-lib-linux-x64-gnu-$CHDB_VERSION.tgz"
readonly MODERN_QUERY="SYSTEM START LISTEN TCP; SYSTEM START LISTEN HTTP; \
SELECT sleepEachRow(1) FROM numbers(1000000000) \
SETTINGS max_block_size=1, function_sleep_max_microseconds_per_block=0 FORMAT Null"

readonly MODERN_TCP_PORT=${CLICKHOUSE_MODERN_TCP_PORT:-19000}
readonly MODERN_HTTP_PORT=${CLICKHOUSE_MODERN_HTTP_PORT:-18123}
readonly LEGACY_TCP_PORT=${CLICKHOUSE_LEGACY_TCP_PORT:-29000}
readonly LEGACY_HTTP_PORT=${CLICKHOUSE_LEGACY_HTTP_PORT:-28123}
readonly LEGACY_TLS_PORT=${CLICKHOUSE_LEGACY_TLS_PORT:-29440}
readonly CLUSTER_TCP_BASE=${CLICKHOUSE_CLUSTER_TCP_BASE:-19100}
readonly CLUSTER_HTTP_BASE=${CLICKHOUSE_CLUSTER_HTTP_BASE:-18100}
readonly CLUSTER_MEMORY=${CLICKHOUSE_CLUSTER_MEMORY:-1073741824}
readonly CLUSTER_NAME=tcp_cluster
readonly CLUSTER_NODES=(cluster1 cluster2 cluster3)

readonly SECRET_USER=tcp_secret
readonly SECRET_PASSWORD=tcp-secret-pw
# users whose profile has readonly = 1 (no writes, no settings) and readonly = 2 (no writes)
readonly READONLY_USER=tcp_readonly
readonly READONLY_SETTINGS_USER=tcp_readonly_settings
readonly READONLY_PROFILE=readonly_queries
readonly READONLY_SETTINGS_PROFILE=readonly_queries_settings

usage() {
    echo "usage: $0 start|stop|status|restart modern|legacy|all|cluster|cluster1|cluster2|cluster3" >&2
    exit 2
}

say() { printf '%s\n' "$*"; }
fail() {
    printf 'clickhouse-server.sh: error: %s\n' "$*" >&2
    exit 1
}

# ---------------------------------------------------------------- packages

SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo -n)
fi
APT_UPDATED=0

apt_install() {
    if [ "$APT_UPDATED" -eq 0 ]; then
        say "running apt-get update ..."
        "${SUDO[@]}" apt-get update -qq || fail "apt-get update failed (root or sudo needed to install $*)"
        APT_UPDATED=1
    fi
    say "installing $* with apt-get ..."
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq "$@" \
        || fail "apt-get install $* failed"
}

pkg_installed() {
    local status
    status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) || return 1
    [ "$status" = "install ok installed" ]
}

# ensure_command COMMAND PACKAGE: installs PACKAGE when COMMAND is missing.
ensure_command() {
    command -v "$1" >/dev/null 2>&1 || apt_install "$2"
    command -v "$1" >/dev/null 2>&1 || fail "$1 is still missing after installing $2"
}

# ---------------------------------------------------------------- probes

port_open() {
    # shellcheck disable=SC2016 # expanded by the inner bash
    timeout 3 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$LISTEN" "$1" 2>/dev/null
}

http_get() { # PORT QUERY
    curl -sS -m 10 --data-urlencode "query=$2" -G "http://$LISTEN:$1/"
}

ping_ok() {
    [ "$(curl -s -m 3 "http://$LISTEN:$1/ping" 2>/dev/null)" = "Ok." ]
}

process_alive() {
    local state
    kill -0 "$1" 2>/dev/null || return 1
    state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
    [ "$state" != "Z" ]
}

# ---------------------------------------------------------------- per-kind settings

# select_kind KIND sets KIND, DIR, PID_FILE, LOG_FILE, ERR_LOG, TCP, HTTP, TLS (empty for modern).
select_kind() {
    KIND=$1
    DIR="$STATE_DIR/$KIND"
    PID_FILE="$DIR/server.pid"
    LOG_FILE="$DIR/server.log"
    case "$KIND" in
        modern)
            TCP=$MODERN_TCP_PORT HTTP=$MODERN_HTTP_PORT TLS=
            ERR_LOG="$DIR/clickhouse.err.log"
            ;;
        legacy)
            TCP=$LEGACY_TCP_PORT HTTP=$LEGACY_HTTP_PORT TLS=$LEGACY_TLS_PORT
            ERR_LOG="$DIR/log/clickhouse-server.err.log"
            ;;
        cluster[1-3])
            NODE=${KIND#cluster}
            TCP=$((CLUSTER_TCP_BASE + NODE)) HTTP=$((CLUSTER_HTTP_BASE + NODE)) TLS=
            ERR_LOG="$DIR/clickhouse.err.log"
            ;;
        *) usage ;;
    esac
}

ports() {
    echo "$TCP" "$HTTP" ${TLS:+"$TLS"}
}

# Prints the pid of this kind's server if it is running; the pid must still be one of our servers.
running_pid() {
    local pid cmdline
    [ -f "$PID_FILE" ] || return 1
    pid=$(<"$PID_FILE")
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    process_alive "$pid" || return 1
    cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
    [[ $cmdline == *"$DIR/"* ]] || return 1
    echo "$pid"
}

healthy() {
    local port
    ping_ok "$HTTP" || return 1
    for port in "$TCP" ${TLS:+"$TLS"}; do
        port_open "$port" || return 1
    done
}

log_tail() {
    local file
    for file in "$LOG_FILE" "$ERR_LOG"; do
        if [ -s "$file" ]; then
            echo "----- last lines of $file -----" >&2
            tail -n 30 "$file" | cut -c1-400 >&2
        fi
    done
}

summary() {
    local version
    version=$(http_get "$HTTP" "SELECT version()" 2>/dev/null) || version="?"
    say "$KIND: ClickHouse $version native=$LISTEN:$TCP http=$LISTEN:$HTTP${TLS:+ tls=$LISTEN:$TLS}" \
        "(pid $(running_pid || echo '?'))${TLS:+ cert=$DIR/server.crt}"
}

lock_kind() {
    mkdir -p "$DIR"
    exec 9>"$STATE_DIR/.$KIND.lock"
    flock -w "$LOCK_TIMEOUT" 9 || fail "$KIND: another clickhouse-server.sh is still busy with it after ${LOCK_TIMEOUT}s"
}

unlock_kind() {
    exec 9>&-
}

# The per-kind lock lives in the state directory, so servers with different state directories (see
# CLICKHOUSE_TCP_STATE) start concurrently. What they share — downloads and the compiled host in the
# cache, apt-get — is set up under this lock in the cache directory.
lock_setup() {
    mkdir -p "$CACHE_DIR"
    exec 8>"$CACHE_DIR/.setup.lock"
    flock -w "$LOCK_TIMEOUT" 8 || fail "another clickhouse-server.sh is still busy setting up after ${LOCK_TIMEOUT}s"
}

unlock_setup() {
    exec 8>&-
}

# ---------------------------------------------------------------- modern: ClickHouse 26.7 embedded

ensure_chdb_library() {
    local lib_dir="$CACHE_DIR/chdb-$CHDB_VERSION" tarball="$CACHE_DIR/$CHDB_TARBALL" tmp
    CHDB_LIBRARY="$lib_dir/libchdb.so"
    [ -f "$CHDB_LIBRARY" ] && return 0
    mkdir -p "$CACHE_DIR"
    if [ ! -f "$tarball" ]; then
        ensure_command npm npm
        say "fetching ClickHouse 26.7 ($CHDB_PACKAGE@$CHDB_VERSION, about 180 MB) ..."
        tmp=$(mktemp -d "$CACHE_DIR/.fetch.XXXXXX")
        if ! (cd "$tmp" && npm pack --silent "$CHDB_PACKAGE@$CHDB_VERSION" >/dev/null); then
            rm -rf "$tmp"
            fail "npm pack $CHDB_PACKAGE@$CHDB_VERSION failed"
        fi
        mv "$tmp/$CHDB_TARBALL" "$tarball"
        rm -rf "$tmp"
    else
        say "using cached $tarball"
    fi
    say "extracting libchdb.so (about 570 MB) into $lib_dir ..."
    tmp=$(mktemp -d "$CACHE_DIR/.extract.XXXXXX")
    if ! tar -xzf "$tarball" -C "$tmp" package/libchdb.so; then
        rm -rf "$tmp"
        rm -f "$tarball"
        fail "cannot extract $tarball (removed it; the next start fetches it again)"
    fi
    mkdir -p "$lib_dir"
    mv "$tmp/package/libchdb.so" "$CHDB_LIBRARY"
    rm -rf "$tmp"
}

ensure_chdb_host() {
    local hash old
    [ -f "$HOST_SOURCE" ] || fail "missing $HOST_SOURCE"
    hash=$(sha256sum "$HOST_SOURCE" | cut -c1-16)
    CHDB_HOST="$CACHE_DIR/chdb-host-$hash"
    [ -x "$CHDB_HOST" ] && return 0
    ensure_command gcc gcc
    say "building $CHDB_HOST from $HOST_SOURCE ..."
    mkdir -p "$CACHE_DIR"
    gcc -O2 -Wall -Wextra -o "$CHDB_HOST.tmp.$$" "$HOST_SOURCE" -ldl || fail "cannot compile $HOST_SOURCE"
    mv "$CHDB_HOST.tmp.$$" "$CHDB_HOST"
    for old in "$CACHE_DIR"/chdb-host-*; do
        [ "$old" = "$CHDB_HOST" ] || rm -f "$old"
    done
}

write_modern_users() {
    cat >"$DIR/users.xml" <<EOF
<clickhouse>
    <!-- Generated by scripts/clickhouse-server.sh. Test-only users. -->
    <profiles>
        <default/>
        <$READONLY_PROFILE><readonly>1</readonly></$READONLY_PROFILE>
        <$READONLY_SETTINGS_PROFILE><readonly>2</readonly></$READONLY_SETTINGS_PROFILE>
    </profiles>
    <quotas><default/></quotas>
    <users>
        <default>
            <password></password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
        <$SECRET_USER>
            <password>$SECRET_PASSWORD</password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </$SECRET_USER>
        <$READONLY_USER>
            <password></password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>$READONLY_PROFILE</profile>
            <quota>default</quota>
        </$READONLY_USER>
        <$READONLY_SETTINGS_USER>
            <password></password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>$READONLY_SETTINGS_PROFILE</profile>
            <quota>default</quota>
        </$READONLY_SETTINGS_USER>
    </users>
</clickhouse>
EOF
}

write_modern_config() {
    write_modern_users
    cat >"$DIR/config.xml" <<EOF
<clickhouse>
    <!-- Generated by scripts/clickhouse-server.sh. -->
    <logger>
        <level>information</level>
        <log>$DIR/clickhouse.log</log>
        <errorlog>$DIR/clickhouse.err.log</errorlog>
        <size>50M</size>
        <count>2</count>
    </logger>
    <user_directories>
        <users_xml><path>$DIR/users.xml</path></users_xml>
    </user_directories>
    <query_log>
        <database>system</database>
        <table>query_log</table>
        <flush_interval_milliseconds>500</flush_interval_milliseconds>
    </query_log>
    <opentelemetry_span_log>
        <database>system</database>
        <table>opentelemetry_span_log</table>
        <flush_interval_milliseconds>500</flush_interval_milliseconds>
    </opentelemetry_span_log>
    <!-- chunked packet framing (revision 54470+) is the client's choice on this server, so tests
         can exercise both framings against it -->
    <proto_caps>
        <send>chunked_optional</send>
        <recv>chunked_optional</recv>
    </proto_caps>
</clickhouse>
EOF
}

prepare_engine() {
    lock_setup
    ensure_command curl curl
    ensure_chdb_library
    ensure_chdb_host
    unlock_setup
    mkdir -p "$DIR/data"
    # clickhouse-local does not keep the system database's metadata, only its tables' data
    # directories; left over from an earlier run they make creating system.query_log etc. fail
    # ("Directory for table data data/system/query_log/ already exists"). System logs start empty.
    rm -rf "$DIR/data/data/system"
}

engine_command() {
    COMMAND=("$CHDB_HOST" "$CHDB_LIBRARY" clickhouse
        "--path=$DIR/data" "--tcp_port=$TCP" "--http_port=$HTTP" "--listen_host=$LISTEN"
        "--config-file=$DIR/config.xml" "--log-level=information" --query "$MODERN_QUERY")
}

prepare_modern() {
    prepare_engine
    write_modern_config
    engine_command
}

# ---------------------------------------------------------------- cluster: three ClickHouse 26.7 nodes

# The remote_servers section every node carries. No Keeper: clickhouse-local (the engine libchdb.so
# runs) starts no <keeper_server>, has no interserver HTTP endpoint (ReplicatedMergeTree stays read-only:
# "Parameter 'interserver_http(s)_port' required for replication is not specified") and refuses ON
# CLUSTER ("Replicated DDL queries are disabled"). So the replicas of shard 2 are plain MergeTree
# tables that a Distributed table writes to both (internal_replication false).
cluster_remote_servers() {
    cat <<EOF
    <remote_servers>
        <$CLUSTER_NAME>
            <shard>
                <internal_replication>false</internal_replication>
                <replica><host>$LISTEN</host><port>$((CLUSTER_TCP_BASE + 1))</port></replica>
            </shard>
            <shard>
                <internal_replication>false</internal_replication>
                <replica><host>$LISTEN</host><port>$((CLUSTER_TCP_BASE + 2))</port></replica>
                <replica><host>$LISTEN</host><port>$((CLUSTER_TCP_BASE + 3))</port></replica>
            </shard>
        </$CLUSTER_NAME>
    </remote_servers>
EOF
}

write_cluster_config() {
    local shard=1
    [ "$NODE" -eq 1 ] || shard=2
    write_modern_users
    cat >"$DIR/config.xml" <<EOF
<clickhouse>
    <!-- Generated by scripts/clickhouse-server.sh: node $NODE of cluster $CLUSTER_NAME. -->
    <logger>
        <level>warning</level>
        <log>$DIR/clickhouse.log</log>
        <errorlog>$DIR/clickhouse.err.log</errorlog>
        <size>20M</size>
        <count>2</count>
    </logger>
    <display_name>$KIND</display_name>
    <user_directories>
        <users_xml><path>$DIR/users.xml</path></users_xml>
    </user_directories>
    <macros>
        <cluster>$CLUSTER_NAME</cluster>
        <shard>$shard</shard>
        <replica>$KIND</replica>
        <node>$KIND</node>
    </macros>
    <!-- three nodes within a few GB: a hard cap per node and small caches -->
    <max_server_memory_usage>$CLUSTER_MEMORY</max_server_memory_usage>
    <mark_cache_size>67108864</mark_cache_size>
    <index_mark_cache_size>16777216</index_mark_cache_size>
    <uncompressed_cache_size>0</uncompressed_cache_size>
    <query_condition_cache_size>16777216</query_condition_cache_size>
$(cluster_remote_servers)
</clickhouse>
EOF
}

prepare_cluster_node() {
    prepare_engine
    write_cluster_config
    engine_command
}

# ---------------------------------------------------------------- legacy: ClickHouse 18.16 (Debian)

ensure_legacy_packages() {
    local missing=() pkg
    for pkg in clickhouse-server clickhouse-client; do
        pkg_installed "$pkg" || missing+=("$pkg")
    done
    [ "${#missing[@]}" -eq 0 ] || apt_install "${missing[@]}"
    ensure_command openssl openssl
    ensure_command curl curl
}

ensure_certificate() {
    # A test CA signs the server certificate (CN=localhost, SAN localhost and 127.0.0.1) and a client
    # certificate for mutual TLS; a second, unrelated CA and its own client certificate exist for
    # negative tests. Regenerated when any file is missing or within a week of expiry.
    local f ok=1
    for f in ca.crt server.crt server.key client.crt client.key other-ca.crt other-client.crt other-client.key; do
        [ -s "$DIR/$f" ] || ok=0
    done
    if [ "$ok" -eq 1 ] && openssl x509 -checkend 604800 -noout -in "$DIR/server.crt" >/dev/null 2>&1; then
        return 0
    fi
    say "legacy: generating a test CA, server and client TLS certificates ..."
    local tmp
    tmp="$(mktemp -d)"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -sha256 -subj "/CN=clickhouse-tcp test CA" \
        -keyout "$DIR/ca.key" -out "$DIR/ca.crt" >/dev/null 2>&1 || fail "openssl could not create the test CA"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -sha256 -subj "/CN=clickhouse-tcp other CA" \
        -keyout "$DIR/other-ca.key" -out "$DIR/other-ca.crt" >/dev/null 2>&1 || fail "openssl could not create a CA"
    issue() { # NAME SUBJECT CA EXTFILE-CONTENT
        printf '%s\n' "$4" >"$tmp/$1.ext"
        openssl req -newkey rsa:2048 -nodes -sha256 -subj "$2" -keyout "$DIR/$1.key" -out "$tmp/$1.csr" \
            >/dev/null 2>&1 || fail "openssl could not create the $1 key"
        openssl x509 -req -in "$tmp/$1.csr" -CA "$DIR/$3.crt" -CAkey "$DIR/$3.key" -CAcreateserial \
            -CAserial "$tmp/$3.srl" -days 3650 -sha256 -extfile "$tmp/$1.ext" -out "$DIR/$1.crt" \
            >/dev/null 2>&1 || fail "openssl could not sign the $1 certificate"
    }
    issue server "/CN=localhost" ca "subjectAltName=DNS:localhost,IP:127.0.0.1"
    issue client "/CN=tcp-client" ca "extendedKeyUsage=clientAuth"
    issue other-client "/CN=tcp-other-client" other-ca "extendedKeyUsage=clientAuth"
    rm -rf "$tmp"
    chmod 600 "$DIR"/*.key
    chmod 644 "$DIR"/*.crt
    # the server runs as the clickhouse user and must read its key
    chown clickhouse "$DIR/server.key" 2>/dev/null || true
}

write_legacy_config() {
    # The package's own files, copied; everything this setup changes is in config.d/ and users.d/,
    # which clickhouse-server merges over them.
    cp /etc/clickhouse-server/config.xml "$DIR/config.xml"
    cp /etc/clickhouse-server/users.xml "$DIR/users.xml"
    mkdir -p "$DIR/config.d" "$DIR/users.d"
    cat >"$DIR/config.d/clickhouse-tcp.xml" <<EOF
<?xml version="1.0"?>
<!-- Generated by scripts/clickhouse-server.sh. -->
<yandex>
    <logger>
        <level>information</level>
        <log>$DIR/log/clickhouse-server.log</log>
        <errorlog>$DIR/log/clickhouse-server.err.log</errorlog>
        <size>50M</size>
        <count>2</count>
    </logger>
    <listen_host>$LISTEN</listen_host>
    <tcp_port>$TCP</tcp_port>
    <http_port>$HTTP</http_port>
    <tcp_port_secure>$TLS</tcp_port_secure>
    <interserver_http_port remove="remove"/>
    <path>$DIR/data/</path>
    <tmp_path>$DIR/tmp/</tmp_path>
    <user_files_path>$DIR/user_files/</user_files_path>
    <format_schema_path>$DIR/format_schemas/</format_schema_path>
    <users_config>$DIR/users.xml</users_config>
    <uncompressed_cache_size>268435456</uncompressed_cache_size>
    <mark_cache_size>268435456</mark_cache_size>
    <openSSL>
        <server>
            <certificateFile>$DIR/server.crt</certificateFile>
            <privateKeyFile>$DIR/server.key</privateKeyFile>
            <dhParamsFile></dhParamsFile>
            <!-- relaxed: a client certificate is requested and, when one is sent, verified against ca.crt -->
            <verificationMode>relaxed</verificationMode>
            <caConfig>$DIR/ca.crt</caConfig>
            <loadDefaultCAFile>false</loadDefaultCAFile>
            <!-- a client certificate from another CA is refused, never asked about on the console -->
            <invalidCertificateHandler><name>RejectCertificateHandler</name></invalidCertificateHandler>
        </server>
    </openSSL>
</yandex>
EOF
    # For clickhouse-client --secure --config-file=client-tls.xml: trusts exactly the test CA.
    cat >"$DIR/client-tls.xml" <<EOF
<config>
    <openSSL>
        <client>
            <loadDefaultCAFile>false</loadDefaultCAFile>
            <caConfig>$DIR/ca.crt</caConfig>
            <verificationMode>strict</verificationMode>
            <invalidCertificateHandler><name>RejectCertificateHandler</name></invalidCertificateHandler>
        </client>
    </openSSL>
</config>
EOF
    cat >"$DIR/users.d/clickhouse-tcp.xml" <<EOF
<?xml version="1.0"?>
<!-- Generated by scripts/clickhouse-server.sh. Test-only users. -->
<yandex>
    <profiles>
        <$READONLY_PROFILE><readonly>1</readonly></$READONLY_PROFILE>
        <$READONLY_SETTINGS_PROFILE><readonly>2</readonly></$READONLY_SETTINGS_PROFILE>
    </profiles>
    <users>
        <default>
            <password></password>
        </default>
        <$SECRET_USER>
            <password>$SECRET_PASSWORD</password>
            <networks><ip>::/0</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </$SECRET_USER>
        <$READONLY_USER>
            <password></password>
            <networks><ip>::/0</ip></networks>
            <profile>$READONLY_PROFILE</profile>
            <quota>default</quota>
        </$READONLY_USER>
        <$READONLY_SETTINGS_USER>
            <password></password>
            <networks><ip>::/0</ip></networks>
            <profile>$READONLY_SETTINGS_PROFILE</profile>
            <quota>default</quota>
        </$READONLY_SETTINGS_USER>
    </users>
</yandex>
EOF
}

prepare_legacy() {
    local server
    lock_setup
    ensure_legacy_packages
    unlock_setup
    server=$(command -v clickhouse-server || echo /usr/sbin/clickhouse-server)
    [ -x "$server" ] || fail "clickhouse-server is not installed at $server"
    mkdir -p "$DIR/data" "$DIR/tmp" "$DIR/user_files" "$DIR/format_schemas" "$DIR/log"
    ensure_certificate
    write_legacy_config
    COMMAND=("$server" "--config-file=$DIR/config.xml")
    # Run as the package's service user when we are root; otherwise as ourselves.
    if [ "$(id -u)" -eq 0 ] && id clickhouse >/dev/null 2>&1; then
        chown -R clickhouse:clickhouse "$DIR"
        chmod a+x "$STATE_DIR"
        COMMAND=(setpriv --reuid=clickhouse --regid=clickhouse --init-groups "${COMMAND[@]}")
    fi
}

# ---------------------------------------------------------------- start / stop / status

wait_ready() { # PID
    local pid=$1 started=$SECONDS
    local deadline=$((started + READY_TIMEOUT)) next_note=$((started + 10))
    say "$KIND: waiting for $LISTEN:$TCP (native), $LISTEN:$HTTP (http)${TLS:+, $LISTEN:$TLS (tls)} ..."
    while :; do
        if ! process_alive "$pid"; then
            log_tail
            rm -f "$PID_FILE"
            fail "$KIND: the server (pid $pid) exited during startup; logs are in $DIR"
        fi
        if healthy; then
            say "$KIND: ready"
            return 0
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            log_tail
            say "$KIND: not ready after ${READY_TIMEOUT}s; stopping pid $pid"
            stop_locked >/dev/null
            fail "$KIND: not ready after ${READY_TIMEOUT}s; logs are in $DIR"
        fi
        if [ "$SECONDS" -ge "$next_note" ]; then
            say "$KIND: still waiting ($((SECONDS - started))s) ..."
            next_note=$((SECONDS + 10))
        fi
        sleep 0.5
    done
}

wait_ports_closed() {
    local deadline=$((SECONDS + STOP_TIMEOUT)) port
    local -a open
    while :; do
        open=()
        for port in $(ports); do
            port_open "$port" && open+=("$port")
        done
        [ "${#open[@]}" -eq 0 ] && return 0
        if [ "$SECONDS" -ge "$deadline" ]; then
            ss -ltnp 2>/dev/null | grep -E ":($(ports | tr ' ' '|'))\b" >&2 || true
            fail "$KIND: port(s) ${open[*]} still open ${STOP_TIMEOUT}s after stopping"
        fi
        sleep 0.25
    done
}

stop_locked() {
    local pid deadline
    if pid=$(running_pid); then
        say "$KIND: stopping pid $pid ..."
        kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
        deadline=$((SECONDS + STOP_TIMEOUT))
        while process_alive "$pid" && [ "$SECONDS" -lt "$deadline" ]; do
            sleep 0.25
        done
        if process_alive "$pid"; then
            say "$KIND: pid $pid ignored SIGTERM for ${STOP_TIMEOUT}s; sending SIGKILL"
            kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
            deadline=$((SECONDS + STOP_TIMEOUT))
            while process_alive "$pid" && [ "$SECONDS" -lt "$deadline" ]; do
                sleep 0.25
            done
            process_alive "$pid" && fail "$KIND: pid $pid survived SIGKILL"
        fi
        rm -f "$PID_FILE"
        wait_ports_closed
        say "$KIND: stopped"
    else
        if [ -f "$PID_FILE" ]; then
            say "$KIND: removing stale pid file $PID_FILE"
            rm -f "$PID_FILE"
        fi
        say "$KIND: not running"
    fi
}

launch() {
    local deadline pid=
    {
        echo
        echo "===== $(date '+%F %T') starting: ${COMMAND[*]}"
    } >>"$LOG_FILE"
    # New session and process group (so stop can signal the whole group); the pid file gets the
    # pid of the server process itself. fds 8 and 9 (our locks) must not leak into the server.
    # shellcheck disable=SC2016 # expanded by the inner bash
    setsid bash -c 'echo $$ >"$0"; exec "$@"' "$PID_FILE" "${COMMAND[@]}" \
        </dev/null >>"$LOG_FILE" 2>&1 8>&- 9>&- &
    deadline=$((SECONDS + 10))
    while [ "$SECONDS" -lt "$deadline" ]; do
        [ -s "$PID_FILE" ] && pid=$(<"$PID_FILE") && [[ $pid =~ ^[0-9]+$ ]] && break
        pid=
        sleep 0.1
    done
    [ -n "$pid" ] || fail "$KIND: the server process did not start (see $LOG_FILE)"
    LAUNCHED_PID=$pid
}

start_locked() {
    local pid port deadline
    if pid=$(running_pid); then
        if healthy; then
            say "$KIND: already running (pid $pid)"
            summary
            return 0
        fi
        say "$KIND: pid $pid is running but not answering; giving it ${UNHEALTHY_GRACE}s ..."
        deadline=$((SECONDS + UNHEALTHY_GRACE))
        while [ "$SECONDS" -lt "$deadline" ] && process_alive "$pid"; do
            if healthy; then
                say "$KIND: answering again (pid $pid)"
                summary
                return 0
            fi
            sleep 1
        done
        say "$KIND: pid $pid still not answering; restarting it"
        stop_locked
    elif [ -f "$PID_FILE" ]; then
        say "$KIND: removing stale pid file (pid $(<"$PID_FILE") is gone)"
        rm -f "$PID_FILE"
    fi
    for port in $(ports); do
        if port_open "$port"; then
            ss -ltnp 2>/dev/null | grep -E ":$port\b" >&2 || true
            fail "$KIND: port $LISTEN:$port is already in use by another process"
        fi
    done
    case "$KIND" in
        cluster[1-3]) prepare_cluster_node ;;
        *) "prepare_$KIND" ;;
    esac
    say "$KIND: starting (state in $DIR) ..."
    launch
    wait_ready "$LAUNCHED_PID"
    summary
}

status_locked() {
    local pid
    if pid=$(running_pid); then
        if healthy; then
            summary
            return 0
        fi
        say "$KIND: pid $pid is running but not answering on $LISTEN:$TCP/$HTTP"
        return 1
    fi
    say "$KIND: stopped"
    return 1
}

main() {
    [ "$#" -eq 2 ] || usage
    local action=$1 target=$2 kinds kind rc=0
    case "$target" in
        modern | legacy | cluster[1-3]) kinds=("$target") ;;
        all) kinds=(modern legacy) ;;
        cluster) kinds=("${CLUSTER_NODES[@]}") ;;
        *) usage ;;
    esac
    mkdir -p "$STATE_DIR"
    STATE_DIR=$(cd "$STATE_DIR" && pwd)
    for kind in "${kinds[@]}"; do
        select_kind "$kind"
        case "$action" in
            start) lock_kind; start_locked; unlock_kind ;;
            stop) lock_kind; stop_locked; unlock_kind ;;
            restart) lock_kind; stop_locked; start_locked; unlock_kind ;;
            status) status_locked || rc=3 ;;
            *) usage ;;
        esac
    done
    return "$rc"
}

main "$@"
