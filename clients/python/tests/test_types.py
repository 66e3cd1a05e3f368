"""The package's types and values: every public function typed (mypy
--strict in ci.sh checks them), a py.typed marker, Platform's methods
defined rather than reached through __getattr__, times as datetimes and
durations as a Go string, a timedelta or seconds."""

import datetime
import inspect
import os

import pytest

import synapsefake
from synapsefake import DEFAULT_START_TIME, Control, Platform
from synapsefake.control import _duration


def test_the_package_has_a_py_typed_marker():
    assert os.path.isfile(os.path.join(os.path.dirname(synapsefake.__file__), "py.typed"))


def public_functions():
    """(name, function) of every public function and method of the package."""
    out = [(n, f) for n, f in vars(synapsefake).items() if inspect.isfunction(f) and not n.startswith("_")]
    for cls in (Control, Platform, synapsefake.Server, synapsefake.ControlError, synapsefake.BinaryNotFound,
                synapsefake.ServeError):
        for n, f in vars(cls).items():
            if inspect.isfunction(f) and (not n.startswith("_") or n == "__init__"):
                out.append((f"{cls.__name__}.{n}", f))
    return out


@pytest.mark.parametrize("name,fn", public_functions(), ids=[n for n, _ in public_functions()])
def test_every_public_function_is_annotated(name, fn):
    sig = inspect.signature(fn)
    untyped = [p.name for p in sig.parameters.values() if p.name != "self" and p.annotation is inspect.Parameter.empty]
    assert untyped == [], f"{name}: parameters without a type"
    assert sig.return_annotation is not inspect.Signature.empty, f"{name}: no return type"


def test_platform_defines_every_control_method():
    assert "__getattr__" not in vars(Platform)
    public = [n for n, _ in inspect.getmembers(Control, inspect.isfunction) if not n.startswith("_")]
    assert [n for n in public if not inspect.isfunction(getattr(Platform, n, None))] == []


@pytest.mark.parametrize("given,want", [
    ("24h", "24h"),
    (datetime.timedelta(hours=1, milliseconds=5), "3600005ms"),
    (90, "90000ms"),
    (1.5, "1500ms"),
    (0, "0ms"),
])
def test_durations(given, want):
    assert _duration(given) == want


@pytest.mark.parametrize("given", [True, None, [1]])
def test_durations_refused(given):
    with pytest.raises(TypeError, match="a Go duration string"):
        _duration(given)


def test_times_are_datetimes(real_binary):
    with synapsefake.serve(binary=real_binary) as srv:
        p = srv.add_platform()
        assert p.control is p  # platform.control.x() still reads as before
        now = p.now()
        assert isinstance(now, datetime.datetime) and now.tzinfo is not None
        assert now == DEFAULT_START_TIME and p.now_ms() == int(DEFAULT_START_TIME.timestamp() * 1000)
        assert p.advance("1h") == DEFAULT_START_TIME + datetime.timedelta(hours=1)
        assert p.advance(datetime.timedelta(minutes=30)) == DEFAULT_START_TIME + datetime.timedelta(minutes=90)
        assert p.advance(0.25) == DEFAULT_START_TIME + datetime.timedelta(minutes=90, milliseconds=250)
        assert p.now_datetime() == p.now()
        nbd = p.advance_to_next_business_day()
        assert isinstance(nbd, datetime.datetime) and nbd > now
