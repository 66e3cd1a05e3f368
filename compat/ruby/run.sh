#!/usr/bin/env bash
# Compatibility check against the official Ruby gem synapse_pay_rest, run
# unmodified from ../shared/sdks/SynapseFI-Ruby.tar.gz (its upstream tree at
# the commit in SynapseFI-Ruby.rev; set SYNAPSEFAKE_SDKS to read the archive
# from another folder): builds cmd/synapsefake, starts it on a random loopback
# port with a manual clock, extracts the gem to a temporary folder, runs
# compat.rb against the server with the gem's lib on the load path, stops the
# server and exits with compat.rb's status.
#
# It needs Go and Debian's ruby with ruby-rest-client (the gem's one
# dependency, which brings mime-types):
#
#	apt-get install ruby ruby-rest-client
#	bash compat/ruby/run.sh
#
# The output is one line per check and a closing
# "N passed, M failed, K skipped" line (a skip is one of the gem's own bugs,
# most of them its Ruby 3 keyword-argument faults).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

ruby="${SYNAPSEFAKE_RUBY:-ruby}"
sdks="${SYNAPSEFAKE_SDKS:-$root/../shared/sdks}"
archive="$sdks/SynapseFI-Ruby.tar.gz"
if [[ ! -f "$archive" ]]; then
	echo "compat/ruby: $archive not found (set SYNAPSEFAKE_SDKS to the folder that holds it)" >&2
	exit 1
fi
if ! "$ruby" -e 'require "rest-client"' 2>/dev/null; then
	echo "compat/ruby: $ruby cannot load rest-client; run: apt-get install ruby ruby-rest-client" >&2
	exit 1
fi

client_id="compat_client_id"
client_secret="compat_client_secret"
# shellcheck source=../fake.sh
source "$root/compat/fake.sh"
start_fake compat/ruby "$client_id" "$client_secret" -quiet

mkdir "$tmp/sdk"
tar -xzf "$archive" -C "$tmp/sdk"
echo "synapse_pay_rest at $(cat "$sdks/SynapseFI-Ruby.rev" 2>/dev/null || echo "an unknown commit"), $("$ruby" -e 'print "ruby #{RUBY_VERSION}, rest-client #{RestClient::VERSION}"' -r rest-client)"

status=0
SYNAPSEFAKE_CLIENT_ID="$client_id" SYNAPSEFAKE_CLIENT_SECRET="$client_secret" \
	"$ruby" -I "$tmp/sdk/lib" "$here/compat.rb" "$base" || status=$?
if [[ $status -ne 0 ]]; then
	echo "compat/ruby: server output:" >&2
	cat "$server_log" >&2
fi
exit "$status"
