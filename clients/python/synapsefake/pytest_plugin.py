"""The pytest plugin of synapsefake (entry point pytest11, loaded by installing the package).

Fixtures:

- ``synapsefake``: a fresh platform for the test (a synapsefake.Platform:
  base_url, client_id, client_secret, gateway, control_url, control and the
  helpers add_user, add_node, oauth_key, fund, settle, return_transaction,
  advance, now, webhooks, wait_webhook), deleted when the test ends.
- ``synapsefake_server``: the binary, started once per session (so once
  per pytest-xdist worker) and stopped at its end (a synapsefake.Server).

Options: ``--synapsefake-bin PATH`` (before SYNAPSEFAKE_BIN in the search).
The marker ``@pytest.mark.synapsefake(start=..., clock=..., seed=...,
name=..., client_id=..., client_secret=...)`` sets the test's platform's
fields (POST /_fake/platforms), and so does an indirect parameter::

    @pytest.mark.parametrize("synapsefake", [{"start": "2026-01-02T09:00:00Z"}], indirect=True)

A failed test that used the fixture gets a report section, "synapsefake
requests": the API requests its platform received (the newest 50, and the
refusals before them), each refusal with the fake's reason. The terminal
summary prints what the binary's start and each fresh platform cost (a
median over the session's tests).
"""

import os
import statistics
import time
from typing import Any, Dict, Generator, List, Optional, Tuple

import pytest

from ._server import ENV_BIN, Platform, Server, packaged_binary
from .control import JSONObject

_STATS = pytest.StashKey["_Stats"]()
_FIELDS = ("name", "client_id", "client_secret", "start", "clock", "seed")


class _Stats:
    """What the session measured: the binary's start and each platform's creation."""

    def __init__(self) -> None:
        self.binary: Optional[Tuple[str, str]] = None  # (path, where it was found)
        self.banner_ms: Optional[float] = None
        self.ready_ms: Optional[float] = None
        self.platform_ms: List[float] = []
        self.workers: List[Dict[str, Any]] = []  # under xdist, on the controller: each worker's stats

    def as_dict(self) -> Dict[str, Any]:
        return {"binary": self.binary, "banner_ms": self.banner_ms, "ready_ms": self.ready_ms,
                "platform_ms": self.platform_ms}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("synapsefake")
    group.addoption("--synapsefake-bin", dest="synapsefake_bin", default=None, metavar="PATH",
                    help="the synapsefake binary to run (default: $SYNAPSEFAKE_BIN, the binary inside the "
                         "synapsefake package's platform wheel, then synapsefake on PATH)")


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_STATS] = _Stats()
    config.addinivalue_line(
        "markers",
        "synapsefake(start=None, clock=None, seed=None, name=None, client_id=None, client_secret=None): "
        "the fields of the test's fresh synapsefake platform (POST /_fake/platforms), e.g. "
        "start=\"2026-04-14T10:00:00-04:00\"")


def _where(path: str, explicit: Optional[str]) -> str:
    if explicit:
        return "--synapsefake-bin"
    if os.environ.get(ENV_BIN):
        return "$" + ENV_BIN
    if os.path.abspath(path) == os.path.abspath(packaged_binary()):
        return "inside the synapsefake package"
    return "PATH"


@pytest.fixture(scope="session")
def synapsefake_server(request: pytest.FixtureRequest) -> Generator[Server, None, None]:
    """The synapsefake binary, started once for the session (each xdist worker
    has its own) on a free loopback port and stopped at the end."""
    explicit = request.config.getoption("synapsefake_bin")
    server = Server(binary=explicit)
    stats = request.config.stash[_STATS]
    stats.binary = (server.binary, _where(server.binary, explicit))
    stats.banner_ms = server.banner_seconds * 1000
    stats.ready_ms = server.ready_seconds * 1000
    yield server
    server.stop()


