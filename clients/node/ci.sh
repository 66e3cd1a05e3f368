#!/usr/bin/env bash
# CI for the Node package synapsefake (clients/node), from any directory:
#
#   bash clients/node/ci.sh [--jest]
#
#  1. builds cmd/synapsefake for linux/amd64 (and for the host, if it is
#     another platform);
#  2. makes the packages with scripts/make-packages.js: the host's platform
#     package @synapsefake/<os>-<arch> and the main package synapsefake,
#     version 0.0.0-snapshot.<commit>;
#  3. creates a fresh npm project in a temporary directory, installs the
#     main tarball and the platform tarball (and vitest@3 from the registry),
#     checks the installed package's entry points (CommonJS, ES module, each
#     subpath) and type-checks test/types.ts against its .d.ts files (tsc
#     --strict; typescript@5 and @types/node@20 from the registry), and
#     copies examples/ in;
#  4. runs both example suites (examples/node-test with node:test,
#     examples/vitest with vitest) WITHOUT SYNAPSEFAKE_BIN and with no
#     synapsefake on PATH, so the binary must come from the platform
#     package: each prints where its binary came from, the start-up figures
#     and the median cost of a platform, which scripts/check-figures.js
#     checks against their targets (start-up beyond the binary's own start
#     under 50 ms, a platform under 5 ms median; failing at twice those);
#     With --jest, also examples/jest (jest@30 from the registry, ~30 s more);
#  5. checks the failure report (scripts/check-report.js): a suite with a
#     failing test under vitest (and jest, with --jest) must print that
#     test's platform's requests with the fake's reasons, and nothing for
#     the passing ones;
#     then runs every js block of docs/node.md as written
#     (scripts/check-docs.js): the node:test, vitest and jest sections' as
#     suites, the others as scripts;
#  6. runs the package's own tests (test/*.test.js, node:test) with
#     SYNAPSEFAKE_BIN set to the binary built in 1.
#
# Needs go, node 18 or later and npm (the registry, for vitest). Takes about
# a minute. Exits non-zero when a step fails.
set -euo pipefail

jest=""
case "${1:-}" in
--jest) jest=jest@30 ;;
"") ;;
*)
	echo "usage: bash clients/node/ci.sh [--jest]" >&2
	exit 2
	;;
esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"

step() { printf '\n== %s\n' "$*"; }

host_os="$(go env GOHOSTOS)"
host_arch="$(go env GOHOSTARCH)"
step "1. build cmd/synapsefake (linux/amd64, host $host_os/$host_arch)"
export CGO_ENABLED=0
GOOS=linux GOARCH=amd64 go build -o "$work/bin/linux-amd64/synapsefake" ./cmd/synapsefake
pairs=("linux/amd64=$work/bin/linux-amd64/synapsefake")
if [[ "$host_os/$host_arch" != linux/amd64 ]]; then
	exe=synapsefake
	[[ "$host_os" == windows ]] && exe=synapsefake.exe
	GOOS="$host_os" GOARCH="$host_arch" go build -o "$work/bin/$host_os-$host_arch/$exe" ./cmd/synapsefake
	pairs+=("$host_os/$host_arch=$work/bin/$host_os-$host_arch/$exe")
fi
host_bin="${pairs[-1]#*=}"

step "2. make the packages (scripts/make-packages.js)"
commit="$(git rev-parse --short=12 HEAD 2>/dev/null || echo local)"
project="$work/project"
mkdir -p "$project/dist"
node "$here/scripts/make-packages.js" "v0.0.0-snapshot.$commit" "$work/packages" "${pairs[@]}"
host_pkg="$(node -e 'console.log(`${process.platform}-${process.arch}`)')"
# The examples' package.json files name the tarballs by these stable names.
cp "$work"/packages/synapsefake-0.0.0-*.tgz "$project/dist/synapsefake.tgz"
cp "$work"/packages/synapsefake-"$host_pkg"-*.tgz "$project/dist/synapsefake-$host_pkg.tgz"
ls -l "$work/packages"

