"""Errors that read well: the exceptions are synapsefake's own names, and a
refused control call's traceback ends at the test's line, not inside the
package."""

import re

import pytest

import synapsefake


@pytest.mark.parametrize("cls", [synapsefake.BinaryNotFound, synapsefake.ServeError, synapsefake.ControlError,
                                 synapsefake.Control, synapsefake.Platform, synapsefake.Server])
def test_public_classes_are_the_packages(cls):
    assert cls.__module__ == "synapsefake"
    assert getattr(synapsefake, cls.__qualname__) is cls


def test_a_missing_binary_prints_as_synapsefake_binary_not_found(pytester, monkeypatch, tmp_path):
    monkeypatch.delenv("SYNAPSEFAKE_BIN", raising=False)
    pytester.makepyfile(test_it=f'''
        import synapsefake

        def test_a():
            synapsefake.find_binary({str(tmp_path / "nope")!r})
    ''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert re.search(r"(?m)^E +synapsefake\.BinaryNotFound: synapsefake: no synapsefake binary found", out), out
    assert "_server" not in out, out


def test_a_refused_call_points_at_the_tests_line(pytester, plugin_args, real_binary):
    pytester.makepyfile(test_it='''
        def test_a(synapsefake):
            synapsefake.settle("0123456789abcdef01234567")  # the line that refused

        def test_b(synapsefake):
            synapsefake.transaction("0123456789abcdef01234567")  # through __getattr__
    ''')
    result = pytester.runpytest(*plugin_args, "--synapsefake-bin", real_binary, "-p", "no:cacheprovider")
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    assert len(re.findall(r"(?m)^E +synapsefake\.ControlError: POST /_fake/platforms/", out)) == 1, out
    assert len(re.findall(r"(?m)^E +synapsefake\.ControlError: GET /_fake/platforms/", out)) == 1, out
    assert "# the line that refused" in out and "# through __getattr__" in out, out
    # No frame of the package: neither its files nor its code.
    for hidden in ("control.py", "_server.py", "raise ControlError", "urlopen"):
        assert hidden not in out, (hidden, out)
