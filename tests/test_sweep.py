"""Sweeps: lint whole code bases with the analysis and require that it never raises.

* the running interpreter's standard library (every ``.py`` file under
  ``sysconfig.get_paths()["stdlib"]`` except site-packages; files the running
  parser rejects, such as lib2to3 test data, are skipped) -- about 16 s on 3.11
  here, so it runs in the default suite;
* with TASKREF_NETWORK=1, the pinned benchmark corpus (``benchmarks/corpus.py``),
  downloaded on first use.

Each sweep prints how many files and lines it covered (``pytest -s`` shows it).
"""
from __future__ import annotations

import ast
import sys
import sysconfig
import time
import traceback
import warnings
from pathlib import Path
from typing import Iterable, List, Tuple

import pytest

from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.api import analyse

REPO = Path(__file__).resolve().parents[1]
STDLIB = Path(sysconfig.get_paths()["stdlib"])
OPTIONS = Options.build()


def stdlib_files() -> List[Path]:
    return sorted(
        p for p in STDLIB.rglob("*.py") if not {"site-packages", "dist-packages"} & set(p.parts)
    )


def sweep(files: Iterable[Path]) -> Tuple[int, int, int, int, List[str]]:
    """(files analysed, lines, unparseable files skipped, findings, failures)."""
    analysed = lines = skipped = found = 0
    failures: List[str] = []
    for path in files:
        try:
            data = path.read_bytes()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(data, str(path))
        except (SyntaxError, ValueError, RecursionError, MemoryError, OSError):
            skipped += 1
            continue
        analysed += 1
        lines += data.count(b"\n")
        try:
            found += len(analyse(tree, OPTIONS))
        except RecursionError:
            # The flake8 entry point turns this into a one-line skip message;
            # fine for generated monsters, worth knowing for real files.
            failures.append(f"{path}: RecursionError (flake8 would skip the file)")
        except Exception:
            failures.append(f"{path}:\n{traceback.format_exc()}")
    return analysed, lines, skipped, found, failures


def _run_and_report(name: str, files: List[Path]) -> Tuple[int, int]:
    start, cpu_start = time.perf_counter(), time.process_time()
    analysed, lines, skipped, found, failures = sweep(files)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    print(
        f"\n{name} sweep (Python {sys.version.split()[0]}): {analysed} files, {lines} lines, "
        f"{skipped} unparseable skipped, {found} findings, {elapsed:.1f} s wall, {cpu:.1f} s CPU "
        "(parsing included)"
    )
    assert not failures, f"{len(failures)} files failed:\n" + "\n".join(failures[:10])
    return analysed, lines


def test_stdlib_sweep() -> None:
    files = stdlib_files()
    analysed, lines = _run_and_report("stdlib", files)
    # The sweep really covered the stdlib.  Distributions ship it without its test
    # suite (Debian's python3.11: 668 files, 304k lines); a full one has 1,700 files.
    if (STDLIB / "test" / "test_grammar.py").is_file():
        assert analysed > 1000 and lines > 500_000
    else:
        assert analysed > 500 and lines > 200_000
    assert (STDLIB / "asyncio" / "tasks.py") in files and analysed >= 0.98 * len(files)


def test_stdlib_asyncio_has_no_crash_and_is_deterministic() -> None:
    """asyncio itself (the code closest to what we lint) twice: same findings."""
    for path in sorted((STDLIB / "asyncio").glob("*.py")):
        tree = ast.parse(path.read_bytes(), str(path))
        first = [(e.lineno, e.col_offset, e.code, e.message) for e in analyse(tree, OPTIONS)]
        second = [(e.lineno, e.col_offset, e.code, e.message) for e in analyse(tree, OPTIONS)]
        assert first == second, path


@pytest.mark.network
def test_corpus_sweep() -> None:
    benchmarks = REPO / "benchmarks"
    sys.path.insert(0, str(benchmarks))
    try:
        import corpus  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(benchmarks))
    files = corpus.ensure_corpus(REPO / ".bench" / "corpus")
    analysed, lines = _run_and_report("corpus", list(files))
    assert analysed > 0
