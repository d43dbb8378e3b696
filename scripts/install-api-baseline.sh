#!/usr/bin/env bash
# Installs the API baseline: the release the API check (japicmp, `mvn -Prelease`) compares the public modules
# against. It builds release <api.baseline.version> (pom.xml) from a clean export of its commit, tests skipped,
# and installs its published modules into the local Maven repository under the release's own version (for
# example 0.1.0), which never clashes with the -SNAPSHOT version being developed.
#
# Where the release's sources come from, first found wins:
#   1. the git tag v<api.baseline.version>;
#   2. the commit <api.baseline.commit> (pom.xml), which the tag points at, for a clone made without tags;
#   3. the same two after fetching them from the clone's origin (tags, the commit, or the whole history of a
#      shallow clone);
#   4. the release already installed in the local Maven repository (an earlier run of this script).
#
# Usage: scripts/install-api-baseline.sh [extra Maven arguments, e.g. -Dmaven.repo.local=/some/repository]
#
# Exit status: 0 when the baseline is installed; 3 when none of the sources above has it (the API check cannot
# run: .ci/run then skips it with a warning); 1 on any other error.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

fail() {
    printf 'install-api-baseline.sh: error: %s\n' "$*" >&2
    exit 1
}

pom_property() { # NAME
    sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" pom.xml | head -n 1
}

VERSION=$(pom_property api.baseline.version)
[ -n "$VERSION" ] || fail "pom.xml has no <api.baseline.version>"
COMMIT=$(pom_property api.baseline.commit)
TAG="v$VERSION"
MODULES=(clickhouse-tcp-bom clickhouse-tcp-core clickhouse-tcp-spring-boot-starter clickhouse-tcp-actuator)

LOCAL_REPO=""
for arg in "$@"; do
    case "$arg" in -Dmaven.repo.local=*) LOCAL_REPO="${arg#-Dmaven.repo.local=}" ;; esac
done
LOCAL_REPO="${LOCAL_REPO:-$HOME/.m2/repository}"

in_git() {
    git rev-parse --is-inside-work-tree >/dev/null 2>&1
}

# Prints the commit holding the release's sources, or nothing.
resolve_source() {
    in_git || return 0
    if git rev-parse -q --verify "refs/tags/$TAG^{commit}" 2>/dev/null; then
        return 0
    fi
    if [ -n "$COMMIT" ] && git cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
        echo "$COMMIT"
    fi
}

fetch_source() {
    in_git && git remote get-url origin >/dev/null 2>&1 || return 0
    echo "install-api-baseline.sh: $TAG is not in this clone; fetching it from origin"
    timeout 120 git fetch -q origin "refs/tags/$TAG:refs/tags/$TAG" 2>/dev/null && return 0
    [ -n "$COMMIT" ] && timeout 120 git fetch -q origin "$COMMIT" 2>/dev/null && return 0
    if [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
        timeout 300 git fetch -q --unshallow --tags origin 2>/dev/null || true
    else
        timeout 120 git fetch -q --tags origin 2>/dev/null || true
    fi
}

already_installed() {
    local module
    for module in "${MODULES[@]}"; do
        [ -f "$LOCAL_REPO/dev/clickhousetcp/$module/$VERSION/$module-$VERSION.pom" ] || return 1
    done
}

SOURCE=$(resolve_source)
if [ -z "$SOURCE" ]; then
    fetch_source
    SOURCE=$(resolve_source)
fi
if [ -z "$SOURCE" ]; then
    if already_installed; then
        echo "install-api-baseline.sh: neither $TAG nor commit ${COMMIT:-?} is in this clone; using the baseline \
$VERSION already installed in $LOCAL_REPO"
        exit 0
    fi
    printf 'install-api-baseline.sh: warning: %s\n' "the API baseline $VERSION cannot be built: this clone has \
neither the tag $TAG nor the commit ${COMMIT:-?}, origin could not supply them, and $LOCAL_REPO does not hold the \
release. Fetch them with 'git fetch --tags' (a shallow clone needs 'git fetch --unshallow --tags'); see \
docs/releasing.md." >&2
    exit 3
fi

TREE=$(mktemp -d "${TMPDIR:-/tmp}/clickhouse-tcp-baseline.XXXXXX")
trap 'rm -rf "$TREE"' EXIT
git archive "$SOURCE" | tar -x -C "$TREE"

RELEASED_VERSION=$(sed -n '0,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' "$TREE/pom.xml")
[ "$RELEASED_VERSION" = "$VERSION" ] || fail "commit ${SOURCE:0:10} holds version $RELEASED_VERSION, not $VERSION"

echo "installing the API baseline $VERSION from commit ${SOURCE:0:10}"
mvn -B -ntp -q -f "$TREE/pom.xml" -Dmaven.test.skip=true -Denforcer.skip=true -Dmdep.analyze.skip=true \
    -pl "$(IFS=,; echo "${MODULES[*]}")" -am install "$@"
