#!/usr/bin/env bash
# Browser check of the dashboard: builds cmd/synapsefake, starts it on a
# random loopback port with a manual clock, and runs check.js, which seeds a
# user, nodes, a card and two transactions through the control API and the
# API, then drives /_fake/ui/ in headless Chromium through playwright-core
# (pinned in package.json; it downloads no browser). The browser is Debian's
# chromium package at /usr/bin/chromium (CHROMIUM=PATH to use another).
#
# CI (.ci/run) calls it from the repository root:
#
#	apt-get install -y chromium        # when missing
#	npm ci --prefix compat/browser
#	bash compat/browser/run.sh
#
# The output is one line per check and a closing "N passed, M failed" line.
# SCREENSHOTS=DIR also saves every page at phone and desktop width, in light
# and dark mode.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

if [[ ! -d "$here/node_modules/playwright-core" ]]; then
	echo "compat/browser: playwright-core is not installed; run: npm ci --prefix compat/browser" >&2
	exit 1
fi
if [[ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]]; then
	echo "compat/browser: no chromium at ${CHROMIUM:-/usr/bin/chromium}; run: apt-get install -y chromium" >&2
	exit 1
fi

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

client_id="browser_client_id"
client_secret="browser_client_secret"
"$tmp/synapsefake" -addr 127.0.0.1:0 -clock manual \
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
	echo "compat/browser: synapsefake did not start; its output:" >&2
	cat "$tmp/server.log" >&2
	exit 1
fi

status=0
SYNAPSEFAKE_CLIENT_ID="$client_id" SYNAPSEFAKE_CLIENT_SECRET="$client_secret" \
	node "$here/check.js" "$base" || status=$?
if [[ $status -ne 0 ]]; then
	echo "compat/browser: server output (last 50 lines):" >&2
	tail -n 50 "$tmp/server.log" >&2
fi
exit "$status"