step "3. a fresh npm project: install the tarballs, vitest@3 (and typescript for the .d.ts check)"
cd "$project"
npm init -y >/dev/null
npm install --no-audit --no-fund --loglevel=error \
	./dist/synapsefake.tgz "./dist/synapsefake-$host_pkg.tgz" vitest@3 typescript@5 @types/node@20 ${jest:+"$jest"}
cp -R "$here/examples" "$project/examples"
node -e '
const assert = require("node:assert/strict");
const s = require("synapsefake");
assert.equal(typeof s.startFake, "function");
assert.equal(typeof require("synapsefake/jest").usePlatform, "function");
assert.equal(typeof require("synapsefake/jest/setup"), "function");
const found = s.findBinary({ env: { PATH: "" } });
assert.equal(found.source, "package");
console.log(`CommonJS entry points load; the binary: ${found.path} (from the package)`);
'
node --input-type=module -e '
import assert from "node:assert/strict";
import cjs from "synapsefake";
import { startFake, ControlError } from "synapsefake";
import { setup } from "synapsefake/vitest/setup";
assert.equal(startFake, cjs.startFake);
assert.equal(ControlError, cjs.ControlError);
assert.equal(typeof setup, "function");
console.log("ES module entry points load (the same objects as CommonJS)");
'
cp "$here/test/types.ts" "$project/types.ts"
"$project/node_modules/.bin/tsc" --noEmit --strict --module nodenext --moduleResolution nodenext \
	--target es2022 --types node types.ts
echo "the .d.ts files type-check (tsc --strict, test/types.ts)"

# No SYNAPSEFAKE_BIN, and no directory on PATH that holds a synapsefake.
clean_path=""
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
	[[ -z "$d" || -e "$d/synapsefake" || -e "$d/synapsefake.exe" ]] && continue
	clean_path="${clean_path:+$clean_path:}$d"
done
isolated() { env -u SYNAPSEFAKE_BIN -u SYNAPSEFAKE_URL PATH="$clean_path" "$@"; }
if isolated sh -c 'command -v synapsefake' >/dev/null; then
	echo "ci.sh: synapsefake is still on PATH" >&2
	exit 1
fi

step "4a. examples/node-test (node:test), the binary from @synapsefake/$host_pkg"
cd "$project/examples/node-test"
isolated node --test --test-reporter=spec test/ 2>&1 | tee "$work/node-test.log"
grep -q "binary from package ($project/node_modules/@synapsefake/$host_pkg/bin/" "$work/node-test.log"

step "4b. examples/vitest (vitest), the binary from @synapsefake/$host_pkg"
cd "$project/examples/vitest"
isolated "$project/node_modules/.bin/vitest" run 2>&1 | tee "$work/vitest.log"
grep -q "binary from package ($project/node_modules/@synapsefake/$host_pkg/bin/" "$work/vitest.log"

if [[ -n "$jest" ]]; then
	step "4c. examples/jest (jest), the binary from @synapsefake/$host_pkg"
	cd "$project/examples/jest"
	isolated "$project/node_modules/.bin/jest" 2>&1
fi

step "4d. the figures against their targets (start-up beyond the binary's own 50 ms, a platform 5 ms median)"
node "$here/scripts/check-figures.js" node:test="$work/node-test.log" vitest="$work/vitest.log"

step "5. the failure report: a failing test's platform requests under it, nothing for a passing one"
cd "$project"
isolated node "$here/scripts/check-report.js" vitest "$project"
if [[ -n "$jest" ]]; then
	isolated node "$here/scripts/check-report.js" jest "$project"
fi

step "5b. every js block of docs/node.md, as written (scripts/check-docs.js: node:test, vitest${jest:+, jest} and scripts)"
cd "$project"
isolated node "$here/scripts/check-docs.js" "$project"

step "6. the package's own tests (node:test)"
cd "$here"
SYNAPSEFAKE_BIN="$host_bin" node --test --test-reporter=spec test/
