"""Finding the synapsefake binary, starting it, and its platforms.

Standard library only. The public names are re-exported by the package:
find_binary, serve, Server, ServeError, BinaryNotFound, Platform,
DEFAULT_START_TIME.
"""

import collections
import datetime
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import IO, Any, Deque, Dict, Iterable, List, Mapping, Optional, Sequence, Union, cast

from .control import CLIENT, Control, Duration, JSONObject, Start, _seg

__all__ = ["BinaryNotFound", "DEFAULT_START_TIME", "Platform", "ServeError", "Server", "find_binary", "serve"]

# pytest leaves this module's frames out of a failed test's traceback: a
# refusal points at the test's own line.
__tracebackhide__ = True

DEFAULT_START_TIME = datetime.datetime(2026, 4, 14, 14, 0, tzinfo=datetime.timezone.utc)
"""The instant every platform starts at unless told otherwise: Go's
synapsefake.DefaultStartTime(), Tuesday 14 April 2026, 10:00 Eastern (the
binary's -start default, a platform's start "default"). In milliseconds:
int(DEFAULT_START_TIME.timestamp() * 1000), 1776175200000."""

ENV_BIN = "SYNAPSEFAKE_BIN"
# ENV_CLIENT names this package to the binary it starts, which phrases its
# start-up banner for Python, as the Control's header does for its answers.
ENV_CLIENT = "SYNAPSEFAKE_CLIENT"
_EXE = "synapsefake.exe" if sys.platform == "win32" else "synapsefake"
_BANNER = "synapsefake serving "


class BinaryNotFound(FileNotFoundError):
    """No synapsefake binary was found. tried lists each place looked at,
    with why it did not do, in the order searched."""

    def __init__(self, tried: Iterable[str]) -> None:
        self.tried = list(tried)
        lines = "\n".join(f"  {i}. {t}" for i, t in enumerate(self.tried, 1))
        super().__init__(
            "synapsefake: no synapsefake binary found; tried, in order:\n" + lines + "\n"
            "Set SYNAPSEFAKE_BIN (or pytest's --synapsefake-bin) to the binary, install a platform wheel "
            "of synapsefake (it carries the binary), or put synapsefake on PATH "
            "(go install github.com/synapsefake/synapsefake/cmd/synapsefake@latest)."
        )


class ServeError(RuntimeError):
    """The binary did not start or did not answer. log is what it printed."""

    def __init__(self, message: str, command: Sequence[str], log: str) -> None:
        self.command = list(command)
        self.log = log
        super().__init__(
            f"synapsefake: {message}\n  command: {' '.join(self.command)}\n  its output:\n"
            + ("".join("    " + line + "\n" for line in log.splitlines()) or "    (nothing)\n")
        )


