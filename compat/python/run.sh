#!/usr/bin/env bash
# Checks synapsefake.control (clients/python/synapsefake/control.py), the
# control API's Python client: builds
# cmd/synapsefake, starts it on a random loopback port with a manual clock,
# runs test_control.py against it (one line per check and a closing
# "N passed, M failed" line; it ends with a reset), stops the server and
# exits 1 when a check failed, after printing the server's output.
#
# It needs Go and Debian's Python 3 with python3-requests (PyPI is not
# reachable from CI). It runs /usr/bin/python3, not whatever python3 is
# first on PATH (a pyenv Python has no requests):
#
#	apt-get install python3-requests
#	bash compat/python/run.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

python="${SYNAPSEFAKE_PYTHON:-/usr/bin/python3}"
if ! "$python" -c 'import requests' 2>/dev/null; then
	echo "compat/python: $python cannot import requests; run: apt-get install python3-requests" >&2
	exit 1
fi

client_id="compat_client_id"
client_secret="compat_client_secret"
# shellcheck source=../fake.sh
source "$root/compat/fake.sh"
start_fake compat/python "$client_id" "$client_secret" -quiet

status=0
echo "synapsefake.control, the control API's Python client (test_control.py), $("$python" --version):"
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/clients/python${PYTHONPATH:+:$PYTHONPATH}" \
	SYNAPSEFAKE_CLIENT_ID="$client_id" SYNAPSEFAKE_CLIENT_SECRET="$client_secret" \
	SYNAPSEFAKE_BIN="$tmp/synapsefake" "$python" "$here/test_control.py" "$base" || status=$?
if [[ $status -ne 0 ]]; then
	echo "compat/python: server output:" >&2
	cat "$server_log" >&2
fi
exit "$status"
