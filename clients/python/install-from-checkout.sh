#!/usr/bin/env bash
# Installs synapsefake into a Python environment from this checkout, before
# (or instead of) a release's wheel: from the checkout's root,
#
#   bash clients/python/install-from-checkout.sh PYTHON
#
# PYTHON is the interpreter of the environment to install into, your
# project's virtual environment's (.venv/bin/python). It builds
# cmd/synapsefake for this machine, makes the platform wheel a release
# would publish (make_wheels.py: the package with the binary inside,
# version 0.0.0.dev0+<commit>) and installs it there (pip install
# --no-deps --force-reinstall), so the pytest plugin finds the binary with
# no SYNAPSEFAKE_BIN and nothing on PATH; then it checks that. Running it
# again replaces it with the checkout's current code. The plugin needs
# pytest in the same environment (pip install pytest, or a venv made with
# --system-site-packages over Debian's python3-pytest).
#
# Needs go and PYTHON (3.8 or later, with pip); nothing is downloaded.
set -euo pipefail

if [[ $# -ne 1 ]]; then
	echo "usage: bash clients/python/install-from-checkout.sh PYTHON   # e.g. .venv/bin/python" >&2
	exit 2
fi
fail() { echo "install-from-checkout.sh: $*" >&2; exit 1; }
python="$(command -v "$1")" || fail "$1 is not a command"
[[ "$python" == /* ]] || python="$PWD/$python" # not resolved further: a venv's python is a link
command -v go >/dev/null || fail "go is not on PATH"
"$python" -m pip --version >/dev/null 2>&1 || fail "$python -m pip does not run: give the python of a virtual environment (python3 -m venv .venv)"
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

"$python" "$here/make_wheels.py" "v0.0.0-snapshot.$commit" "$work/wheels" "$goos/$goarch=$work/$exe" >/dev/null
wheel="$(ls "$work"/wheels/synapsefake-*.whl)"
echo "installing $(basename "$wheel") with $python"
PIP_DISABLE_PIP_VERSION_CHECK=1 "$python" -m pip install --quiet --no-deps --no-index --force-reinstall "$wheel"
# From $work: the checkout's clients/python must not shadow what was installed.
(cd "$work" && env -u SYNAPSEFAKE_BIN PATH=/nonexistent "$python" -c '
import synapsefake
from synapsefake._server import packaged_binary
path = synapsefake.find_binary()
assert path == packaged_binary(), path
print(f"synapsefake {synapsefake.__version__} installed; its binary: {path}")
')
