"""synapsefake for Python test suites: the fake's binary, its control API and a pytest plugin.

Standard library only at run time (the pytest plugin needs pytest)::

    import synapsefake

    with synapsefake.serve() as srv:             # the binary on a free loopback port
        p = srv.add_platform()                   # a fresh platform: its own data and clock
        user = p.add_user(legal_names=["Ada Lovelace"])
        p.advance("24h")

- DEFAULT_START_TIME: where every platform starts unless told otherwise
  (Go's DefaultStartTime(), a Tuesday 10:00 Eastern), on a manual clock.
- find_binary: SYNAPSEFAKE_BIN, then the binary a platform wheel carries
  (synapsefake/bin/), then synapsefake on PATH.
- serve(**flags) / Server: the running binary (base_url, control, log()).
- Platform: one platform (base_url, client_id, client_secret, gateway,
  control_url, control) with the helpers tests use most.
- Control, ControlError: every route of the control API (docs/control-api.md).
- The pytest plugin (synapsefake.pytest_plugin, entry point pytest11): the
  fixture synapsefake, a fresh Platform per test. See docs/python.md.
"""

# Before the imports: the control client sends it (X-Synapsefake-Client).
__version__ = "0.0.0.dev0"

from ._server import DEFAULT_START_TIME, BinaryNotFound, Platform, ServeError, Server, find_binary, serve  # noqa: E402
from .control import Control, ControlError  # noqa: E402

__all__ = ["DEFAULT_START_TIME", "BinaryNotFound", "Control", "ControlError", "Platform", "ServeError", "Server",
           "find_binary", "serve", "__version__"]

# The public classes are this module's: a traceback prints
# synapsefake.ControlError, not synapsefake.control.ControlError, and
# synapsefake.BinaryNotFound is where it is imported from.
for _cls in (BinaryNotFound, Control, ControlError, Platform, ServeError, Server):
    _cls.__module__ = __name__
del _cls
