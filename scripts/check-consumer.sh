#!/usr/bin/env bash
# Checks what `mvn deploy` wrote to a local file repository, as a user of the library would meet it:
#   1. every published module is there with its POM, jar, sources and Javadoc jars and CycloneDX SBOM, each jar
#      with an Automatic-Module-Name, and the POMs carry the metadata Maven Central requires;
#   2. a new Maven project outside the repository (scripts/consumer-check, copied to a temporary folder) imports
#      clickhouse-tcp-bom, depends on the starter, the actuator module and the JDBC driver without versions,
#      resolves them from that file repository only, and starts against the ClickHouse server at CLICKHOUSE_HOST:CLICKHOUSE_PORT
#      (default 127.0.0.1:19000, the embedded 26.7 server of scripts/clickhouse-server.sh).
#
# Usage: scripts/check-consumer.sh DEPLOY_REPOSITORY_DIR
#
# The consumer builds with its own empty local repository, so nothing of this project's reactor or of
# ~/.m2/repository/dev/clickhousetcp can stand in for the deployed files. Third-party artifacts come from the
# user's local repository (read as a file repository, releases only) or else Maven Central.
#
# Environment: CLICKHOUSE_HOST, CLICKHOUSE_PORT; KEEP_CONSUMER=1 keeps the temporary folder.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

fail() {
    printf 'check-consumer.sh: error: %s\n' "$*" >&2
    exit 1
}

[ $# -eq 1 ] || fail "usage: $0 DEPLOY_REPOSITORY_DIR"
REPO=$(cd "$1" && pwd) || fail "no such folder: $1"
pom_value() { sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" pom.xml | head -n 1; }
VERSION=$(sed -n '0,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' pom.xml)
SPRING_BOOT_VERSION=$(pom_value spring-boot.version)
[ -n "$VERSION" ] && [ -n "$SPRING_BOOT_VERSION" ] || fail "cannot read the versions from pom.xml"

GROUP_DIR="$REPO/dev/clickhousetcp"
PUBLISHED_JARS="clickhouse-tcp-core clickhouse-tcp-spring-boot-starter clickhouse-tcp-actuator clickhouse-tcp-jdbc"
PUBLISHED_POMS="clickhouse-tcp-parent clickhouse-tcp-bom"

# newest file of a module's VERSION folder matching a suffix (snapshots are deployed with timestamps)
artifact() { # MODULE SUFFIX
    local found
    found=$(ls -1 "$GROUP_DIR/$1/$VERSION/" 2>/dev/null | grep -E -- "^$1-.*$2\$" | sort | tail -n 1 || true)
    [ -n "$found" ] || fail "$1 $VERSION: no *$2 in $GROUP_DIR/$1/$VERSION"
    printf '%s\n' "$GROUP_DIR/$1/$VERSION/$found"
}

echo "checking the deployed artifacts in $REPO (version $VERSION)"
for module in $PUBLISHED_POMS $PUBLISHED_JARS; do
    artifact "$module" '\.pom' >/dev/null
done
for module in $PUBLISHED_JARS; do
    jar=$(artifact "$module" '[0-9]\.jar')
    artifact "$module" '-sources\.jar' >/dev/null
    artifact "$module" '-javadoc\.jar' >/dev/null
    artifact "$module" '-cyclonedx\.json' >/dev/null
    name=$(unzip -p "$jar" META-INF/MANIFEST.MF | tr -d '\r' | sed -n 's/^Automatic-Module-Name: //p')
    [ -n "$name" ] || fail "$jar has no Automatic-Module-Name"
    entries=$(unzip -l "$jar")
    grep -q 'META-INF/LICENSE$' <<<"$entries" || fail "$jar does not contain META-INF/LICENSE"
    printf '  %-36s %s\n' "$module" "Automatic-Module-Name: $name"
done
parent_pom=$(artifact clickhouse-tcp-parent '\.pom')
bom_pom=$(artifact clickhouse-tcp-bom '\.pom')
for pom in "$parent_pom" "$bom_pom"; do
    for element in url licenses developers scm issueManagement description; do
        grep -Eq "<$element[ >]" "$pom" || fail "$(basename "$pom") lacks <$element>"
    done
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/clickhouse-tcp-consumer.XXXXXX")
if [ "${KEEP_CONSUMER:-0}" != 1 ]; then
    trap 'rm -rf "$WORK"' EXIT
fi
cp -r scripts/consumer-check/. "$WORK/"
sed -i -e "s/@CLICKHOUSE_TCP_VERSION@/$VERSION/" -e "s/@SPRING_BOOT_VERSION@/$SPRING_BOOT_VERSION/" "$WORK/pom.xml"

USER_REPO=${HOME:-/root}/.m2/repository
cat > "$WORK/settings.xml" <<SETTINGS
<settings>
  <localRepository>$WORK/local-repository</localRepository>
  <profiles>
    <profile>
      <id>consumer-check</id>
      <repositories>
        <repository>
          <id>clickhouse-tcp-deployed</id>
          <url>file://$REPO</url>
          <releases><enabled>true</enabled></releases>
          <snapshots><enabled>true</enabled></snapshots>
        </repository>
        <repository>
          <id>user-local-releases</id>
          <url>file://$USER_REPO</url>
          <releases><enabled>true</enabled></releases>
          <snapshots><enabled>false</enabled></snapshots>
        </repository>
      </repositories>
      <pluginRepositories>
        <pluginRepository>
          <id>user-local-releases</id>
          <url>file://$USER_REPO</url>
          <releases><enabled>true</enabled></releases>
          <snapshots><enabled>false</enabled></snapshots>
        </pluginRepository>
      </pluginRepositories>
    </profile>
  </profiles>
  <activeProfiles>
    <activeProfile>consumer-check</activeProfile>
  </activeProfiles>
</settings>
SETTINGS

echo "building the consumer project in $WORK (its own local repository)"
(cd "$WORK" && mvn -B -ntp -q -s settings.xml package dependency:build-classpath \
    -Dmdep.outputFile=classpath.txt -Dmdep.includeScope=runtime) || fail "the consumer project does not build"

# the clickhouse-tcp jars on its class path must be the deployed ones (copied from the file repository)
for module in $PUBLISHED_JARS; do
    grep -q "local-repository/dev/clickhousetcp/$module/$VERSION/" "$WORK/classpath.txt" \
        || fail "$module $VERSION is not on the consumer's class path"
done
if grep -q "clickhouse-tcp-test-support" "$WORK/classpath.txt"; then
    fail "the test support module leaked into the consumer's class path"
fi

echo "starting the consumer against ${CLICKHOUSE_HOST:-127.0.0.1}:${CLICKHOUSE_PORT:-19000}"
output=$(cd "$WORK" && java -cp "target/classes:$(cat classpath.txt)" example.consumer.ConsumerApplication 2>&1) || {
    printf '%s\n' "$output" >&2
    fail "the consumer application failed"
}
printf '%s\n' "$output"
grep -q '^consumer check: ClickHouse ' <<<"$output" || fail "the consumer application did not reach ClickHouse"
grep -q '^consumer check: JDBC ' <<<"$output" || fail "the consumer application did not reach ClickHouse over JDBC"
echo "consumer check passed"
