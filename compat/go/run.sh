#!/usr/bin/env bash
# Compatibility check against the official Go client, SynapseGo, unmodified:
# extracts ../shared/sdks/SynapseGo.tar.gz (beside the repository) into a
# temporary directory, builds this folder's module with a copy of go.mod
# whose replace points github.com/SynapseFI/SynapseGo at that tree (-modfile;
# its dependencies come from the Go module proxy, checked against go.sum),
# starts cmd/synapsefake on a free loopback port with a manual clock, runs
# the checks against it, stops the server and exits with their status.
#
# CI (.ci/run) calls it from the repository root, after Go is set up:
#
#	bash compat/go/run.sh
#
# The output is one line per check and a closing "N passed, M failed, K
# skipped" line; skipped calls meet one of the SDK's own bugs, named on
# their line. SYNAPSEGO_TARBALL overrides the tarball's path.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

tarball="${SYNAPSEGO_TARBALL:-$root/../shared/sdks/SynapseGo.tar.gz}"
if [[ ! -f "$tarball" ]]; then
	echo "compat/go: $tarball not found (../shared/sdks/ must sit beside the repository)" >&2
	exit 1
fi

client_id="compat_client_id"
client_secret="compat_client_secret"
# shellcheck source=../fake.sh
source "$root/compat/fake.sh"
start_fake compat/go "$client_id" "$client_secret" -quiet

# The SDK's tree, never edited, and the module files that point at it.
mkdir "$tmp/SynapseGo" "$tmp/mod"
tar -xzf "$tarball" -C "$tmp/SynapseGo"
cp "$here/go.mod" "$here/go.sum" "$tmp/mod/"
(
	cd "$here"
	go mod edit -modfile="$tmp/mod/go.mod" -replace="github.com/SynapseFI/SynapseGo=$tmp/SynapseGo"
	go mod download -modfile="$tmp/mod/go.mod"
	go mod edit -modfile="$tmp/mod/go.mod" -replace="github.com/synapsefake/synapsefake=$root"
	go vet -modfile="$tmp/mod/go.mod" .
	go build -modfile="$tmp/mod/go.mod" -o "$tmp/compat-go" .
	# docs/compatibility.md's recipe, run as written against an in-process fake.
	go test -count=1 -modfile="$tmp/mod/go.mod" -run '^TestInterceptRecipe$' .
)

status=0
SYNAPSEFAKE_CLIENT_ID="$client_id" SYNAPSEFAKE_CLIENT_SECRET="$client_secret" \
	"$tmp/compat-go" "$base" || status=$?
if [[ $status -ne 0 ]]; then
	echo "compat/go: server output:" >&2
	cat "$server_log" >&2
fi
exit "$status"