def packaged_binary() -> str:
    """The path a platform wheel puts the binary at: synapsefake/bin/synapsefake[.exe]."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", _EXE)


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_binary(explicit: Optional[Union[str, "os.PathLike[str]"]] = None) -> str:
    """The synapsefake binary's path.

    Searched in this order: explicit (serve's binary=, pytest's
    --synapsefake-bin), the SYNAPSEFAKE_BIN environment variable, the binary
    a platform wheel installed inside this package (synapsefake/bin/), then
    synapsefake on PATH. A path that was given (explicit, SYNAPSEFAKE_BIN)
    must be an executable file: one that is not is an error, not a reason to
    look further. Nothing found raises BinaryNotFound naming what was tried.
    """
    tried: List[str] = []
    value: Any
    for what, value in (("the binary given (--synapsefake-bin / binary=)", explicit),
                        (f"${ENV_BIN}", os.environ.get(ENV_BIN) or None)):
        if value is None:
            tried.append(f"{what}: not set")
            continue
        path = os.path.abspath(os.path.expanduser(str(value)))
        if _executable(path):
            return path
        why = "not executable" if os.path.isfile(path) else "no such file"
        tried.append(f"{what}: {path} ({why})")
        raise BinaryNotFound(tried)
    path = packaged_binary()
    if os.path.isfile(path):
        if not os.access(path, os.X_OK):
            # An installer that dropped the wheel's executable bit.
            try:
                os.chmod(path, os.stat(path).st_mode | 0o111)
            except OSError:
                pass
        if _executable(path):
            return path
        tried.append(f"the binary inside the synapsefake package: {path} (not executable)")
    else:
        tried.append(f"the binary inside the synapsefake package: {path} (absent: this is not a platform wheel)")
    found = shutil.which("synapsefake")
    if found:
        return os.path.abspath(found)
    tried.append("synapsefake on PATH: not found")
    raise BinaryNotFound(tried)


def _start_field(start: Optional[Start]) -> Optional[str]:
    """A start as the binary and the control API take it: an aware datetime
    in RFC 3339, a string as it is."""
    if isinstance(start, datetime.datetime):
        if start.tzinfo is None:
            raise ValueError(f"start {start!r} has no time zone: give an aware datetime")
        return start.isoformat()
    return start


def _flag_args(flags: Mapping[str, Any]) -> List[str]:
    """Command-line flags from keyword arguments: clock="manual" is
    -clock manual, max_platforms=10 is -max-platforms 10, quiet=True is
    -quiet, a False or None value is left out, a list repeats the flag."""
    args: List[str] = []
    for key, value in flags.items():
        name = "-" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            args.append(name)
        elif isinstance(value, datetime.datetime):
            args += [name, value.isoformat()] if value.tzinfo else [name, str(_start_field(value))]
        elif isinstance(value, (list, tuple)):
            for v in value:
                args += [name, str(v)]
        else:
            args += [name, str(value)]
    return args


class Server:
    """A running synapsefake binary (see serve).

    base_url is the API's base URL for the SDKs (http://127.0.0.1:PORT/v3.1),
    origin the server's (http://127.0.0.1:PORT), control its default
    platform's control API. platform_defaults are the start and clock
    add_platform gives a platform unless told others: the server's own
    (-start default and -clock manual unless serve was given others).
    binary and command say what ran;
    banner_seconds is the time from spawning the binary until it printed its
    banner, ready_seconds until it answered GET /_fake/clock.
    """

    def __init__(self, binary: Optional[str] = None, timeout: float = 10.0, token: Optional[str] = None,
                 **flags: Any) -> None:
        self.binary = find_binary(binary)
        opts: Dict[str, Any] = {"addr": "127.0.0.1:0", "clock": "manual", "start": "default", "quiet": True}
        opts.update(flags)
        if token is not None:
            opts["control_token"] = token
        self.command = [self.binary] + _flag_args(opts)
        self.platform_defaults: Dict[str, Any] = {"start": _start_field(opts.get("start")) or "default",
                                  "clock": opts.get("clock") or "manual"}
        self.token = token
        self._lines: Deque[str] = collections.deque(maxlen=2000)
        self._banner = threading.Event()
        self._banner_at = 0.0
        self.base_url = ""
        self.origin = ""
        t0 = time.perf_counter()
        try:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True, encoding="utf-8", errors="replace", bufsize=1, env={**os.environ, ENV_CLIENT: CLIENT})
        except OSError as err:
            raise ServeError(f"cannot run {self.binary}: {err}", self.command, "") from err
        self._reader = threading.Thread(target=self._read, name="synapsefake-log", daemon=True)
        self._reader.start()
        try:
            self._wait_banner(t0, timeout)
            self.banner_seconds = self._banner_at - t0
            self.origin = self.base_url[: -len("/v3.1")] if self.base_url.endswith("/v3.1") else self.base_url
            self._wait_ready(t0, timeout)
            self.ready_seconds = time.perf_counter() - t0
        except BaseException:
            self.stop()
            raise
        self.control = Control(self.origin, token=token)

    def _read(self) -> None:
        stdout = cast(IO[str], self.process.stdout)
        for line in stdout:
            line = line.rstrip("\r\n")
            self._lines.append(line)
            if not self._banner.is_set() and line.startswith(_BANNER):
                self._banner_at = time.perf_counter()
                self.base_url = line[len(_BANNER):].strip()
                self._banner.set()
        stdout.close()

    def _wait_banner(self, t0: float, timeout: float) -> None:
        while not self._banner.wait(0.01):
            if self.process.poll() is not None:
                self._reader.join(2)
                raise ServeError(f"the binary exited with status {self.process.returncode} before it served",
                                 self.command, self.log())
            if time.perf_counter() - t0 > timeout:
                raise ServeError(f"no \"{_BANNER}...\" line within {timeout:g} s", self.command, self.log())

    def _wait_ready(self, t0: float, timeout: float) -> None:
        url = self.origin + "/_fake/clock"
        headers = {"X-Fake-Control-Token": self.token} if self.token else {}
        last: Optional[BaseException] = None
        while True:
            try:
                with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=2) as resp:
                    if resp.status == 200:
                        return
            except (urllib.error.URLError, OSError) as err:
                last = err
            if self.process.poll() is not None:
                raise ServeError(f"the binary exited with status {self.process.returncode}", self.command, self.log())
            if time.perf_counter() - t0 > timeout:
                raise ServeError(f"GET {url} did not answer 200 within {timeout:g} s ({last})",
                                 self.command, self.log())
            time.sleep(0.005)

    def log(self) -> str:
        """What the binary printed so far (its last 2,000 lines), stdout and stderr together."""
        return "\n".join(self._lines)

    def running(self) -> bool:
        """Whether the binary still runs."""
        return self.process.poll() is None

    def stop(self) -> Optional[int]:
        """Stops the binary (SIGTERM, then SIGKILL after 5 s); returns its exit status."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(2)
        return self.process.returncode

    def add_platform(self, name: Optional[str] = None, client_id: Optional[str] = None,
                     client_secret: Optional[str] = None, start: Optional[Start] = None,
                     clock: Optional[str] = None, seed: Optional[int] = None) -> "Platform":
        """A fresh platform of this server (POST /_fake/platforms) as a Platform.
        start and clock are platform_defaults' unless given: the server's
        start and clock, DEFAULT_START_TIME on a manual clock by default."""
        given = {k: v for k, v in dict(name=name, client_id=client_id, client_secret=client_secret, start=start,
                                       clock=clock, seed=seed).items() if v is not None}
        fields = {**self.platform_defaults, **given}
        return Platform(self.control.add_platform(**fields), token=self.token)

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<synapsefake.Server {self.base_url} pid {self.process.pid}>"


