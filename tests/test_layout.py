"""The package's layout: one analysis, the project view over it, the faces over
both, and the layering between them
as a contract checked by import-linter (configured in pyproject.toml)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from tests.harness import REPO

PACKAGE = REPO / "flake8_taskref"
SUBPACKAGES = ("analysis", "command", "fix", "project", "runtime", "server")
# Standard-library modules a module of ours must not be named after (fix/typing.py
# would shadow typing for a reader, and for tools run from inside the folder).
if sys.version_info >= (3, 10):
    STDLIB = frozenset(sys.stdlib_module_names)
else:  # pragma: no cover - the names that matter here
    STDLIB = frozenset({"typing", "ast", "types", "io", "os", "sys", "json", "runpy", "gc", "re",
                        "tokenize", "inspect", "abc", "enum", "string", "token", "code", "select"})


VERDICT = re.compile(r" (KEPT|BROKEN)( \(\d+ ignored imports?\))?$")


def lint_imports(cwd: Path, env: "dict[str, str] | None" = None) -> subprocess.CompletedProcess[str]:
    """import-linter's own command, run by the Python of this test run."""
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run([sys.executable, "-c", code, "--no-cache"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def modules(folder: Path) -> List[Path]:
    return sorted(p for p in folder.glob("*.py"))


def test_layout_one_analysis_a_project_view_and_the_faces() -> None:
    top = [p.name for p in modules(PACKAGE)]
    assert len(top) <= 5, top
    assert set(top) == {"__init__.py", "__main__.py", "plugin.py"}
    found = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert found == sorted(SUBPACKAGES)


def test_no_module_is_long_or_named_after_the_standard_library() -> None:
    for path in PACKAGE.rglob("*.py"):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= 900, f"{path.relative_to(REPO)}: {lines} lines"
        if path.stem != "__init__" and path.stem != "__main__":
            assert path.stem not in STDLIB, f"{path.relative_to(REPO)} is named after a stdlib module"


def test_importing_the_package_imports_only_its_version() -> None:
    """``flake8_taskref/__init__.py`` holds the version: importing it (as
    ``flake8-taskref --version`` and pytest's plugin discovery do) loads
    neither flake8 nor LibCST nor any other module of ours."""
    code = ("import sys, flake8_taskref; print(flake8_taskref.__version__); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('flake8', 'flake8_plugin_utils', 'libcst', 'pytest', 'flake8_taskref')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    version, loaded = proc.stdout.splitlines()
    assert version.count(".") == 2
    assert loaded == "['flake8_taskref']"


def test_import_contracts_are_kept() -> None:
    proc = lint_imports(REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Contracts: 6 kept, 0 broken." in proc.stdout, proc.stdout


@pytest.mark.parametrize(
    "module, planted, broken",
    [
        # the analysis imports a face
        ("analysis/names.py", "from flake8_taskref.command import runner",
         "The analysis knows neither its faces"),
        ("analysis/rules.py", "import libcst", "The analysis knows neither its faces"),
        ("analysis/rules.py", "from flake8_taskref.project import files",
         "The analysis knows neither its faces"),
        # the analysis flows one way: a lower layer imports a higher one
        ("analysis/facts.py", "from flake8_taskref.analysis import rules",
         "The analysis flows one way"),
        ("analysis/shortcut.py", "from flake8_taskref.analysis import facts",
         "The analysis flows one way"),
        ("fix/plan.py", "from flake8_taskref.command import config",
         "The fixer knows neither the command nor the pytest option"),
        ("runtime/watch.py", "from flake8_taskref.command import cli",
         "The faces are independent"),
        ("command/output.py", "from flake8_taskref import plugin",
         "The faces are independent"),
        ("plugin.py", "from flake8_taskref.command import runner",
         "The faces are independent"),
        ("project/config.py", "from flake8_taskref.command import output",
         "The project view knows no face"),
        ("project/check.py", "from flake8_taskref.fix import rewrite",
         "The project view knows no face"),
        ("command/runner.py", "from flake8 import utils", "The command imports no module of flake8's"),
        # the editor server is a face: it imports no other face, and none imports it
        # (but the console script's hand-over in command/cli.py)
        ("server/lsp.py", "from flake8_taskref.command import runner", "The faces are independent"),
        ("server/checking.py", "from flake8_taskref import plugin", "The faces are independent"),
        ("command/runner.py", "from flake8_taskref.server import checking", "The faces are independent"),
        ("runtime/watch.py", "from flake8_taskref import server", "The faces are independent"),
        ("project/check.py", "from flake8_taskref.server import documents",
         "The project view knows no face"),
        ("fix/plan.py", "from flake8_taskref.server import fixes",
         "The fixer knows neither the command nor the pytest option"),
        ("analysis/rules.py", "import pygls", "The analysis knows neither its faces"),
    ],
)
def test_a_forbidden_import_breaks_a_contract(
    tmp_path: Path, module: str, planted: str, broken: str
) -> None:
    """A copy of the package with one forbidden import planted fails
    lint-imports, naming the contract it breaks (an import planted low in the
    analysis breaks the faces' contracts too, through the analysis)."""
    shutil.copytree(PACKAGE, tmp_path / "flake8_taskref",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / "flake8_taskref" / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{planted}  # planted\n",
                      encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = lint_imports(tmp_path, env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    # "NAME KEPT" or "NAME BROKEN", "(1 ignored import)" after it for the faces' contract
    # (import-linter 2.5 on Python 3.9 colours them even into a pipe)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", proc.stdout)
    verdicts = [line.rstrip() for line in plain.splitlines() if VERDICT.search(line.rstrip())]
    assert len(verdicts) == 6, proc.stdout
    assert any(line.startswith(broken) and " BROKEN" in line for line in verdicts), proc.stdout
    # the copy was analysed, not the installed package
    dotted = "flake8_taskref." + module[:-3].replace("/", ".")
    assert dotted in proc.stdout, proc.stdout
