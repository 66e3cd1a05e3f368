#!/usr/bin/env bash
# Compatibility check against the official Node clients (synapsenode 1.2.17
# and synapsepay 0.12.0, pinned in package.json and package-lock.json):
# builds cmd/synapsefake, starts it on a random loopback port with a manual
# clock, runs test_control.js (the checks of clients/node/control.js, the
# control API's Node client; it ends with a reset), then compat.js (both
# clients' checks, one after the other) against it, stops the server and
# exits 1 when either failed.
#
# CI (.ci/run) calls it from the repository root, after Go is set up:
#
#	npm ci --prefix compat/node
#	bash compat/node/run.sh
#
# Locally the same two commands work from the repository root (run.sh itself
# finds the root from wherever it is called). Needs go, npm and node (v18 or
# later, for the global fetch). The output is, for each script, one line per
# check and a closing "N passed, M failed" line.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

for pkg in synapsenode synapsepay; do
	if [[ ! -d "$here/node_modules/$pkg" ]]; then
		echo "compat/node: $pkg is not installed; run: npm ci --prefix compat/node" >&2
		exit 1
	fi
done

client_id="compat_client_id"
client_secret="compat_client_secret"
# shellcheck source=../fake.sh
source "$root/compat/fake.sh"
# -funds-check: compat.js shows the funding trap's refusal (a transfer counting on a dummy
# credit still CREATED), which the fake makes only with it.
start_fake compat/node "$client_id" "$client_secret" -quiet -funds-check

status=0
echo "clients/node/control.js, the control API's Node client (test_control.js):"
SYNAPSEFAKE_CLIENT_ID="$client_id" SYNAPSEFAKE_CLIENT_SECRET="$client_secret" \
	node "$here/test_control.js" "$base" || status=$?
echo "synapsenode and synapsepay (compat.js):"
SYNAPSEFAKE_CLIENT_ID="$client_id" SYNAPSEFAKE_CLIENT_SECRET="$client_secret" \
	node "$here/compat.js" "$base" || status=$?
if [[ $status -ne 0 ]]; then
	echo "compat/node: server output:" >&2
	cat "$server_log" >&2
fi
exit "$status"
