"""Determinism: the real flake8 gives the same findings, in the same order,
whichever way it is run.

All fixtures (``tests/data/**/*.py`` that the running interpreter parses, plus
the shared real-world cases) are copied into one temporary directory per set of
``# flake8-args:`` options; each directory is linted

* with ``-j 1`` and with ``-j 4`` (worker processes),
* twice in a row,
* with two different ``PYTHONHASHSEED`` values (set iteration order),
* and file by file through stdin (``-`` with ``--stdin-display-name``),

and the outputs are compared as text, unsorted (flake8 itself orders findings
within a file).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from tests.conftest import flake8_command
from tests.harness import extra_args

TESTS = Path(__file__).resolve().parent
DATA = TESTS / "data"
SHARED_CASES = Path(__file__).resolve().parent / "data" / "cases"
FORMAT = "%(path)s:%(row)d:%(col)d: %(code)s %(text)s"


def fixture_files() -> List[Path]:
    files = sorted(DATA.rglob("*.py"))
    if SHARED_CASES.is_dir():
        files += sorted(SHARED_CASES.glob("*.py"))
    usable = []
    for path in files:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compile(path.read_text(encoding="utf-8"), str(path), "exec", dont_inherit=True)
        except SyntaxError:
            continue  # a grammar fixture for a newer Python
        usable.append(path)
    return usable


def run(args: List[str], cwd: Path, stdin: Optional[str] = None, hashseed: Optional[str] = None) -> str:
    env = dict(os.environ)
    if hashseed is not None:
        env["PYTHONHASHSEED"] = hashseed
    proc = subprocess.run(
        [*flake8_command(), "--isolated", "--select", "TRF", "--extend-select", "TRF006",
         "--format", FORMAT, *args],
        input=stdin, capture_output=True, text=True, cwd=cwd, env=env, timeout=600,
    )
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr and "flake8-taskref: skipped" not in proc.stderr, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def groups(tmp_path_factory: pytest.TempPathFactory) -> List[Tuple[Path, Tuple[str, ...]]]:
    """One directory per set of extra options, holding copies of the fixtures."""
    root = tmp_path_factory.mktemp("determinism")
    by_args: Dict[Tuple[str, ...], List[Path]] = {}
    for path in fixture_files():
        by_args.setdefault(extra_args(path), []).append(path)
    result = []
    for number, (args, paths) in enumerate(sorted(by_args.items())):
        group = root / f"group{number}"
        group.mkdir()
        for path in paths:
            relative = path.relative_to(DATA) if DATA in path.parents else Path("shared") / path.name
            target = group / "__".join(relative.parts)
            shutil.copyfile(path, target)
        result.append((group, args))
    return result


_serial: Dict[Path, str] = {}


def serial(group: Path, args: Tuple[str, ...]) -> str:
    """The reference output: ``-j 1`` over the directory (computed once)."""
    if group not in _serial:
        _serial[group] = run([*args, "-j", "1", "."], cwd=group)
    return _serial[group]


def test_there_is_a_lot_to_compare(groups: List[Tuple[Path, Tuple[str, ...]]]) -> None:
    assert sum(len(list(g.glob("*.py"))) for g, _ in groups) >= 10
    assert sum(serial(g, a).count("\n") for g, a in groups) >= 20  # findings to compare


def test_jobs_1_and_4_agree(groups: List[Tuple[Path, Tuple[str, ...]]]) -> None:
    for group, args in groups:
        parallel = run([*args, "-j", "4", "."], cwd=group)
        assert serial(group, args) == parallel, f"{group.name} {args}: -j 1 and -j 4 differ"


def test_running_twice_gives_identical_output(groups: List[Tuple[Path, Tuple[str, ...]]]) -> None:
    for group, args in groups:
        assert run([*args, "-j", "1", "."], cwd=group) == serial(group, args)


def test_hash_seed_does_not_matter(groups: List[Tuple[Path, Tuple[str, ...]]]) -> None:
    """The reference run uses a random hash seed; these use two fixed ones."""
    for group, args in groups:
        for seed in ("0", "4242"):
            other = run([*args, "-j", "1", "."], cwd=group, hashseed=seed)
            assert other == serial(group, args), f"{group.name}: output depends on PYTHONHASHSEED"


def test_stdin_gives_the_same_findings_in_the_same_order(groups: List[Tuple[Path, Tuple[str, ...]]]) -> None:
    jobs = []
    for group, args in groups:
        whole = serial(group, args).splitlines()
        for path in sorted(group.glob("*.py")):
            display = f"./{path.name}"
            expected = [line for line in whole if line.startswith(display + ":")]
            jobs.append((group, args, path, display, expected))

    def via_stdin(job: Tuple[Path, Tuple[str, ...], Path, str, List[str]]) -> List[str]:
        group, args, path, display, _ = job
        return run(
            [*args, "--stdin-display-name", display, "-"], cwd=group, stdin=path.read_text(encoding="utf-8")
        ).splitlines()

    with ThreadPoolExecutor(max_workers=4) as pool:  # one flake8 process per file
        results = list(pool.map(via_stdin, jobs))
    for (_, _, path, _, expected), got in zip(jobs, results):
        assert got == expected, f"{path.name}: stdin and file runs differ"


def _compiles(source: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(source, "<mutant>", "exec", dont_inherit=True)
        except SyntaxError:
            return False
    return True


def test_fuzzed_mutants_do_not_depend_on_hash_seed_or_jobs(tmp_path: Path) -> None:
    """The same comparison over 80 mutants of the fixtures (see test_fuzz):
    set iteration order must never leak into what is reported."""
    from tests.test_fuzz import make_mutant, seed_sources

    seeds = seed_sources(include_corpus=False)
    written = 0
    mutant_seed = 7_000_000
    while written < 80:
        _, source, _, _ = make_mutant(seeds, mutant_seed)
        mutant_seed += 1
        # pyflakes, which flake8 always runs, can fail on a tree that parses but
        # does not compile (it asserts on ``from __future__`` inside a function, a
        # mutant seen on 3.13): only mutants that compile go through the whole
        # flake8 here.  The plugin alone gets every mutant in test_fuzz.
        if not _compiles(source):
            continue
        (tmp_path / f"mutant_{written:03d}.py").write_text(source, encoding="utf-8")
        written += 1
    reference = run(["-j", "1", "."], cwd=tmp_path, hashseed="0")
    assert reference.count("\n") >= 30
    assert run(["-j", "1", "."], cwd=tmp_path, hashseed="4242") == reference
    assert run(["-j", "2", "."], cwd=tmp_path, hashseed="random") == reference


LINE_ENDING_SOURCE = (
    "import asyncio\n"
    "# a comment with a line separator \u2028 and a paragraph separator \u2029 in it\n"
    "S = 'a string holding \u2028 and \x0c and \x85 raw'\n"
    "\x0c\n"
    "async def job():\n"
    "    pass\n"
    "\x0c\n"
    "async def one():\n"
    "    asyncio.create_task(job())\n"
    'DOC = """several\n'
    "lines \u2028 of \x0c text\n"
    '"""\n'
    "class K:\n"
    "    def m(self):\n"
    "        asyncio.ensure_future(job())  # \u00e9\n"
    "async def two():\n"
    "\tt = asyncio.create_task(job())\n"
)


