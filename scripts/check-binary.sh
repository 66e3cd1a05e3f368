#!/usr/bin/env bash
# Checks a built synapsefake binary as a user would meet it: -version names
# VERSION, and the server it starts answers the API with the printed
# credentials, the control API and the dashboard at the printed addresses,
# and refuses a foreign Host on the control API. Used by .ci/run on the
# binary of a release archive, of the container image and of go install.
#
# Usage: scripts/check-binary.sh VERSION BINARY [ARG...]
#
# ARGs go before the check's own flags (-clock manual -quiet), which end with
# -addr 127.0.0.1:0 unless the ARGs give an -addr. The output is one line per
# check and a closing "N passed, M failed" line; the exit status is 1 if any
# failed.
set -uo pipefail

if [[ $# -lt 2 ]]; then
	echo "usage: scripts/check-binary.sh VERSION BINARY [ARG...]" >&2
	exit 2
fi
want_version="$1"
bin="$2"
shift 2
args=("$@")
[[ " ${args[*]} " == *" -addr "* ]] || args+=(-addr 127.0.0.1:0)

# shellcheck source=check.sh
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

got="$("$bin" "${args[@]}" -version 2>&1 || true)"
[[ "$got" == "synapsefake $want_version ("* ]]
check "-version prints $want_version" $? "got \"$got\""

log="$(mktemp)"
"$bin" "${args[@]}" -clock manual -quiet >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT

base=""
for _ in $(seq 1 100); do
	line="$(head -n 1 "$log")"
	if [[ "$line" == "synapsefake serving http://"* ]] && grep -q '^next:' "$log"; then
		base="${line#synapsefake serving }"
		break
	fi
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
if [[ -z "$base" ]]; then
	echo "FAIL the binary did not start; its output:"
	cat "$log"
	echo "$passed passed, $((failed + 1)) failed"
	exit 1
fi
field() { sed -n "s/^  $1: //p" "$log" | head -n 1; }
sdk_base="$(field 'base URL for the SDKs')"
client_id="$(field 'client id')"
client_secret="$(field 'client secret')"
dashboard="$(field dashboard)"
root="${sdk_base%/v3.1}"
[[ -n "$sdk_base" && -n "$client_id" && -n "$client_secret" && "$dashboard" == "$root/_fake/ui/" ]]
check "the banner names the base URL, the client id, the client secret and the dashboard" $? "$(cat "$log")"

answer() { curl -sS --max-time 10 "$@" 2>&1 || true; }
body="$(answer -H "X-SP-GATEWAY: $client_id|$client_secret" "$sdk_base/users")"
[[ "$body" == *'"users_count":1'* ]]
check "GET $sdk_base/users with the printed client id and secret finds the seeded user" $? "$body"
body="$(answer "$root/_fake/clock")"
[[ "$body" == *'"now":'* ]]
check "GET $root/_fake/clock answers the clock" $? "$body"
status="$(answer -o /dev/null -w '%{http_code}' "$dashboard")"
[[ "$status" == 200 ]]
check "GET $dashboard answers 200" $? "$status"
body="$(answer -H 'Host: fake.example:8080' "$root/_fake/clock")"
[[ "$body" == *'"http_code":"403"'*foreign_host* || "$body" == *foreign_host*'"http_code":"403"'* ]]
check "the control API refuses a foreign Host" $? "$body"

kill -TERM "$pid"
wait "$pid" || true
[[ "$(tail -n 1 "$log")" == "synapsefake stopped" ]]
check "SIGTERM stops it" $? "$(tail -n 3 "$log")"

echo "$passed passed, $failed failed"
[[ "$failed" == 0 ]]
