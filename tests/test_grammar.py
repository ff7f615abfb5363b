"""Grammar coverage: the fixtures under tests/data/grammar/ through the real flake8.

Each fixture exercises one language feature with asyncio spawns inside it and is
named after the oldest Python that can parse it (``py310_match.py``: 3.10+).
They carry no ``# error:`` markers: the only requirement is that flake8 with
this plugin runs them without a crash, on every interpreter that parses them.
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import List, Optional, Tuple

import pytest

from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.api import analyse
from tests.conftest import flake8_command

GRAMMAR = Path(__file__).resolve().parent / "data" / "grammar"
FIXTURES = sorted(GRAMMAR.glob("py3*_*.py"))
_VERSION = re.compile(r"^py3(\d+)_")
CRASH_SIGNS = ("Traceback", "failed during execution", "raised an unexpected exception")


def min_version(path: Path) -> Tuple[int, int]:
    match = _VERSION.match(path.name)
    assert match, f"{path.name}: grammar fixtures are named py3<minor>_<feature>.py"
    return (3, int(match.group(1)))


def supported(path: Path) -> bool:
    return sys.version_info[:2] >= min_version(path)


def run_flake8(
    args: List[str], cwd: Optional[Path] = None, timeout: int = 300
) -> "subprocess.CompletedProcess[str]":
    """The installed flake8 and our plugin (other third-party plugins left out,
    see tests/conftest.py), config files ignored."""
    return subprocess.run(
        [*flake8_command(), "--isolated", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
    )


def assert_clean_run(proc: subprocess.CompletedProcess, what: str) -> None:  # type: ignore[type-arg]
    assert proc.returncode in (0, 1), f"{what}: exit {proc.returncode}\n{proc.stderr}"
    for sign in CRASH_SIGNS:
        assert sign not in proc.stderr, f"{what}: {sign!r} on stderr\n{proc.stderr}"
    assert "flake8-taskref: skipped" not in proc.stderr, proc.stderr


def test_grammar_fixtures_exist_and_are_named_by_version() -> None:
    names = {p.name for p in FIXTURES}
    for required in ("py39_basics.py", "py310_match.py", "py311_except_star.py", "py312_type_params.py"):
        assert required in names
    for path in FIXTURES:
        min_version(path)
        assert "# error:" not in path.read_text(encoding="utf-8"), (
            f"{path.name}: grammar fixtures must not carry markers"
        )


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixture_parses_exactly_from_its_version(path: Path) -> None:
    """The version in the name is right: it compiles here iff it should."""
    source = path.read_text(encoding="utf-8")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(source, str(path), "exec", dont_inherit=True)
    except SyntaxError as exc:
        assert not supported(path), f"{path.name} should compile on {sys.version_info[:2]}: {exc}"
    else:
        # Parenthesized context managers are accepted (undocumented) by 3.9's parser.
        if path.name != "py310_parenthesized_with.py":
            assert supported(path), f"{path.name} compiles on {sys.version_info[:2]}: rename it"


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_real_flake8_runs_the_fixture(path: Path) -> None:
    if not supported(path):
        pytest.skip(f"needs Python {'.'.join(map(str, min_version(path)))}+")
    proc = run_flake8(["--select", "TRF", "--extend-select", "TRF006", str(path)])
    assert_clean_run(proc, path.name)
    assert re.search(r":\d+:\d+: TRF00\d ", proc.stdout), (
        f"{path.name}: the plugin reported nothing\n{proc.stdout}"
    )


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_analysis_with_every_option_set(path: Path) -> None:
    """In process, with project spawners, other loop names and extra timeouts."""
    if not supported(path):
        pytest.skip("not parseable here")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for options in (
        Options.build(),
        Options.build(spawners=("job", "asyncio.sleep"), loop_names=(), timeouts=("asyncio.sleep",)),
        Options.build(loop_names=("lock", "self", "tasks"), timeouts=("contextlib.suppress",)),
    ):
        first = [(e.lineno, e.col_offset, e.code, e.message) for e in analyse(tree, options)]
        second = [(e.lineno, e.col_offset, e.code, e.message) for e in analyse(tree, options)]
        assert first == second


def test_real_flake8_runs_all_fixtures_in_parallel(tmp_path: Path) -> None:
    """All the parseable fixtures in one run, as a project would lint them."""
    files = [str(p) for p in FIXTURES if supported(p)]
    proc = run_flake8(["--select", "TRF", "-j", "2", *files])
    assert_clean_run(proc, "all grammar fixtures")


@pytest.mark.slow
def test_real_flake8_on_a_huge_generated_file(tmp_path: Path) -> None:
    """A 50,000-line module through the real flake8 (slow because of the other
    installed plugins; the in-process version is in test_fuzz)."""
    from tests.test_fuzz import huge_source

    source, functions = huge_source(50_000)
    target = tmp_path / "huge.py"
    target.write_text(source, encoding="utf-8")
    proc = run_flake8(["--select", "TRF", str(target)], timeout=3600)
    assert_clean_run(proc, "huge.py")
    assert proc.stdout.count(": TRF001 ") == functions


@pytest.mark.parametrize("exit_statement", ["continue", "break"])
def test_an_exit_the_compiler_refuses_is_no_crash(exit_statement: str) -> None:
    """``ast.parse`` takes a ``continue`` or ``break`` outside a loop (the
    compiler refuses it: an editor's buffer has it while the user types); the
    paths of TRF007 met no loop for it and crashed (IndexError, found by the
    mutation fuzz on Python 3.15)."""
    source = (
        "import asyncio\n\n\nasync def f(c):\n    t = asyncio.create_task(c())\n"
        f"    {exit_statement}\n    await t\n"
    )
    assert analyse(ast.parse(source), Options.build()) == []


def test_a_timeout_in_an_awaited_gathers_arguments_meets_no_task_of_it() -> None:
    """The gather's own future exists only once its arguments are evaluated: a
    timeout awaited in them meets none of its tasks (TRF003 said so once the
    gather's end was taken where it ends; the mutation fuzz, seed 777009416 of
    base seed 777).  A task made in its arguments before the timeout is lost."""
    kept = (
        "import asyncio\n\n\nasync def stop(self, job):\n"
        "    await asyncio.gather(*self.tasks, return_exceptions=await asyncio.wait_for(job(), 1))\n"
    )
    assert analyse(ast.parse(kept), Options.build()) == []
    lost = (
        "import asyncio\n\n\nasync def stop(a, job):\n"
        "    await asyncio.gather(\n"
        "        asyncio.create_task(a()), return_exceptions=await asyncio.wait_for(job(), 1))\n"
    )
    assert [(e.lineno, e.code) for e in analyse(ast.parse(lost), Options.build())] == [(6, "TRF003")]