def _variants() -> Dict[str, bytes]:
    text = LINE_ENDING_SOURCE
    return {
        "lf": text.encode("utf-8"),
        "crlf": text.replace("\n", "\r\n").encode("utf-8"),
        "cr": text.replace("\n", "\r").encode("utf-8"),
        "bom": b"\xef\xbb\xbf" + text.encode("utf-8"),
        "latin1_cookie": ("# -*- coding: latin-1 -*-\n" + text.replace("\u2028", " ").replace("\u2029", " "))
        .encode("latin-1"),
    }


@pytest.mark.parametrize("variant", sorted(_variants()))
def test_line_endings_and_encodings_lose_no_finding(tmp_path: Path, variant: str) -> None:
    """Odd line ends and encodings: flake8 (file and stdin) reports exactly what
    the full analysis of the same bytes reports (the text shortcut maps
    functions to lines; a misaligned map would lose findings)."""
    import ast

    from flake8_taskref.analysis.options import Options
    from flake8_taskref.analysis.api import analyse

    data = _variants()[variant]
    expected = sorted(
        (e.lineno, e.col_offset + 1, e.code) for e in analyse(ast.parse(data), Options.build())
    )
    assert len(expected) == 3
    target = tmp_path / f"{variant}.py"
    target.write_bytes(data)
    file_out = run(["-j", "1", target.name], cwd=tmp_path)
    got = sorted(
        (int(row), int(col), rest.split()[0])
        for _, row, col, rest in (line.split(":", 3) for line in file_out.splitlines())
    )
    assert got == expected, file_out
    proc = subprocess.run(
        [*flake8_command(), "--isolated", "--select", "TRF", "--format", FORMAT,
         "--stdin-display-name", target.name, "-"],
        input=data, capture_output=True, cwd=tmp_path, timeout=120,
    )
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.decode() == file_out
