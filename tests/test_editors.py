"""docs/editors.md: VS Code's flake8 extension runs flake8 with its own --format and
parses each line with a regular expression, by path for files and through stdin for
notebook cells; every finding must come through with its line, column and code."""
from __future__ import annotations

import re
from typing import List, Tuple

from tests.harness import REPO, flake8

EXAMPLE = "docs/examples/service.py"
EXPECTED = [(14, 9, "TRF001"), (15, 9, "TRF001"), (26, 16, "TRF002"), (32, 26, "TRF003")]
# The argument exactly as the extension passes it (quotes included: it is not run
# through a shell, so they reach flake8 and frame every output line).
VSCODE_FORMAT = "--format='%(row)d,%(col)d,%(code).1s,%(code)s:%(text)s'"
# The shape the extension's parser accepts: line, column, type letter, code, message.
VSCODE_LINE = re.compile(
    r"(?P<line>\d+),(?P<column>-?\d+),(?P<type>\w+),(?P<code>\w+\d+):(?P<message>[^\r\n]*)"
)


def _parse(stdout: str) -> List[Tuple[int, int, str]]:
    found = []
    for line in stdout.splitlines():
        if line.startswith("'") and line.endswith("'"):
            line = line[1:-1]
        match = VSCODE_LINE.match(line)
        assert match is not None, line
        assert match.group("type") == "T"
        found.append((int(match.group("line")), int(match.group("column")), match.group("code")))
    return found


def test_vscode_by_path() -> None:
    proc = flake8(["--isolated", "--select", "TRF", VSCODE_FORMAT, EXAMPLE], cwd=REPO)
    assert proc.returncode == 1, proc.stderr
    assert _parse(proc.stdout) == EXPECTED


def test_vscode_notebook_cell_through_stdin() -> None:
    source = (REPO / EXAMPLE).read_text(encoding="utf-8")
    proc = flake8(["--isolated", "--select", "TRF", VSCODE_FORMAT,
                   "--stdin-display-name", str(REPO / EXAMPLE), "-"], stdin=source, cwd=REPO)
    assert proc.returncode == 1, proc.stderr
    assert _parse(proc.stdout) == EXPECTED


def test_pylsp_default_format_through_stdin() -> None:
    """python-lsp-server pipes the buffer to `flake8 -` with a relative display name
    and reads flake8's default format."""
    source = (REPO / EXAMPLE).read_text(encoding="utf-8")
    proc = flake8(["--isolated", "--select", "TRF", "--stdin-display-name", EXAMPLE, "-"],
                  stdin=source, cwd=REPO)
    assert proc.returncode == 1, proc.stderr
    rows = [tuple(line.split(":")[1:3]) + (line.split(": ")[1].split()[0],)
            for line in proc.stdout.splitlines()]
    assert [(int(r), int(c), code) for r, c, code in rows] == EXPECTED
