"""serve(): the binary on a free port, its flags, and failures that show its log."""

import datetime
import time

import pytest

import synapsefake
from synapsefake._server import _flag_args


def test_flags_from_keyword_arguments():
    assert _flag_args({"clock": "manual", "max_platforms": 10, "quiet": True, "funds_check": False,
                       "seed": None, "allow_host": ["a", "b"]}) == [
        "-clock", "manual", "-max-platforms", "10", "-quiet", "-allow-host", "a", "-allow-host", "b"]


def test_serve_starts_answers_and_stops(real_binary):
    with synapsefake.serve(binary=real_binary, start="2026-01-02T09:00:00Z") as srv:
        assert srv.base_url.startswith("http://127.0.0.1:") and srv.base_url.endswith("/v3.1")
        assert srv.origin + "/v3.1" == srv.base_url
        assert srv.control.now_ms() == 1767344400000  # -start, on a manual clock
        assert 0 < srv.banner_seconds <= srv.ready_seconds
        assert srv.log().startswith("synapsefake serving " + srv.base_url)
        p = srv.add_platform(client_id="serve_test")
        assert (p.client_id, p.base_url) == ("serve_test", srv.base_url)
        assert p.gateway == "serve_test|" + p.client_secret
        assert p.control_url == srv.origin + "/_fake/platforms/serve_test"
        assert p.advance("1h") == datetime.datetime(2026, 1, 2, 10, tzinfo=datetime.timezone.utc)  # -start, plus an hour
        assert srv.control.now_ms() == 1767344400000
        p.delete()
        assert [q["client_id"] for q in srv.control.platforms()][1:] == []
    assert not srv.running()


def test_a_flag_the_binary_refuses_fails_with_its_log(real_binary):
    with pytest.raises(synapsefake.ServeError) as err:
        synapsefake.serve(binary=real_binary, no_such_flag="1")
    message = str(err.value)
    assert "the binary exited with status 1 before it served" in message
    assert "flag provided but not defined: -no-such-flag" in message  # the binary's own words
    assert "-no-such-flag 1" in message  # the command
    assert "flag provided but not defined" in err.value.log


def test_a_binary_that_exits_fails_with_its_log(script):
    broken = script("broken", 'echo "starting up"; echo "synapsefake: listen: address in use" >&2; exit 3')
    with pytest.raises(synapsefake.ServeError) as err:
        synapsefake.serve(binary=broken)
    message = str(err.value)
    assert "exited with status 3 before it served" in message
    assert "    starting up\n    synapsefake: listen: address in use\n" in message


def test_a_binary_that_never_serves_is_stopped_after_the_timeout(script):
    silent = script("silent", 'echo "thinking"; exec sleep 30')
    t0 = time.monotonic()
    with pytest.raises(synapsefake.ServeError, match=r"no \"synapsefake serving \.\.\.\" line within 0.5 s") as err:
        synapsefake.serve(binary=silent, timeout=0.5)
    assert time.monotonic() - t0 < 5
    assert "thinking" in str(err.value)


def test_a_binary_that_serves_nothing_fails_after_the_banner(script):
    liar = script("liar", 'echo "synapsefake serving http://127.0.0.1:9/v3.1"; exec sleep 30')
    with pytest.raises(synapsefake.ServeError, match=r"GET http://127.0.0.1:9/_fake/clock did not answer 200"):
        synapsefake.serve(binary=liar, timeout=0.5)


def test_the_banner_names_pythons_call(real_binary):
    """serve() names the package to the binary (SYNAPSEFAKE_CLIENT): its
    start-up line for the manual clock is the fixture's call, not curl."""
    with synapsefake.serve(binary=real_binary) as srv:
        assert '  synapsefake.advance("24h")   # moves a platform\'s clock in a test' in srv.log()
        assert "curl -X POST" not in srv.log()
