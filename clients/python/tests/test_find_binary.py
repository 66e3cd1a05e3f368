"""find_binary's search order (given, SYNAPSEFAKE_BIN, the packaged binary,
PATH) and the error that says what it tried."""

import os

import pytest

import synapsefake
from synapsefake import _server


def _packaged(script, tmp_path):
    path = _server.packaged_binary()
    os.makedirs(os.path.dirname(path))
    src = script("packaged", "echo packaged")
    os.replace(src, path)
    return path


def test_env_comes_before_the_packaged_binary_and_path(clean_env, script, tmp_path, monkeypatch):
    env_bin = script("from-env", "true")
    _packaged(script, tmp_path)
    on_path = script("synapsefake", "true")
    monkeypatch.setenv("PATH", os.path.dirname(on_path))
    monkeypatch.setenv("SYNAPSEFAKE_BIN", env_bin)
    assert synapsefake.find_binary() == env_bin


def test_the_given_binary_comes_before_env(clean_env, script, monkeypatch):
    monkeypatch.setenv("SYNAPSEFAKE_BIN", script("from-env", "true"))
    given = script("given", "true")
    assert synapsefake.find_binary(given) == given


def test_the_packaged_binary_comes_before_path(clean_env, script, tmp_path, monkeypatch):
    packaged = _packaged(script, tmp_path)
    monkeypatch.setenv("PATH", os.path.dirname(script("synapsefake", "true")))
    assert synapsefake.find_binary() == packaged


def test_path_comes_last(clean_env, script, monkeypatch):
    on_path = script("synapsefake", "true")
    monkeypatch.setenv("PATH", os.path.dirname(on_path))
    assert synapsefake.find_binary() == on_path


def test_a_packaged_binary_without_its_executable_bit_gets_it(clean_env, script, tmp_path):
    packaged = _packaged(script, tmp_path)
    os.chmod(packaged, 0o644)
    assert synapsefake.find_binary() == packaged
    assert os.access(packaged, os.X_OK)


def test_nothing_found_says_what_was_tried_in_order(clean_env):
    with pytest.raises(synapsefake.BinaryNotFound) as err:
        synapsefake.find_binary()
    tried = err.value.tried
    assert [t.split(":")[0] for t in tried] == [
        "the binary given (--synapsefake-bin / binary=)", "$SYNAPSEFAKE_BIN",
        "the binary inside the synapsefake package", "synapsefake on PATH"]
    assert "not set" in tried[0] and "not set" in tried[1]
    assert "absent: this is not a platform wheel" in tried[2]
    assert tried[3] == "synapsefake on PATH: not found"
    message = str(err.value)
    assert message.startswith("synapsefake: no synapsefake binary found; tried, in order:\n  1. the binary given")
    assert "Set SYNAPSEFAKE_BIN" in message and "platform wheel" in message
    assert isinstance(err.value, FileNotFoundError)


def test_a_wrong_synapsefake_bin_is_an_error_not_a_fallthrough(clean_env, script, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", os.path.dirname(script("synapsefake", "true")))
    missing = str(tmp_path / "no-such-binary")
    monkeypatch.setenv("SYNAPSEFAKE_BIN", missing)
    with pytest.raises(synapsefake.BinaryNotFound, match=f"SYNAPSEFAKE_BIN: {missing} \\(no such file\\)"):
        synapsefake.find_binary()
    plain = tmp_path / "plain-file"
    plain.write_text("not a program")
    monkeypatch.setenv("SYNAPSEFAKE_BIN", str(plain))
    with pytest.raises(synapsefake.BinaryNotFound, match="not executable"):
        synapsefake.find_binary()
