"""The pytest plugin, run in pytester sessions: the fixture, the marker, the
option, the summary, and docs/python.md's test as written."""

import os
import re

import pytest

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "python.md")


def _doc_test():
    with open(DOC) as f:
        doc = f.read()
    section = doc[doc.index("## A test"):]
    code = section[section.index("```python\n") + len("```python\n"):]
    return code[:code.index("```")]


def test_the_docs_test_runs_as_written(pytester, plugin_args, real_binary):
    if not os.path.exists(DOC):
        pytest.skip("docs/python.md is not beside this checkout")
    pytest.importorskip("requests")
    pytester.makepyfile(test_doc=_doc_test())
    result = pytester.runpytest(*plugin_args, "--synapsefake-bin", real_binary, "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_the_fixture_the_marker_and_the_summary(pytester, plugin_args, real_binary):
    pytester.makepyfile(test_it='''
        import pytest

        seen = []

        def test_one(synapsefake):
            seen.append(synapsefake.client_id)
            assert synapsefake.base_url.endswith("/v3.1")
            assert synapsefake.gateway == synapsefake.client_id + "|" + synapsefake.client_secret
            assert synapsefake.control_url.endswith("/_fake/platforms/" + synapsefake.client_id)
            synapsefake.add_user()

        def test_two(synapsefake):
            # test_one's platform is gone, and this one is empty.
            assert [p["client_id"] for p in synapsefake.platforms()][1:] == [synapsefake.client_id]
            assert seen and seen[0] != synapsefake.client_id
            assert synapsefake.users() == []

        @pytest.mark.synapsefake(start="2030-01-01T00:00:00Z", client_id="named", seed=3)
        def test_marker(synapsefake):
            assert synapsefake.client_id == "named"
            assert synapsefake.now_ms() == 1893456000000

        @pytest.mark.synapsefake(start="2030-01-01T00:00:00Z")
        @pytest.mark.parametrize("synapsefake", [{"start": "2031-01-01T00:00:00Z"}], indirect=True)
        def test_param_over_marker(synapsefake):
            assert synapsefake.now_ms() == 1924992000000
    ''')
    result = pytester.runpytest(*plugin_args, "--synapsefake-bin", real_binary, "-p", "no:cacheprovider")
    result.assert_outcomes(passed=4)
    out = result.stdout.str()
    assert re.search(r"binary .+ \(--synapsefake-bin\): spawn to banner [\d.]+ ms, spawn to ready [\d.]+ ms, "
                     r"cost beyond the binary's own start [\d.]+ ms", out), out
    assert re.search(r"fresh platform per test: median [\d.]+ ms over 4 tests", out), out


def test_a_binary_that_fails_fails_the_tests_with_its_log(pytester, plugin_args, script):
    broken = script("broken", 'echo "synapsefake: -start: bad instant" >&2; exit 2')
    pytester.makepyfile(test_it='''
        def test_a(synapsefake):
            pass
    ''')
    result = pytester.runpytest(*plugin_args, "--synapsefake-bin", broken, "-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*ServeError: synapsefake: the binary exited with status 2 before it served*",
                                 "*synapsefake: -start: bad instant*"])


def test_a_missing_binary_says_where_it_looked(pytester, plugin_args, tmp_path, monkeypatch):
    monkeypatch.delenv("SYNAPSEFAKE_BIN", raising=False)
    pytester.makepyfile(test_it='''
        def test_a(synapsefake):
            pass
    ''')
    result = pytester.runpytest(*plugin_args, "--synapsefake-bin", str(tmp_path / "nope"), "-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*the binary given (--synapsefake-bin / binary=): {tmp_path / 'nope'} (no such file)*"])


@pytest.mark.parametrize("decorator, message", [
    ('@pytest.mark.synapsefake("2030-01-01T00:00:00Z")', "takes keyword arguments only"),
    ('@pytest.mark.synapsefake(when="now")', "unknown: when"),
])
def test_a_wrong_marker_is_a_usage_error(pytester, plugin_args, real_binary, decorator, message):
    pytester.makepyfile(test_it=f'''
        import pytest

        {decorator}
        def test_a(synapsefake):
            pass
    ''')
    result = pytester.runpytest(*plugin_args, "--synapsefake-bin", real_binary, "-p", "no:cacheprovider")
    assert message in result.stdout.str() + result.stderr.str()


def test_the_marker_is_registered(pytester, plugin_args):
    result = pytester.runpytest(*plugin_args, "--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.synapsefake(start=None, clock=None, seed=None, *"])


def test_a_failed_test_shows_its_platforms_requests(pytester, plugin_args, real_binary):
    pytester.makepyfile(test_it='''
        import urllib.error
        import urllib.request

        def test_a(synapsefake):
            req = urllib.request.Request(synapsefake.base_url + "/users",
                                         headers={"X-SP-GATEWAY": synapsefake.client_id + "|wrong"})
            try:
                urllib.request.urlopen(req)
            except urllib.error.HTTPError:
                pass
            assert False, "see the requests"
    ''')
    result = pytester.runpytest(*plugin_args, "--synapsefake-bin", real_binary, "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*- synapsefake requests -*", "GET /v3.1/users -> 401 error_code 100: *"])
    # The hint is this package's call, not Go's.
    result.stdout.fnmatch_lines(["GET /v3.1/users -> 401 error_code 100: X-SP-GATEWAY's client_secret is not this fake's "
                                 "(hint: send X-SP-GATEWAY: \"<client_id>|<client_secret>\"; synapsefake.gateway is this fake's)"])


def test_a_report_lists_the_refusals_before_the_newest_50(pytester, plugin_args, real_binary):
    pytester.makepyfile(test_it='''
        import urllib.error
        import urllib.request

        def get(synapsefake, path, gateway):
            try:
                urllib.request.urlopen(urllib.request.Request(synapsefake.base_url + path, headers={"X-SP-GATEWAY": gateway}))
            except urllib.error.HTTPError:
                pass

        def test_a(synapsefake):
            get(synapsefake, "/users/refused-early", synapsefake.client_id + "|wrong")
            for _ in range(60):
                get(synapsefake, "/users", synapsefake.gateway)
            assert False, "see the requests"

        def test_b(synapsefake):
            get(synapsefake, "/users/refused-in-a-test-that-passes", synapsefake.client_id + "|wrong")
    ''')
    result = pytester.runpytest(*plugin_args, "--synapsefake-bin", real_binary, "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(["*- synapsefake requests -*", "refused before the newest 50:",
                                 "GET /v3.1/users/refused-early -> 401 error_code 100: *",
                                 "the newest 50 of 61:", "GET /v3.1/users -> 200 error_code 0"])
    assert "refused-in-a-test-that-passes" not in result.stdout.str()
