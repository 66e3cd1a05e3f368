#!/usr/bin/env bash
# Compatibility check against the official Node clients (synapsenode 1.2.17
# and synapsepay 0.12.0, pinned in package.json and package-lock.json):
# builds cmd/synapsefake, starts it on a random loopback port with a manual
# clock, runs compat.js (both clients' checks, one after the other) against
# it, stops the server and exits with compat.js's status.
#
# CI (.ci/run) calls it from the repository root, after Go is set up:
#
#	npm ci --prefix compat/node
#	bash compat/node/run.sh
#
# Locally the same two commands work from the repository root (run.sh itself
# finds the root from wherever it is called). Needs go, npm and node (v18 or
# later, for the global fetch). The output is one line per check and a closing
# "N passed, M failed" line.
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

tmp="$(mktemp -d)"
server_pid=""
cleanup() {
	if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/synapsefake" ./cmd/synapsefake

client_id="compat_client_id"
client_secret="compat_client_secret"
"$tmp/synapsefake" -addr 127.0.0.1:0 -clock manual -quiet \
	-client-id "$client_id" -client-secret "$client_secret" \
	>"$tmp/server.log" 2>&1 &
server_pid=$!

# The first line is "synapsefake serving http://127.0.0.1:PORT/v3.1".
base=""
for _ in $(seq 1 100); do
	line="$(head -n 1 "$tmp/server.log" 2>/dev/null || true)"
	if [[ "$line" == "synapsefake serving "* ]]; then
		base="${line#synapsefake serving }"
		break
	fi
	if ! kill -0 "$server_pid" 2>/dev/null; then
		break
	fi
	sleep 0.1
done
if [[ -z "$base" ]]; then
	echo "compat/node: synapsefake did not start; its output:" >&2
	cat "$tmp/server.log" >&2
	exit 1
fi

status=0
SYNAPSEFAKE_CLIENT_ID="$client_id" SYNAPSEFAKE_CLIENT_SECRET="$client_secret" \
	node "$here/compat.js" "$base" || status=$?
if [[ $status -ne 0 ]]; then
	echo "compat/node: server output:" >&2
	cat "$tmp/server.log" >&2
fi
exit "$status"
