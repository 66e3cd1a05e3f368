#!/usr/bin/env bash
# Checks a container image built from the Containerfile without running a
# container (this CI's machines cannot): its configuration (user 65532,
# port 8080, the entry point listening on all interfaces, the HEALTHCHECK
# running the binary's healthcheck subcommand, which only an image built
# with --format docker keeps), its files (the binary and LICENSE, no
# shell), the binary static and of VERSION; then starts the binary taken
# out of the image with the image's own entry point, on a free port
# instead of 8080, through scripts/check-binary.sh, and runs the
# HEALTHCHECK's command against it (with -addr for that port): exit 0 while
# it serves, 1 once it is gone.
#
# Usage: scripts/check-image.sh IMAGE VERSION
#
# PODMAN overrides the podman command, e.g. PODMAN="podman --storage-driver
# vfs" where the overlay driver is not available. The output is one line
# per check and a closing "N passed, M failed" line.
set -uo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: scripts/check-image.sh IMAGE VERSION" >&2
	exit 2
fi
image="$1"
version="$2"
read -r -a podman <<<"${PODMAN:-podman}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# shellcheck source=check.sh
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

inspect() { "${podman[@]}" image inspect "$image" --format "$1"; }
user="$(inspect '{{.Config.User}}')"
[[ "$user" == 65532:65532 ]]
check "runs as 65532:65532" $? "$user"
ports="$(inspect '{{json .Config.ExposedPorts}}')"
[[ "$ports" == '{"8080/tcp":{}}' ]]
check "exposes 8080/tcp" $? "$ports"
entrypoint="$(inspect '{{json .Config.Entrypoint}}')"
[[ "$entrypoint" == '["/synapsefake","-addr",":8080"]' ]]
check "the entry point listens on all interfaces, port 8080" $? "$entrypoint"
health="$(inspect '{{json .Config.Healthcheck}}')"
[[ "$health" == '{"Test":["CMD","/synapsefake","healthcheck"],'* ]]
check "HEALTHCHECK runs /synapsefake healthcheck, without a shell" $? "$health (built without --format docker?)"
platform="$(inspect '{{.Os}}/{{.Architecture}}')"

work="$(mktemp -d)"
container=""
cleanup() {
	[[ -n "$container" ]] && "${podman[@]}" rm "$container" >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
container="$("${podman[@]}" create "$image")" &&
	"${podman[@]}" export "$container" | tar -xf - -C "$work"
check "podman create and export give the image's files" $?
files="$(cd "$work" && find . -mindepth 1 | LC_ALL=C sort | tr '\n' ' ')"
[[ "$files" == "./LICENSE ./synapsefake " ]]
check "it holds /synapsefake and /LICENSE only (no shell)" $? "$files"
owner="$(stat -c '%u:%g %a' "$work/synapsefake" 2>&1)"
[[ "$owner" == "0:0 755" ]]
check "the binary is root's, not writable by the user it runs as" $? "$owner"
info="$(go version -m "$work/synapsefake" 2>&1)"
[[ "$info" == *"CGO_ENABLED=0"* && "$info" == *"GOOS=${platform%/*}"* && "$info" == *"GOARCH=${platform#*/}"* ]]
check "the binary is static, for the image's $platform" $? "$info"

echo "== the binary from the image, started with the image's entry point (-addr :0 for a free port)"
# ["/synapsefake","-addr",":8080"] -> BINARY -addr :8080; the last -addr wins.
read -r -a args <<<"$(tr -d '[]"' <<<"$entrypoint" | tr ',' ' ')"
if bash "$here/check-binary.sh" "$version" "$work/synapsefake" "${args[@]:1}" -addr :0; then
	check "the image's binary serves" 0
else
	check "the image's binary serves" 1
fi

echo "== the HEALTHCHECK's command, with the image's binary, against it"
# ["CMD","/synapsefake","healthcheck"] -> BINARY healthcheck; -addr names
# the free port the binary serves on here, where the image's is 8080.
read -r -a hc <<<"$(sed 's/^{"Test":\[\([^]]*\)\].*/\1/' <<<"$health" | tr -d '"' | tr ',' ' ')"
log="$work/healthcheck-server.log"
"$work/synapsefake" "${args[@]:1}" -addr 127.0.0.1:0 -quiet >"$log" 2>&1 &
server=$!
addr=""
for _ in $(seq 1 100); do
	line="$(head -n 1 "$log")"
	if [[ "$line" == "synapsefake serving http://"* ]]; then
		addr="${line#synapsefake serving http://}"
		addr="${addr%/v3.1}"
		break
	fi
	kill -0 "$server" 2>/dev/null || break
	sleep 0.1
done
said="$("$work${hc[1]}" "${hc[@]:2}" -addr "$addr" 2>&1)"
[[ -n "$addr" && "$said" == *"answered 200: ready"* ]]
check "${hc[*]:1} -addr $addr exits 0 while the fake serves" $? "$said"
kill -TERM "$server"
wait "$server" 2>/dev/null
said="$("$work${hc[1]}" "${hc[@]:2}" -addr "$addr" 2>&1)"
status=$?
[[ "$status" == 1 && "$said" == *"not answering"* ]]
check "${hc[*]:1} -addr $addr exits 1 once it is gone" $? "exit $status: $said"

echo "$passed passed, $failed failed"
[[ "$failed" == 0 ]]
