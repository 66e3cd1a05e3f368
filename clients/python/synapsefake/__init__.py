"""synapsefake for Python test suites: the fake's binary, its control API and a pytest plugin.

Standard library only at run time (the pytest plugin needs pytest)::

    import synapsefake

    with synapsefake.serve() as srv:             # the binary on a free loopback port
        p = srv.add_platform()                   # a fresh platform: its own data and clock
        user = p.add_user(legal_names=["Ada Lovelace"])
        p.advance("24h")

- find_binary: SYNAPSEFAKE_BIN, then the binary a platform wheel carries
  (synapsefake/bin/), then synapsefake on PATH.
- serve(**flags) / Server: the running binary (base_url, control, log()).
- Platform: one platform (base_url, client_id, client_secret, gateway,
  control_url, control) with the helpers tests use most.
- Control, ControlError: every route of the control API (docs/control-api.md).
- The pytest plugin (synapsefake.pytest_plugin, entry point pytest11): the
  fixture synapsefake, a fresh Platform per test. See docs/python.md.
"""

from ._server import BinaryNotFound, Platform, ServeError, Server, find_binary, serve
from .control import Control, ControlError

__version__ = "0.0.0.dev0"

__all__ = ["BinaryNotFound", "Control", "ControlError", "Platform", "ServeError", "Server", "find_binary", "serve",
           "__version__"]
