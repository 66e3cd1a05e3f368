#!/usr/bin/env bash
# Checks the README's install line, `go install
# github.com/synapsefake/synapsefake/cmd/synapsefake@latest`, before the
# module is published: it serves the committed HEAD as the module's only
# version (v0.0.0-snapshot.COMMIT) from a module proxy in a temporary
# directory (file://, ahead of the usual proxy for the dependencies), runs
# the install line as written into a temporary GOBIN, and checks that
# -version prints that module version (read from the binary's build
# information, no -ldflags) and that the binary serves, through
# scripts/check-binary.sh. Then it runs the README's
# `go get github.com/synapsefake/synapsefake@latest` in a new module and
# checks that the module requires that version.
#
# Usage: scripts/check-go-install.sh
#
# Needs go, git, tar and zip. The module cache keeps the snapshot version
# afterwards, as it keeps any module it fetched.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
module="$(go list -m)"
version="v0.0.0-snapshot.$(git rev-parse --short=12 HEAD)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The module's files at HEAD, without nested modules (directories with their
# own go.mod), as a module zip: every path under MODULE@VERSION/.
src="$work/src/$module@$version"
mkdir -p "$src"
git archive --format=tar HEAD | tar -xf - -C "$src"
while read -r nested; do
	[[ "$nested" == go.mod ]] || rm -rf "${src:?}/$(dirname "$nested")"
done < <(git ls-files -- 'go.mod' '*/go.mod')
proxy="$work/proxy/$module/@v"
mkdir -p "$proxy"
(cd "$work/src" && zip -q -r -X "$proxy/$version.zip" "$module@$version")
cp "$src/go.mod" "$proxy/$version.mod"
printf '{"Version":"%s","Time":"%s"}\n' "$version" "$(git log -1 --format=%cI HEAD)" >"$proxy/$version.info"
echo "$version" >"$proxy/list"

echo "== go install $module/cmd/synapsefake@latest (served as $version)"
GOBIN="$work/bin" GOPROXY="file://$work/proxy,$(go env GOPROXY)" GONOSUMDB="$module" GOFLAGS= \
	go install "$module/cmd/synapsefake@latest"
bash "$root/scripts/check-binary.sh" "$version" "$work/bin/synapsefake"

# The README's other line, `go get github.com/synapsefake/synapsefake@latest`,
# in a new module: it must require that same version.
echo "== go get $module@latest in a new module"
mkdir -p "$work/app"
(
	cd "$work/app"
	export GOPROXY="file://$work/proxy,$(go env GOPROXY)" GONOSUMDB="$module" GOFLAGS=
	go mod init example.com/app >/dev/null 2>&1
	go get "$module@latest"
	got="$(go list -m "$module")"
	if [[ "$got" != "$module $version" ]]; then
		echo "go get $module@latest required \"$got\", want \"$module $version\"" >&2
		exit 1
	fi
	echo "ok: $got"
)
