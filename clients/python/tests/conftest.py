"""Shared fixtures of the package's own tests (clients/python/tests).

They run against the source tree (PYTHONPATH=clients/python, or with the
package installed); the tests that start the real binary find it as the
package does (SYNAPSEFAKE_BIN, the packaged binary, PATH) and are skipped,
saying so, when there is none.
"""

import os
import stat
import sys

import pytest

import synapsefake

pytest_plugins = ["pytester"]


@pytest.fixture
def real_binary():
    """The synapsefake binary, or a skip saying how to give one."""
    try:
        return synapsefake.find_binary()
    except synapsefake.BinaryNotFound as err:
        pytest.skip(f"no synapsefake binary: {err}")


@pytest.fixture
def script(tmp_path):
    """make(name, body) writes an executable shell script and answers its path."""
    if sys.platform == "win32":
        pytest.skip("shell scripts stand in for the binary")

    def make(name, body):
        path = tmp_path / name
        path.write_text("#!/bin/sh\n" + body + "\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return str(path)

    return make


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    """No SYNAPSEFAKE_BIN, an empty PATH directory and no packaged binary:
    each test puts back what it means to find."""
    monkeypatch.delenv("SYNAPSEFAKE_BIN", raising=False)
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr("synapsefake._server.packaged_binary", lambda: str(tmp_path / "pkg" / "bin" / "synapsefake"))
    return os.environ


@pytest.fixture
def plugin_args(request):
    """The arguments that load the plugin in a pytester run: none when the
    package is installed (its entry point loads it), else -p."""
    if request.config.pluginmanager.get_plugin("synapsefake") is not None:
        return []
    return ["-p", "synapsefake.pytest_plugin"]
