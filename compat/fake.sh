# Shared by the compat runners (source it from the repository root): builds
# cmd/synapsefake, starts it on a free loopback port with a manual clock and
# the given client credentials, and sets:
#   base        the API's base URL, http://127.0.0.1:PORT/v3.1
#   tmp         a temporary directory, removed on exit with the server
#   server_log  the server's output
# Usage: start_fake NAME CLIENT_ID CLIENT_SECRET [FLAG...]

start_fake() {
	local name="$1" client_id="$2" client_secret="$3"
	shift 3
	tmp="$(mktemp -d)"
	server_pid=""
	server_log="$tmp/server.log"
	trap stop_fake EXIT
	go build -o "$tmp/synapsefake" ./cmd/synapsefake
	"$tmp/synapsefake" -addr 127.0.0.1:0 -clock manual \
		-client-id "$client_id" -client-secret "$client_secret" "$@" \
		>"$server_log" 2>&1 &
	server_pid=$!

	# The first line is "synapsefake serving http://127.0.0.1:PORT/v3.1".
	base=""
	local line
	for _ in $(seq 1 100); do
		line="$(head -n 1 "$server_log" 2>/dev/null || true)"
		if [[ "$line" == "synapsefake serving "* ]]; then
			base="${line#synapsefake serving }"
			return 0
		fi
		if ! kill -0 "$server_pid" 2>/dev/null; then
			break
		fi
		sleep 0.1
	done
	echo "$name: synapsefake did not start; its output:" >&2
	cat "$server_log" >&2
	exit 1
}

stop_fake() {
	if [[ -n "${server_pid:-}" ]] && kill -0 "$server_pid" 2>/dev/null; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "${tmp:-}"
}