def _platform_fields(request: pytest.FixtureRequest) -> Dict[str, Any]:
    fields: Dict[str, Any] = {}
    for marker in reversed(list(request.node.iter_markers("synapsefake"))):
        if marker.args:
            raise pytest.UsageError("@pytest.mark.synapsefake takes keyword arguments only: "
                                    + ", ".join(f"{f}=" for f in _FIELDS))
        fields.update(marker.kwargs)
    param = getattr(request, "param", None)
    if param is not None:
        if not isinstance(param, dict):
            raise pytest.UsageError(f"the synapsefake fixture's parameter is a dict of {', '.join(_FIELDS)}, not {param!r}")
        fields.update(param)
    unknown = sorted(set(fields) - set(_FIELDS))
    if unknown:
        raise pytest.UsageError(f"synapsefake platform fields are {', '.join(_FIELDS)}; unknown: {', '.join(unknown)}")
    return fields


@pytest.fixture
def synapsefake(request: pytest.FixtureRequest, synapsefake_server: Server) -> Generator[Platform, None, None]:
    """A fresh platform of the session's synapsefake for this test: its own
    users, ids, clock and webhooks, deleted when the test ends."""
    fields = _platform_fields(request)
    t0 = time.perf_counter()
    platform = synapsefake_server.add_platform(**fields)
    request.config.stash[_STATS].platform_ms.append((time.perf_counter() - t0) * 1000)
    yield platform
    if synapsefake_server.running():
        platform.delete()


_JOURNAL_LINES = 50


def _line(r: JSONObject) -> str:
    line = f"{r.get('method')} {r.get('path')} -> {r.get('status')}"
    if r.get("error_code"):
        line += f" error_code {r['error_code']}"
    if r.get("reason"):
        line += f": {r['reason']}"
    return line


def _journal(platform: Platform) -> str:
    """The platform's request journal as lines: the newest 50, each refusal
    with the fake's reason (its hints in this package's calls), and before
    them the refusals older than those."""
    requests = platform.requests()
    if not requests:
        return "(no API request reached this test's platform)"
    newest = requests[-_JOURNAL_LINES:]
    earlier = [r for r in requests[:-_JOURNAL_LINES] if r.get("reason")][-_JOURNAL_LINES:]
    lines: List[str] = []
    if earlier:
        lines += [f"refused before the newest {_JOURNAL_LINES}:"] + [_line(r) for r in earlier]
        lines.append(f"the newest {_JOURNAL_LINES} of {len(requests)}:")
    return "\n".join(lines + [_line(r) for r in newest])


@pytest.hookimpl(hookwrapper=True)  # type: ignore[misc]  # pytest 7 leaves hookimpl untyped
def pytest_runtest_makereport(item: pytest.Item, call: "pytest.CallInfo[None]") -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    platform = getattr(item, "funcargs", {}).get("synapsefake")
    if report.when != "call" or not report.failed or platform is None:
        return
    try:
        text = _journal(platform)
    except Exception as err:  # noqa: BLE001 - the report must not fail
        text = f"(the request journal could not be read: {err})"
    report.sections.append(("synapsefake requests", text))


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller prints
        workeroutput["synapsefake"] = session.config.stash[_STATS].as_dict()


@pytest.hookimpl(optionalhook=True)  # type: ignore[misc]
def pytest_testnodedown(node: Any, error: Any) -> None:
    out = getattr(node, "workeroutput", None) or {}
    if "synapsefake" in out:
        d = dict(out["synapsefake"], worker=getattr(node, "workerinput", {}).get("workerid", "?"))
        node.config.stash[_STATS].workers.append(d)


def _startup_line(d: Dict[str, Any], who: str) -> str:
    path, where = d["binary"]
    return (f"{who}binary {path} ({where}): spawn to banner {d['banner_ms']:.1f} ms, spawn to ready "
            f"{d['ready_ms']:.1f} ms, cost beyond the binary's own start {d['ready_ms'] - d['banner_ms']:.1f} ms")


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    stats = config.stash[_STATS]
    runs = [stats.as_dict()] if stats.binary else []
    runs += [w for w in stats.workers if w.get("binary")]
    if not runs:
        return
    tr = terminalreporter
    tr.write_sep("-", "synapsefake")
    for d in sorted(runs, key=lambda d: str(d.get("worker", ""))):
        tr.write_line(_startup_line(d, f"worker {d['worker']}: " if "worker" in d else ""))
    times = [t for d in runs for t in d["platform_ms"]]
    if times:
        tr.write_line(f"fresh platform per test: median {statistics.median(times):.2f} ms over {len(times)} tests "
                      f"(max {max(times):.2f} ms)")
