#!/usr/bin/env bash
# Browser check of the dashboard: builds cmd/synapsefake, starts it on a
# random loopback port with a manual clock set to synapsefake.DefaultStartTime
# (Tuesday 2026-04-14 10:00 ET, as Go tests start: the checks of the banking
# calendar do not depend on the day CI runs), and runs check.js, which seeds a
# user, nodes, a card, two transactions and a subscription whose receiver is
# down through the control API and the API, then drives /_fake/ui/ in headless Chromium through playwright-core
# (pinned in package.json; it downloads no browser). It also serves a page on
# a second loopback port (and as localhost, another site) that tries a no-cors
# text/plain POST to /_fake/reset and a read of /_fake/state, and opens the
# fake under a name mapped to it as DNS rebinding would: the store must
# survive and nothing be read. The browser is Debian's chromium package at
# /usr/bin/chromium (CHROMIUM=PATH to use another).
#
# CI (.ci/run) calls it from the repository root:
#
#	apt-get install -y chromium        # when missing
#	npm ci --prefix compat/browser
#	bash compat/browser/run.sh
#
# The output is one line per check and a closing "N passed, M failed" line.
# It also saves a screenshot of every page, with an object's detail open, at
# 1280x900 and 390x844 in light and dark mode, in SCREENSHOTS=DIR or else in a
# new temporary directory that outlives the run, and prints each file's path
# with what it shows (CI's output lists them).
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

client_id="browser_client_id"
client_secret="browser_client_secret"
# shellcheck source=../fake.sh
source "$root/compat/fake.sh"
start_fake compat/browser "$client_id" "$client_secret" -start default

shots="${SCREENSHOTS:-$(mktemp -d "${TMPDIR:-/tmp}/synapsefake-dashboard.XXXXXX")}"
status=0
SYNAPSEFAKE_CLIENT_ID="$client_id" SYNAPSEFAKE_CLIENT_SECRET="$client_secret" SCREENSHOTS="$shots" \
	node "$here/check.js" "$base" || status=$?
if [[ $status -ne 0 ]]; then
	echo "compat/browser: server output (last 50 lines):" >&2
	tail -n 50 "$server_log" >&2
fi
exit "$status"
