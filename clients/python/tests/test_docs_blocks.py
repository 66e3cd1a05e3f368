"""Every python block of docs/python.md runs as written, with the package as
installed: a block with a test (``def test_``) under ``python -m pytest``
(the plugin's fixture), any other as a script; each must pass."""

import os
import re
import subprocess
import sys

import pytest

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "python.md")


def python_blocks(text):
    """The python blocks of a Markdown text, in order."""
    return re.findall(r"^```python\n(.*?)^```$", text, re.M | re.S)


BLOCKS = python_blocks(open(DOC, encoding="utf-8").read()) if os.path.isfile(DOC) else []


def plugin_args():
    """-p synapsefake.pytest_plugin when pytest would not load the plugin by
    its entry point (the package not installed, only on PYTHONPATH)."""
    try:
        from importlib.metadata import entry_points

        eps = entry_points()
        group = eps.select(group="pytest11") if hasattr(eps, "select") else eps.get("pytest11", [])
        if any(ep.value.startswith("synapsefake") for ep in group):
            return []
    except ImportError:  # pragma: no cover - Python 3.7
        pass
    return ["-p", "synapsefake.pytest_plugin"]


def test_python_blocks():
    text = "```python\nprint(1)\n```\n\n```sh\nls\n```\n```python\ndef test_x():\n    pass\n```\n"
    assert python_blocks(text) == ["print(1)\n", "def test_x():\n    pass\n"]


@pytest.mark.skipif(not BLOCKS, reason="docs/python.md is not beside the package (run from the repository)")
def test_there_are_blocks():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i + 1}" for i in range(len(BLOCKS))])
def test_block_runs(code, tmp_path, real_binary):
    env = dict(os.environ, SYNAPSEFAKE_BIN=real_binary)
    if re.search(r"^def test_", code, re.M):
        (tmp_path / "test_doc.py").write_text(code)
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin_args(), "test_doc.py"]
    else:
        (tmp_path / "doc.py").write_text(code)
        cmd = [sys.executable, "doc.py"]
    r = subprocess.run(cmd, cwd=str(tmp_path), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, timeout=120)
    assert r.returncode == 0, f"{' '.join(cmd)}:\n{code}\n{r.stdout}"
