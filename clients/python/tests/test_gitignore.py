"""What the clients' scripts and the docs' blocks write inside a checkout is
ignored by git (.gitignore and clients/*/.gitignore)."""

import os
import shutil
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

# Each path one of them writes, relative to the checkout's root, with who.
BUILD_OUTPUTS = [
    "wheels/synapsefake-1.2.3-py3-none-any.whl",  # docs/python.md: make_wheels.py ... wheels
    "gems/synapsefake-1.2.3.gem",  # docs/ruby.md: make_gems.rb ... gems
    "dist/npm/synapsefake-1.2.3.tgz",  # docs/node.md: make-packages.js ... dist/npm
    "my-app/.synapsefake/synapsefake-0.0.0-snapshot.abc.tgz",  # docs/node.md: install-from-checkout.sh my-app
    "my-app/node_modules/synapsefake/package.json",
    ".venv/bin/python",  # docs/python.md's venv
    "test_first.py",  # docs/python.md's first test
    "clients/python/build/lib/synapsefake/__init__.py",  # ci.sh's pip install ./clients/python
    "clients/python/synapsefake.egg-info/PKG-INFO",
    "clients/python/synapsefake/__pycache__/control.cpython-311.pyc",
    "clients/python/.mypy_cache/3.11/synapsefake/control.meta.json",  # mypy --strict
    "clients/python/synapsefake/bin/synapsefake",  # a platform wheel's binary
    "clients/node/synapsefake-0.0.0.tgz",  # npm pack
    "clients/node/node_modules/x/package.json",
    "clients/ruby/synapsefake-1.2.3.gem",
    "clients/ruby/lib/synapsefake/bin/synapsefake",
]


@pytest.mark.skipif(
    shutil.which("git") is None or not os.path.isdir(os.path.join(ROOT, ".git")) and not os.path.isfile(os.path.join(ROOT, ".git")),
    reason="not in a git checkout",
)
@pytest.mark.parametrize("path", BUILD_OUTPUTS)
def test_build_outputs_are_ignored(path):
    r = subprocess.run(["git", "-C", ROOT, "check-ignore", "--no-index", "-q", path])
    assert r.returncode == 0, f"{path} is not ignored by git"
