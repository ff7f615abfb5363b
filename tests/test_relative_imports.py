"""Helpers named in the options are found through relative imports (resolved
against the file's package) and in their own module."""
from __future__ import annotations

import ast
from pathlib import Path
from typing import List, Optional

import pytest

from flake8_taskref.analysis.names import absolute_module, module_name, package_name
from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.api import analyse
from tests.harness import DATA, _FORMAT, compare, expected, flake8, lint, parse_output

PACKAGE = DATA / "relative" / "myapp"
FILES = sorted(PACKAGE.rglob("*.py"))
ARGS = (
    "--taskref-spawners=myapp.tasks.fire_and_forget",
    "--taskref-timeouts=myapp.deadline.deadline",
)


def test_module_and_package_names() -> None:
    assert module_name(str(PACKAGE / "tasks.py")) == "myapp.tasks"
    assert module_name(str(PACKAGE / "__init__.py")) == "myapp"
    assert module_name(str(PACKAGE / "sub" / "worker.py")) == "myapp.sub.worker"
    assert package_name(str(PACKAGE / "sub" / "worker.py"), "myapp.sub.worker") == "myapp.sub"
    assert package_name(str(PACKAGE / "sub" / "__init__.py"), "myapp.sub") == "myapp.sub"
    assert module_name(None) is None and module_name("<stdin>") is None
    assert absolute_module("myapp.sub", 2, "tasks") == "myapp.tasks"
    assert absolute_module("myapp.sub", 1, None) == "myapp.sub"
    assert absolute_module("myapp", 2, "tasks") is None
    assert absolute_module(None, 1, "tasks") is None


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_relative_imports_through_flake8(path: Path) -> None:
    results = lint(FILES, *ARGS)
    compare(path, results.get(str(path), []))


def test_every_file_is_checked_and_some_report() -> None:
    assert sum(len(expected(path)) for path in FILES) == 7  # service 4, tasks 1, sub 2, worker 0


def test_stdin_uses_the_display_name() -> None:
    path = PACKAGE / "service.py"
    proc = flake8(
        ["--isolated", "--select", "TRF", "--format", _FORMAT, *ARGS,
         "--stdin-display-name", str(path), "-"],
        stdin=path.read_text(encoding="utf-8"),
    )
    compare(path, parse_output(proc.stdout).get(str(path), []))


def _codes(path: Path, filename: Optional[str]) -> List[int]:
    source = path.read_text(encoding="utf-8")
    options = Options.build(spawners=["myapp.tasks.fire_and_forget"], timeouts=["myapp.deadline.deadline"])
    errors = analyse(ast.parse(source), options, source.splitlines(True), filename=filename)
    return sorted(error.lineno for error in errors)


def test_analyse_takes_the_filename() -> None:
    path = PACKAGE / "service.py"
    assert _codes(path, str(path)) == sorted(line for line, _, _ in expected(path))
    # without it, relative imports cannot be resolved: only the plain spawn is seen
    assert _codes(path, None) == []
