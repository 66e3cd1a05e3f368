#!/usr/bin/env bash
# CI of the Python package (clients/python): builds cmd/synapsefake for
# linux/amd64, makes its platform wheel with make_wheels.py, installs that
# wheel (pip --no-index --no-deps) into a fresh venv, then runs there:
#   - the package's own tests (tests/), which find the wheel's binary;
#   - the example suite (examples/) with no SYNAPSEFAKE_BIN and no
#     synapsefake on PATH, checking that the binary inside the wheel ran;
#   - the example suite again under pytest-xdist (-n 2): each worker starts
#     its own binary, and the isolation tests pass on both;
#   - mypy --strict on the example suite, with the wheel's types (its
#     py.typed marker), and on the package's own source;
#   - check_figures.py on both runs' summaries: the start-up beyond the
#     binary's own start under 50 ms, a fresh platform under 5 ms median
#     (failing at twice those, a margin for a loaded machine).
# Then it installs from the source tree (pip install --no-build-isolation
# ./clients/python) into another fresh venv and runs one example file there
# with SYNAPSEFAKE_BIN. Runs from any directory; nothing is downloaded.
#
# Needs Go and Debian's Python 3 packages (PyPI is not reachable from CI):
#
#	apt-get install python3-venv python3-pytest python3-pytest-xdist python3-requests \
#		python3-setuptools python3-wheel python3-mypy
#	bash clients/python/ci.sh
#
# SYNAPSEFAKE_PYTHON picks the interpreter (default /usr/bin/python3, not a
# pyenv python3 first on PATH, which has none of those packages).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${SYNAPSEFAKE_PYTHON:-/usr/bin/python3}"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PIP_ROOT_USER_ACTION=ignore PYTHONDONTWRITEBYTECODE=1
unset SYNAPSEFAKE_BIN PYTHONPATH

step() { printf '\n--> clients/python: %s\n' "$*"; }
fail() { echo "clients/python/ci.sh: $*" >&2; exit 1; }

step "prerequisites"
missing=()
for mod in venv ensurepip pytest xdist requests setuptools wheel mypy; do
	"$python" -c "import $mod" 2>/dev/null || missing+=("$mod")
done
if [[ ${#missing[@]} -gt 0 ]]; then
	fail "$python cannot import ${missing[*]}; run: apt-get install python3-venv python3-pytest python3-pytest-xdist python3-requests python3-setuptools python3-wheel python3-mypy"
fi
command -v go >/dev/null || fail "go is not on PATH"
"$python" --version
"$python" -c 'import pytest, xdist; print("pytest", pytest.__version__, "pytest-xdist", xdist.__version__)'

tmp="$(mktemp -d)"
cleanup() {
	rm -rf "$tmp" "$here/build" "$here/synapsefake.egg-info"
}
trap cleanup EXIT
# From $tmp: python -c and python -m put the working directory first on
# sys.path, and clients/python would shadow the installed package.
cd "$tmp"

step "go build linux/amd64 cmd/synapsefake"
commit="$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
version="v0.0.0-snapshot.$commit"
mkdir -p "$tmp/bin"
(cd "$root" && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 \
	go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$tmp/bin/synapsefake" ./cmd/synapsefake)
"$tmp/bin/synapsefake" -version

step "make_wheels.py $version (the linux/amd64 wheel, the pure wheel, the sdist)"
"$python" "$here/make_wheels.py" --pure --sdist "$version" "$tmp/wheels" "linux/amd64=$tmp/bin/synapsefake"
wheel="$(ls "$tmp"/wheels/synapsefake-*-manylinux_2_17_x86_64*.whl)"

step "a fresh venv with the platform wheel (pip install --no-index --no-deps)"
"$python" -m venv --system-site-packages "$tmp/venv"
venv_py="$tmp/venv/bin/python"
"$venv_py" -m pip install --quiet --no-index --no-deps "$wheel"
packaged="$("$venv_py" -c 'import synapsefake._server as s; print(s.packaged_binary())')"
[[ -x "$packaged" ]] || fail "the wheel's binary $packaged is not there or not executable"
echo "the wheel's binary: $packaged"

# No synapsefake on PATH from here on: the wheel's binary must be the one found.
clean_path="$tmp/venv/bin:/usr/bin:/bin"
if PATH="$clean_path" command -v synapsefake >/dev/null; then
	fail "synapsefake is on PATH ($(PATH="$clean_path" command -v synapsefake)): the wheel's binary would not be tested"
fi

step "mypy --strict: the package's source, and the example suite against the installed wheel's types (py.typed)"
"$python" -m mypy --version
"$python" -m mypy --strict --cache-dir "$tmp/mypy-src" "$here/synapsefake"
# From $tmp, with the venv's Python: synapsefake is the installed wheel's.
"$venv_py" -m mypy --config-file "$here/examples/mypy.ini" --cache-dir "$tmp/mypy" "$here/examples"

step "the package's tests (clients/python/tests)"
PATH="$clean_path" "$venv_py" -m pytest -p no:cacheprovider -q "$here/tests"

run_examples() {
	local log="$1"
	shift
	PATH="$clean_path" "$venv_py" -m pytest -p no:cacheprovider -q -rA "$@" "$here/examples" | tee "$log"
	# The plugin's summary names the binary and where it was found.
	if ! grep -q "binary $packaged (inside the synapsefake package)" "$log"; then
		fail "the example suite did not run the wheel's binary ($packaged)"
	fi
}

step "the example suite, with the wheel's binary"
run_examples "$tmp/examples.log"

step "the example suite under pytest-xdist (-n 2): a binary per worker, no data shared"
run_examples "$tmp/examples-xdist.log" -n 2
for w in gw0 gw1; do
	grep -q "^worker $w: binary $packaged (inside the synapsefake package)" "$tmp/examples-xdist.log" ||
		fail "no binary of worker $w in the summary"
done

step "the figures against their targets (start-up beyond the binary's own 50 ms, a platform 5 ms median)"
"$python" "$here/check_figures.py" examples="$tmp/examples.log" "examples -n 2"="$tmp/examples-xdist.log"

step "pip install --no-build-isolation ./clients/python into another fresh venv"
rm -rf "$here/build" "$here/synapsefake.egg-info"
"$python" -m venv --system-site-packages "$tmp/venv-src"
(cd "$root" && "$tmp/venv-src/bin/python" -m pip install --quiet --no-index --no-build-isolation ./clients/python)
[[ ! -e "$("$tmp/venv-src/bin/python" -c 'import synapsefake._server as s; print(s.packaged_binary())')" ]] ||
	fail "the source install holds a binary"
PATH="$clean_path" SYNAPSEFAKE_BIN="$tmp/bin/synapsefake" "$tmp/venv-src/bin/python" -m pytest -p no:cacheprovider -q \
	"$here/examples/test_signup.py" | tee "$tmp/source.log"
grep -q "binary $tmp/bin/synapsefake (\$SYNAPSEFAKE_BIN)" "$tmp/source.log" || fail "SYNAPSEFAKE_BIN was not the binary run"

step "ok"
