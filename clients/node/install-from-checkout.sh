#!/usr/bin/env bash
# Installs synapsefake into an npm project from this checkout, before (or
# instead of) the registry's release: from the checkout's root,
#
#   bash clients/node/install-from-checkout.sh PROJECT
#
# PROJECT is the directory of your project's package.json. It builds
# cmd/synapsefake for this machine, makes the two packages a release would
# publish (scripts/make-packages.js: the platform package
# @synapsefake/<os>-<arch>, which carries the binary, and the main package
# synapsefake, version 0.0.0-snapshot.<commit>), keeps their tarballs in
# PROJECT/.synapsefake/ and installs both as devDependencies (npm install
# --save-dev): the main package alone would install without its binary,
# since npm skips an optional dependency it cannot find. Then it checks
# that the project finds the binary in the platform package. Running it
# again replaces both with the checkout's current code.
#
# Needs go, node 18 or later and npm; nothing is downloaded.
set -euo pipefail

if [[ $# -ne 1 ]]; then
	echo "usage: bash clients/node/install-from-checkout.sh PROJECT   # the directory of your package.json" >&2
	exit 2
fi
project="$1"
fail() { echo "install-from-checkout.sh: $*" >&2; exit 1; }
[[ -f "$project/package.json" ]] || fail "$project has no package.json: give your npm project's directory (npm init -y makes one)"
for tool in go node npm; do
	command -v "$tool" >/dev/null || fail "$tool is not on PATH"
done
project="$(cd "$project" && pwd)"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
root="$(cd "$here/../.." && pwd -P)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

goos="$(go env GOOS)"
goarch="$(go env GOARCH)"
exe=synapsefake
[[ "$goos" == windows ]] && exe=synapsefake.exe
commit="$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo local)"
echo "building cmd/synapsefake ($goos/$goarch) from $root"
(cd "$root" && go build -o "$work/$exe" ./cmd/synapsefake)

node "$here/scripts/make-packages.js" "v0.0.0-snapshot.$commit" "$work/packages" "$goos/$goarch=$work/$exe" >/dev/null
mkdir -p "$project/.synapsefake"
rm -f "$project"/.synapsefake/synapsefake-*.tgz
cp "$work"/packages/*.tgz "$project/.synapsefake/"
main="$(cd "$project" && ls .synapsefake/synapsefake-0.0.0-*.tgz)"
platform="$(cd "$project" && ls .synapsefake/synapsefake-*-*-0.0.0-*.tgz)"

echo "installing $main and $platform into $project"
(cd "$project" && npm install --save-dev --no-audit --no-fund --loglevel=error "./$main" "./$platform")
(cd "$project" && node -e '
const found = require("synapsefake").findBinary({ env: { PATH: "" } });
if (found.source !== "package") throw new Error(`the binary came from ${found.source}, not the platform package`);
console.log(`synapsefake ${require("synapsefake/package.json").version} installed; its binary: ${found.path}`);
')