def serve(binary: Optional[str] = None, timeout: float = 10.0, token: Optional[str] = None, **flags: Any) -> Server:
    """Starts the synapsefake binary on a free loopback port and answers the Server.

    A context manager: ``with synapsefake.serve() as srv:`` stops the binary
    at the end of the block. The binary is found by find_binary(binary).
    flags are the binary's flags (see ``synapsefake -h``) as keyword
    arguments, start="2026-04-14T10:00:00-04:00" (or a datetime) for
    -start, max_platforms=50 for -max-platforms, quiet=False to log
    requests; the defaults are -addr 127.0.0.1:0 -clock manual -start
    default -quiet: DEFAULT_START_TIME on a frozen clock, for the server and
    for every platform add_platform makes (the binary run by hand starts at
    the wall-clock time instead).
    token is -control-token, sent by the Control. It reads the banner's URL,
    waits until GET /_fake/clock answers (at most timeout seconds) and
    raises ServeError, with the binary's output, when the binary does not
    get there.
    """
    return Server(binary=binary, timeout=timeout, token=token, **flags)


class Platform(Control):
    """One platform of a server (POST /_fake/platforms): its own users, ids,
    clock, webhooks, journal and faults, reached through its gateway.

    base_url is the SDKs' base URL (with /v3.1); client_id, client_secret
    and gateway ("client_id|client_secret", the X-SP-GATEWAY header) are its
    credentials; control_url is its control API. A Platform is the Control
    of its control API: every Control method is one of its own
    (platform.add_subnet(...), platform.transaction(tx_id)), typed, and
    control is the platform itself, for code written as platform.control.x().
    """

    def __init__(self, info: Mapping[str, Any], token: Optional[str] = None) -> None:
        super().__init__(info["control_url"], token=token)
        self.info: JSONObject = dict(info)
        self.client_id: str = info["client_id"]
        self.client_secret: str = info["client_secret"]
        self.gateway: str = info["gateway"]
        self.name: Optional[str] = info.get("name")
        self.base_url: str = info["base_url"]
        self.control_url: str = info["control_url"]

    @property
    def control(self) -> Control:
        """The platform's Control: the platform itself."""
        return self

    def headers(self, oauth_key: str = "", fingerprint: str = "fingerprint", ip: str = "127.0.0.1") -> Dict[str, str]:
        """The headers of an API request on this platform: X-SP-GATEWAY, X-SP-USER
        ("oauth_key|fingerprint", an empty key before sign-in) and X-SP-USER-IP."""
        return {"X-SP-GATEWAY": self.gateway, "X-SP-USER": f"{oauth_key}|{fingerprint}", "X-SP-USER-IP": ip}

    def now_datetime(self) -> datetime.datetime:
        """now() under its first name: this platform's time as an aware datetime (UTC)."""
        return self.now()

    def delete(self) -> None:
        """Deletes this platform and everything in it."""
        Control(self.origin, token=self.token).call("DELETE", f"platforms/{_seg(self.client_id)}")

    def __repr__(self) -> str:
        return f"<synapsefake.Platform {self.client_id} at {self.base_url}>"
