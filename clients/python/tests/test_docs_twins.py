"""docs/python.md's table of the control client's methods with their Go
twins names every public method of Control, and nothing else."""

import inspect
import os
import re

import pytest

from synapsefake import Control

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "python.md")
HEADER = "| Python | Route | Go |"


def twin_rows(text):
    """The rows of the table under HEADER, each a list of its cells."""
    lines = text.splitlines()
    at = lines.index(HEADER)
    rows = []
    for line in lines[at + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))])
    return rows


def methods_named(cell):
    """The methods a first cell names: each code span that is a call, name(...)."""
    return {m.group(1) for span in re.findall(r"`([^`]+)`", cell) for m in [re.match(r"([a-z_]\w*)\(", span)] if m}


@pytest.mark.skipif(not os.path.isfile(DOC), reason="docs/python.md is not beside the package (run from the repository)")
def test_the_table_names_every_method_of_control():
    with open(DOC, encoding="utf-8") as f:
        rows = twin_rows(f.read())
    assert all(len(r) == 3 for r in rows), [r for r in rows if len(r) != 3]
    named = [name for r in rows for name in methods_named(r[0])]
    assert len(named) == len(set(named)), sorted(n for n in named if named.count(n) > 1)
    public = {name for name, _ in inspect.getmembers(Control, inspect.isfunction) if not name.startswith("_")}
    assert sorted(public - set(named)) == [], "methods of Control the table leaves out"
    assert sorted(set(named) - public) == [], "rows naming no method of Control"


def test_methods_named():
    cell = "`return_transaction(tx_id, code, late=False)`, `return_(...)` (its first name; a `timedelta`, a `Control`)"
    assert methods_named(cell) == {"return_transaction", "return_"}
