#!/usr/bin/env bash
# Installs the API baseline: the release the API check (japicmp, `mvn -Prelease`) compares the public modules
# against. It builds the git tag v<api.baseline.version> (pom.xml) from a clean export of that tag, tests skipped,
# and installs its published modules into the local Maven repository under the release's own version (for
# example 0.1.0), which never clashes with the -SNAPSHOT version being developed.
#
# Usage: scripts/install-api-baseline.sh [extra Maven arguments, e.g. -Dmaven.repo.local=/some/repository]
#
# Fails when the tag is missing (a clone without tags, or a shallow one): fetch it with `git fetch --tags`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

fail() {
    printf 'install-api-baseline.sh: error: %s\n' "$*" >&2
    exit 1
}

VERSION=$(sed -n 's:.*<api.baseline.version>\(.*\)</api.baseline.version>.*:\1:p' pom.xml | head -n 1)
[ -n "$VERSION" ] || fail "pom.xml has no <api.baseline.version>"
TAG="v$VERSION"

git rev-parse -q --verify "refs/tags/$TAG^{commit}" >/dev/null || fail "the git tag $TAG is missing, so the API \
baseline $VERSION (api.baseline.version in pom.xml) cannot be built and the API check cannot run. The tag marks the \
release $VERSION on main's history; fetch it with 'git fetch --tags' (a shallow clone needs 'git fetch --unshallow \
--tags'). See docs/releasing.md."

TREE=$(mktemp -d "${TMPDIR:-/tmp}/clickhouse-tcp-baseline.XXXXXX")
trap 'rm -rf "$TREE"' EXIT
git archive "$TAG" | tar -x -C "$TREE"

TAGGED_VERSION=$(sed -n '0,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' "$TREE/pom.xml")
[ "$TAGGED_VERSION" = "$VERSION" ] || fail "the tag $TAG holds version $TAGGED_VERSION, not $VERSION"

echo "installing the API baseline $VERSION from $TAG ($(git rev-parse --short "$TAG^{commit}"))"
mvn -B -ntp -q -f "$TREE/pom.xml" -Dmaven.test.skip=true -Denforcer.skip=true -Dmdep.analyze.skip=true \
    -pl clickhouse-tcp-bom,clickhouse-tcp-core,clickhouse-tcp-spring-boot-starter,clickhouse-tcp-actuator -am \
    install "$@"
