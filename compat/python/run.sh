#!/usr/bin/env bash
# Compatibility check against the official Python client SynapsePy, run
# unmodified from ../shared/sdks/SynapsePy.tar.gz (its upstream tree at the
# commit in SynapsePy.rev; set SYNAPSEFAKE_SDKS to read the archive from
# another folder): builds cmd/synapsefake, starts it on a random loopback port
# with a manual clock, runs test_control.py (the checks of
# synapsefake_control.py, the control API's Python client; it ends with a
# reset), extracts the SDK to a temporary folder, runs compat.py against the
# server with the SDK on PYTHONPATH, stops the server and exits 1 when
# either failed.
#
# It needs Go and Debian's Python 3 with python3-requests (the SDK's one
# dependency; PyPI is not reachable from CI). It runs /usr/bin/python3, not
# whatever python3 is first on PATH (a pyenv Python has no requests):
#
#	apt-get install python3-requests
#	bash compat/python/run.sh
#
# The output is, for each script, one line per check and a closing
# "N passed, M failed" line (compat.py adds ", K skipped": a skip is one of
# the SDK's own bugs).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

python="${SYNAPSEFAKE_PYTHON:-/usr/bin/python3}"
sdks="${SYNAPSEFAKE_SDKS:-$root/../shared/sdks}"
archive="$sdks/SynapsePy.tar.gz"
if [[ ! -f "$archive" ]]; then
	echo "compat/python: $archive not found (set SYNAPSEFAKE_SDKS to the folder that holds it)" >&2
	exit 1
fi
if ! "$python" -c 'import requests' 2>/dev/null; then
	echo "compat/python: $python cannot import requests; run: apt-get install python3-requests" >&2
	exit 1
fi

client_id="compat_client_id"
client_secret="compat_client_secret"
# shellcheck source=../fake.sh
source "$root/compat/fake.sh"
start_fake compat/python "$client_id" "$client_secret" -quiet

mkdir "$tmp/sdk"
tar -xzf "$archive" -C "$tmp/sdk"
echo "SynapsePy at $(cat "$sdks/SynapsePy.rev" 2>/dev/null || echo "an unknown commit"), $("$python" --version)"

status=0
echo "synapsefake_control.py, the control API's Python client (test_control.py):"
PYTHONDONTWRITEBYTECODE=1 \
	SYNAPSEFAKE_CLIENT_ID="$client_id" SYNAPSEFAKE_CLIENT_SECRET="$client_secret" \
	"$python" "$here/test_control.py" "$base" || status=$?
echo "SynapsePy (compat.py):"
PYTHONPATH="$tmp/sdk" PYTHONDONTWRITEBYTECODE=1 \
	SYNAPSEFAKE_CLIENT_ID="$client_id" SYNAPSEFAKE_CLIENT_SECRET="$client_secret" \
	"$python" "$here/compat.py" "$base" || status=$?
if [[ $status -ne 0 ]]; then
	echo "compat/python: server output:" >&2
	cat "$server_log" >&2
fi
exit "$status"
