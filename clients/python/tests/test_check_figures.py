"""check_figures.py, which ci.sh runs on the example suite's logs."""

import importlib.util
import io
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# check_figures.py is beside the package, not in it: loaded from its file.
_spec = importlib.util.spec_from_file_location("check_figures", os.path.join(ROOT, "check_figures.py"))
check_figures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_figures)


def summary(startups, platform):
    """The plugin's summary: a start-up line per binary, then the platform median."""
    lines = ["--------------------------------- synapsefake ----------------------------------"]
    lines += [f"binary /x/synapsefake (inside the synapsefake package): spawn to banner 10.0 ms, spawn to ready "
              f"14.0 ms, cost beyond the binary's own start {s} ms" for s in startups]
    lines.append(f"fresh platform per test: median {platform} ms over 14 tests (max 4.93 ms)")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("text, ok, want", [
    (summary(["4.1"], "0.52"), True, ["a: start-up beyond the binary's own start: 4.1 ms, under the 50 ms target",
                                      "a: a fresh platform per test, median: 0.52 ms, under the 5 ms target"]),
    (summary(["60.0"], "7.20"), True, ["60 ms, over the 50 ms target, within the margin (100 ms)",
                                       "7.2 ms, over the 5 ms target, within the margin (10 ms)"]),
    (summary(["3.0", "100.5"], "1.00"), False, ["3 ms, under the 50 ms target",
                                                "100.5 ms, OVER 2 x the 50 ms target: failed"]),
    (summary(["3.0"], "10.01"), False, ["10.01 ms, OVER 2 x the 5 ms target: failed"]),
    ("14 passed in 0.70s\n", False, ["a: no figure for start-up beyond the binary's own start",
                                     "a: no figure for a fresh platform per test, median"]),
])
def test_check(text, ok, want):
    out = io.StringIO()
    assert check_figures.check("a", text, out) is ok
    for line in want:
        assert line in out.getvalue()
