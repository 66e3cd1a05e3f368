"""Every entry point that starts the fake or makes a platform starts it at
DEFAULT_START_TIME on a manual clock unless told otherwise: serve(),
Server.add_platform, Control.add_platform (even on a binary that runs on
the wall clock) and the pytest fixture."""

import datetime
import re
import subprocess

import pytest

import synapsefake
from synapsefake import DEFAULT_START_TIME, Control

DEFAULT_MS = 1776175200000


def test_the_default_instant():
    assert DEFAULT_START_TIME == datetime.datetime(2026, 4, 14, 10, 0, tzinfo=datetime.timezone(
        datetime.timedelta(hours=-4)))
    assert int(DEFAULT_START_TIME.timestamp() * 1000) == DEFAULT_MS


def test_serve_and_add_platform_start_at_the_default_instant(real_binary):
    with synapsefake.serve(binary=real_binary) as srv:
        assert srv.platform_defaults == {"start": "default", "clock": "manual"}
        assert srv.control.now_ms() == DEFAULT_MS
        p = srv.add_platform()
        assert p.now_ms() == DEFAULT_MS
        assert p.now_datetime() == DEFAULT_START_TIME
        assert p.advance(1) == DEFAULT_START_TIME + datetime.timedelta(seconds=1)  # manual: it moves when told, by what it is told
        # The default platform's clock moving does not move where the next platform starts.
        srv.control.advance("72h")
        assert srv.add_platform().now_ms() == DEFAULT_MS


def test_serve_told_otherwise(real_binary):
    sunday = datetime.datetime(2026, 4, 12, 14, 0, tzinfo=datetime.timezone.utc)
    with synapsefake.serve(binary=real_binary, start=sunday) as srv:
        assert srv.control.now_ms() == int(sunday.timestamp() * 1000)
        assert srv.add_platform().now_ms() == int(sunday.timestamp() * 1000)
        assert srv.add_platform(start="default").now_ms() == DEFAULT_MS


def test_control_add_platform_on_a_wall_clock_binary(real_binary):
    """A binary run as a developer runs it (wall clock, running): the
    platforms Control.add_platform makes still start at the default instant."""
    proc = subprocess.Popen([real_binary, "-addr", "127.0.0.1:0", "-quiet"], stdout=subprocess.PIPE, text=True)
    try:
        base = re.match(r"synapsefake serving (\S+)", proc.stdout.readline()).group(1)
        ctl = Control(base)
        wall = ctl.now_ms()
        assert abs(wall / 1000 - datetime.datetime.now().timestamp()) < 60
        info = ctl.add_platform()
        assert info["now"] == DEFAULT_MS
        platform = ctl.platform(info["client_id"])
        assert platform.advance(0) == DEFAULT_START_TIME
    finally:
        proc.kill()
        proc.wait()


def test_the_fixture_starts_each_platform_at_the_default_instant(pytester, plugin_args, real_binary):
    pytester.makepyfile(test_it='''
        import datetime

        import synapsefake as sf

        DEFAULT_MS = int(sf.DEFAULT_START_TIME.timestamp() * 1000)

        def test_moves_the_servers_own_clock(synapsefake_server, synapsefake):
            assert synapsefake.now_ms() == DEFAULT_MS
            synapsefake_server.control.advance("72h")
            synapsefake.advance("24h")

        def test_still_at_the_default_instant(synapsefake):
            assert synapsefake.now_ms() == DEFAULT_MS
            assert synapsefake.now() == sf.DEFAULT_START_TIME
            assert synapsefake.advance(1) == sf.DEFAULT_START_TIME + datetime.timedelta(seconds=1)
    ''')
    result = pytester.runpytest(*plugin_args, "--synapsefake-bin", real_binary, "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


@pytest.mark.parametrize("start, want", [
    (datetime.datetime(2026, 1, 2, 9, 0, tzinfo=datetime.timezone.utc), "2026-01-02T09:00:00+00:00"),
    ("default", "default"),
])
def test_a_start_as_the_binary_takes_it(start, want):
    from synapsefake._server import _flag_args
    assert _flag_args({"start": start}) == ["-start", want]


def test_a_naive_start_is_refused():
    from synapsefake._server import _flag_args
    with pytest.raises(ValueError, match="no time zone"):
        _flag_args({"start": datetime.datetime(2026, 1, 2, 9, 0)})
