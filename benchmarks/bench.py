"""Performance benchmark of flake8-taskref (issue 4).

    python benchmarks/bench.py [--json out.json] [--runs 3] [--skip-flake8]

In this process, over the pinned corpus of ``benchmarks/corpus.py``:

* read every file first (files that do not parse on this Python are counted and
  left out), then ``gc.freeze()`` the text so that the cyclic collector does not
  walk 1.26M held lines (flake8 holds one file at a time);
* run A, file by file: time ``ast.parse``, then the checker as the plugin runs it
  (the text shortcut ``may_spawn`` on the joined lines, then ``analyse`` when it
  says yes);
* run B, file by file: parse again (untimed) and time ``analyse`` on every tree
  (the checker without the shortcut); findings and crashes come from this run;
* re-time candidate slow files (the slowest and the longest of run B, and all
  over 20 ms there) in a fresh interpreter, best of 5, for the slowest file;
* a lower estimate of the floor of this design (separate pass, parse timed
  again as its own denominator): joining the lines, the file test of the files
  it rejects, the lines of the spawner words in the others, and a bare
  ``ast.walk`` of the module- and class-level functions in which the analysis
  records a spawn, each over parse time;
* peak memory of the analysis of one file (tracemalloc, separate pass);
* growth: synthetic asyncio modules of 1k, 10k and 100k lines, each in a fresh
  interpreter, with the cyclic GC on (as in flake8) and off (the algorithm alone);
* profiles (``PROFILES``): the asyncio-heavy packages, the checker as the plugin
  runs it with the default rules and with every rule on, best of 3 per file, and
  the findings it loses against the full analysis.

Then whole flake8 runs in three venvs under ``.bench/venvs/`` (plain flake8;
flake8 + this repository, installed non-editable from the working tree; flake8 +
flake8-async) on a fixed subset of the corpus (every ``SUBSET_STEP``-th file of
the sorted file list, copied into ``.bench/flake8-subset/``), alternating
plain/taskref/async for ``--runs`` rounds, each round followed by ``EXTRA_PAIRS``
more plain/taskref pairs; the medians give our added cost and flake8-async's as
percents of plain.

Times are ``time.perf_counter`` wall-clock seconds; CPU seconds
(``time.process_time``, or the children's rusage for flake8) are reported beside
them because they suffer less from other load on the machine.
"""
from __future__ import annotations

import argparse
import atexit
import ast
import gc
import inspect
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tokenize
import tracemalloc
import traceback
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from corpus import CORPUS, count_lines, ensure_corpus  # noqa: E402
from timing import timed_run  # noqa: E402

from flake8_taskref.analysis.facts import Scope  # noqa: E402
from flake8_taskref.analysis.options import Options  # noqa: E402
from flake8_taskref.analysis.api import analyse, may_spawn  # noqa: E402
from flake8_taskref.plugin import TaskRefPlugin  # noqa: E402
from flake8_taskref.project.settings import ProjectSettings  # noqa: E402
from flake8_taskref.analysis.asyncio_api import ScopeVisitor  # noqa: E402
from flake8_taskref.analysis.shortcut import SPAWN_TOKENS, HotLines, holds_word  # noqa: E402

BENCH_DIR = REPO_ROOT / ".bench"
CORPUS_DIR = BENCH_DIR / "corpus"
VENV_DIR = BENCH_DIR / "venvs"
SUBSET_DIR = BENCH_DIR / "flake8-subset"

# Whole-flake8 runs: the same flake8 in all three venvs.
FLAKE8 = "flake8==7.5.0"
FLAKE8_ASYNC = "flake8-async==26.8.1"
FLAKE8_PLUGIN_UTILS = "flake8-plugin-utils==1.3.3"
SELECT = "E,W,F,TRF,ASYNC"
# to build this repository without build isolation (no index needed at install time)
BUILD_REQUIREMENTS = ("setuptools>=61", "wheel")
# flake8 -j 1 on the whole 1.26M-line corpus takes over two minutes a run without
# plugins, and flake8-async makes a run about 13 times as long; so the flake8 runs
# use every SUBSET_STEP-th file of the sorted corpus (386 files, 117,547 lines).
SUBSET_STEP = 10
# Extra plain/taskref run pairs after each plain/taskref/async round.
EXTRA_PAIRS = 3

SLOWEST_REMEASURE = 20  # slowest and longest files to re-time, best of 5
GROWTH_SIZES = (1_000, 10_000, 100_000)

# A second profile beside the broad corpus: the asyncio-heavy packages of issue 12
# (temporalio, also named there, is not in the pinned corpus), measured with the
# default rules and with every rule on (TRF006 selected), best of PROFILE_ROUNDS.
PROFILES: Dict[str, Tuple[str, ...]] = {
    "asyncio-heavy": ("aiohttp", "distributed", "redis", "textual"),
}
PROFILE_ROUNDS = 3

TARGETS = {
    "checker_over_parse": 0.03,
    # the asyncio-heavy profile with every rule on (issue 12)
    "profile_all_over_parse": 0.10,
    "profile_slowest_ms": 20.0,
    "flake8_added_pct": 1.0,
    "added_vs_async": 0.2,
    "slowest_file_ms": 20.0,
    # ms per 1k lines at 100k lines, over the same at 1k lines
    "growth_factor": 1.5,
}


# Options grew a ``collections`` flag (TRF006 selected); follow whichever API the
# measured code has.
_BUILD_TAKES_COLLECTIONS = "collections" in inspect.signature(Options.build).parameters
_BUILD_TAKES_WAITS = "waits" in inspect.signature(Options.build).parameters


def plugin_options() -> Options:
    """The options the benchmarks have measured as a default flake8 run since TRF006
    was added: TRF006 off; TRF008 (opt-in since) on, as in every earlier measurement;
    TRF010 (opt-in, 2026-12-07) off, so that counts stay comparable with the history."""
    if _BUILD_TAKES_WAITS:
        return Options.build(collections=False, waits=False)  # type: ignore[call-arg, unused-ignore]
    if _BUILD_TAKES_COLLECTIONS:
        return Options.build(collections=False)  # type: ignore[call-arg, unused-ignore]
    return Options.build()


def all_options() -> Options:
    """Every rule on (TRF006 included): the full analysis."""
    return Options.build()


def flake8_lines(text: str) -> List[str]:
    """The lines flake8 hands a plugin: read with universal newlines, each ending
    in "\\n" (but maybe the last)."""
    return io.StringIO(text, newline=None).readlines()


def plugin_check(tree: ast.AST, lines: Sequence[str], options: Options) -> List[Tuple[int, int, str, str]]:
    """What flake8 gets from the plugin for one file: ``TaskRefPlugin.run`` with
    these options (the text shortcut on the joined lines, then the analysis), as
    (line, column, code, message).  The plugin's project is an empty folder
    without a cache: each file is checked alone, as before the project view,
    with the view's own costs (this process's run would otherwise take the
    spawner names of the repository it runs in, its test projects'
    ``start``, ``dispatch``, ``submit``, for the corpus's words)."""
    TaskRefPlugin.config = options
    TaskRefPlugin.project = (ProjectSettings(str(_EMPTY_PROJECT)), ())
    found = []
    for line, col, text, _ in TaskRefPlugin(tree, lines).run():
        code, _, message = text.partition(" ")
        found.append((line, col, code, message))
    return found


_EMPTY_PROJECT = Path(tempfile.mkdtemp(prefix="taskref-bench-project-"))
atexit.register(shutil.rmtree, _EMPTY_PROJECT, True)  # each import made one and left it


# --------------------------------------------------------------------- corpus
class Source:
    __slots__ = ("path", "rel", "text", "lines", "nlines")

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.rel = path.relative_to(CORPUS_DIR).as_posix()
        self.text = text
        self.lines = flake8_lines(text)  # the plugin joins them
        self.nlines = len(self.lines)


def _decode(data: bytes) -> str:
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding)


def read_corpus(files: Sequence[Path]) -> Tuple[List[Source], List[Tuple[str, str]]]:
    sources: List[Source] = []
    unreadable: List[Tuple[str, str]] = []
    for path in files:
        try:
            sources.append(Source(path, _decode(path.read_bytes())))
        except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
            unreadable.append((path.relative_to(CORPUS_DIR).as_posix(), f"{type(exc).__name__}: {exc}"))
    return sources, unreadable


def _finding(rel: str, err: Any) -> Tuple[str, int, int, str, str]:
    return (rel, err.lineno, err.col_offset, err.code, err.message)


# --------------------------------------------------------------- main passes
def corpus_pass(sources: List[Source], options: Options, full_options: Options) -> Dict[str, Any]:
    """Two runs over the corpus, each file parsed and then checked, as flake8 does.

    Run A times ``ast.parse`` and the checker as the plugin runs it; run B times
    ``analyse`` on every tree.  Keeping them apart keeps the garbage of one
    checker mode from triggering collections that the other is charged for.
    """
    t_parse = t_plugin = t_full = 0.0
    c_parse = c_plugin = c_full = 0.0  # CPU time (process_time): less sensitive to load
    cpu = time.process_time
    n_parsed = n_spawn = 0
    lines_parsed = lines_spawn = 0
    unparsable: List[Tuple[str, str]] = []
    crashes: List[Dict[str, str]] = []
    full_findings: List[Tuple[str, int, int, str, str]] = []
    plugin_findings: List[Tuple[str, int, int, str, str]] = []
    per_file: List[Tuple[float, str]] = []
    per_file_plugin: Dict[str, float] = {}
    clock = time.perf_counter
    parsed: List[Source] = []

    # Run A: parse, then the plugin's own path (shortcut on the joined lines).
    for src in sources:
        c0 = cpu()
        t0 = clock()
        try:
            tree = ast.parse(src.text, src.rel)
        except (SyntaxError, ValueError) as exc:
            unparsable.append((src.rel, f"{type(exc).__name__}: {exc}"))
            continue
        t1 = clock()
        c1 = cpu()
        found: List[Tuple[int, int, str, str]] = []
        try:
            found = plugin_check(tree, src.lines, options)
        except Exception:  # reported by run B, which sees every file
            pass
        t2 = clock()
        c2 = cpu()
        spawn = may_spawn("".join(src.lines), options)  # for the count, not timed
        t_parse += t1 - t0
        t_plugin += t2 - t1
        c_parse += c1 - c0
        c_plugin += c2 - c1
        n_parsed += 1
        lines_parsed += src.nlines
        if spawn:
            n_spawn += 1
            lines_spawn += src.nlines
        per_file_plugin[src.rel] = t2 - t1
        plugin_findings.extend((src.rel, *f) for f in found)
        parsed.append(src)
        del tree

    # Run B: parse (not timed), then analyse on every tree.
    for src in parsed:
        tree = ast.parse(src.text, src.rel)
        errors = []
        c0 = cpu()
        t0 = clock()
        try:
            errors = analyse(tree, full_options)
        except Exception:
            crashes.append({"path": src.rel, "traceback": traceback.format_exc()})
        dt = clock() - t0
        c_full += cpu() - c0
        t_full += dt
        per_file.append((dt, src.rel))
        full_findings.extend(_finding(src.rel, e) for e in errors)
        del tree

    per_file.sort(reverse=True)
    return {
        "files_parsed": n_parsed,
        "lines_parsed": lines_parsed,
        "files_may_spawn": n_spawn,
        "lines_may_spawn": lines_spawn,
        "unparsable": unparsable,
        "parse_s": t_parse,
        "checker_s": t_plugin,
        "checker_full_s": t_full,
        "checker_over_parse": t_plugin / t_parse,
        "checker_full_over_parse": t_full / t_parse,
        "cpu_parse_s": c_parse,
        "cpu_checker_s": c_plugin,
        "cpu_checker_full_s": c_full,
        "cpu_checker_over_parse": c_plugin / c_parse,
        "cpu_checker_full_over_parse": c_full / c_parse,
        "files_per_s": n_parsed / t_plugin if t_plugin else float("inf"),
        "files_per_s_full": n_parsed / t_full if t_full else float("inf"),
        "parse_files_per_s": n_parsed / t_parse,
        "crashes": crashes,
        "_findings": full_findings,
        "_plugin_findings": plugin_findings,
        "_per_file": per_file,
        "_per_file_plugin": per_file_plugin,
    }


def profile_pass(sources: List[Source], packages: Sequence[str]) -> Dict[str, Any]:
    """The checker as the plugin runs it on the files of ``packages``, with the
    default options and with every rule on: for each file the best of
    PROFILE_ROUNDS timings of ``ast.parse`` and of each checker (wall-clock and CPU),
    so that one timing inflated by other load or a GC run does not decide the
    slowest file.  With every rule on, the plugin's findings are compared with the
    full analysis (``analyse`` without the shortcut)."""
    chosen = [src for src in sources if src.rel.split("/", 1)[0] in packages]
    modes = {"default": plugin_options(), "all": all_options()}
    clock, cpu = time.perf_counter, time.process_time
    parse = {"wall": 0.0, "cpu": 0.0}
    totals = {mode: {"wall": 0.0, "cpu": 0.0} for mode in modes}
    per_file: Dict[str, List[Tuple[float, str]]] = {mode: [] for mode in modes}
    lost: List[List[Any]] = []
    extra: List[List[Any]] = []
    n_files = n_lines = 0
    for src in chosen:
        try:
            tree = ast.parse(src.text, src.rel)
        except (SyntaxError, ValueError):
            continue
        n_files += 1
        n_lines += src.nlines
        best_parse = [float("inf"), float("inf")]
        for _ in range(PROFILE_ROUNDS):
            w0, c0 = clock(), cpu()
            ast.parse(src.text, src.rel)
            best_parse = [min(best_parse[0], clock() - w0), min(best_parse[1], cpu() - c0)]
        parse["wall"] += best_parse[0]
        parse["cpu"] += best_parse[1]
        for mode, options in modes.items():
            best = [float("inf"), float("inf")]
            found: List[Tuple[int, int, str, str]] = []
            for _ in range(PROFILE_ROUNDS):
                w0, c0 = clock(), cpu()
                found = plugin_check(tree, src.lines, options)
                best = [min(best[0], clock() - w0), min(best[1], cpu() - c0)]
            totals[mode]["wall"] += best[0]
            totals[mode]["cpu"] += best[1]
            per_file[mode].append((best[0], src.rel))
            if mode == "all":
                full = {(e.lineno, e.col_offset, e.code, e.message) for e in analyse(tree, options)}
                lost += [[src.rel, *f] for f in sorted(full - set(found))]
                extra += [[src.rel, *f] for f in sorted(set(found) - full)]
        del tree
    result: Dict[str, Any] = {
        "packages": list(packages), "files": n_files, "lines": n_lines,
        "rounds": PROFILE_ROUNDS, "parse_s": parse["wall"], "cpu_parse_s": parse["cpu"],
        "findings_lost": lost, "findings_extra": extra,
    }
    for mode in modes:
        slow = sorted(per_file[mode], reverse=True)
        result[mode] = {
            "checker_s": totals[mode]["wall"],
            "checker_over_parse": totals[mode]["wall"] / parse["wall"],
            "cpu_checker_over_parse": totals[mode]["cpu"] / parse["cpu"],
            "slowest_ms": slow[0][0] * 1000.0 if slow else 0.0,
            "slowest_path": slow[0][1] if slow else "",
            "top": [[rel, dt * 1000.0] for dt, rel in slow[:5]],
        }
    return result


def _child(*args: str) -> Any:
    """Run a measurement in a fresh interpreter: the collector's state (what a
    long run has left in its generations) changes timings by 2x on big trees."""
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", *args],
                         stdout=subprocess.PIPE, check=True, text=True)
    return json.loads(out.stdout)


def _best(func: Any, repeats: int, gc_off: bool = False) -> float:
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        if gc_off:
            gc.disable()
        try:
            t0 = time.perf_counter()
            func()
            best = min(best, time.perf_counter() - t0)
        finally:
            gc.enable()
    return best


def _time_analysis(text: str, filename: str, repeats: int) -> Dict[str, Any]:
    options = all_options()
    user = plugin_options()
    tree = ast.parse(text, filename)
    findings = analyse(tree, options)
    lines = flake8_lines(text)
    result = {
        "lines": text.count("\n"),
        "may_spawn": may_spawn(text, user),
        "ms_plugin": _best(lambda: plugin_check(tree, lines, user), repeats) * 1000.0,
        "ms": _best(lambda: analyse(tree, options), repeats) * 1000.0,
        "ms_gc_off": _best(lambda: analyse(tree, options), max(1, repeats - 2), gc_off=True) * 1000.0,
        "parse_ms": _best(lambda: ast.parse(text, filename), max(1, repeats - 2)) * 1000.0,
        "findings": len(findings),
        "findings_by_code": dict(sorted(Counter(e.code for e in findings).items())),
    }
    return result


def child_main(args: Sequence[str]) -> int:
    kind, arg = args
    result: Any
    if kind == "slowest":
        result = []
        for rel in json.loads(Path(arg).read_text()):
            path = CORPUS_DIR / rel
            row = _time_analysis(_decode(path.read_bytes()), rel, 5)
            row["path"] = rel
            result.append(row)
    elif kind == "growth":
        result = _time_analysis(synthetic_module(int(arg)), "<synthetic>", 5 if int(arg) <= 10_000 else 3)
    else:
        raise SystemExit(f"unknown child measurement {kind!r}")
    json.dump(result, sys.stdout)
    return 0


def remeasure_slowest(per_file: List[Tuple[float, str]], sources: List[Source]) -> Dict[str, Any]:
    """Re-time candidate slow files in a fresh interpreter, best of 5 each.

    One timing of a small file can be inflated many times over by a collection
    of the cyclic GC that happens to fall into it, so the candidates are the
    SLOWEST_REMEASURE slowest files of run B, the SLOWEST_REMEASURE longest files,
    and every file over the target in run B.
    """
    limit = TARGETS["slowest_file_ms"] / 1000.0
    first = {rel: dt for dt, rel in per_file}
    longest = sorted(((s.nlines, s.rel) for s in sources if s.rel in first), reverse=True)
    candidates = {rel for _, rel in per_file[:SLOWEST_REMEASURE]}
    candidates |= {rel for _, rel in longest[:SLOWEST_REMEASURE]}
    candidates |= {rel for dt, rel in per_file if dt > limit}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(sorted(candidates), fh)
    try:
        rows: List[Dict[str, Any]] = _child("slowest", fh.name)
    finally:
        os.unlink(fh.name)
    for row in rows:
        row["first_run_ms"] = first[row["path"]] * 1000.0
    rows.sort(key=lambda r: -r["ms"])
    over = [r for r in rows if r["ms"] > TARGETS["slowest_file_ms"]]
    return {
        "slowest": rows[0] if rows else None,
        "top": rows[:SLOWEST_REMEASURE],
        "all": rows,
        "remeasured": len(rows),
        "files_over_target_first_run": sum(1 for dt, _ in per_file if dt > limit),
        "files_over_target": [{"path": r["path"], "lines": r["lines"], "ms": r["ms"],
                               "ms_plugin": r["ms_plugin"], "may_spawn": r["may_spawn"]} for r in over],
        "files_over_target_plugin": sum(1 for r in rows if r["ms_plugin"] > TARGETS["slowest_file_ms"]),
    }


def memory_pass(sources: List[Source], options: Options) -> Dict[str, Any]:
    """Peak memory allocated by analyse() on one file (tracemalloc), max over the corpus."""
    worst = (0, "")
    worst_spawn = (0, "")
    for src in sources:
        try:
            tree = ast.parse(src.text, src.rel)
        except (SyntaxError, ValueError):
            continue
        spawn = may_spawn(src.text, options)
        tracemalloc.start()
        try:
            analyse(tree, options)
        except Exception:
            pass
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        del tree
        if peak > worst[0]:
            worst = (peak, src.rel)
        if spawn and peak > worst_spawn[0]:
            worst_spawn = (peak, src.rel)
    return {
        "peak_mb": worst[0] / 2**20,
        "peak_path": worst[1],
        "peak_mb_may_spawn": worst_spawn[0] / 2**20,
        "peak_path_may_spawn": worst_spawn[1],
    }


def _outer_functions(body: Sequence[ast.stmt]) -> List[ast.AST]:
    """The functions defined outside any function (at module or class level, also
    under if/try/with): the ones the shortcut decides to enter or not."""
    found: List[ast.AST] = []
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(node)
        elif isinstance(node, ast.stmt):
            stack.extend(child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt))
            for handler in getattr(node, "handlers", ()):
                stack.extend(handler.body)
            for case in getattr(node, "cases", ()):
                stack.extend(case.body)
    return found


def _spawning_functions(tree: ast.AST, options: Options) -> Set[int]:
    """ids of the outer functions in which the analysis records a spawn or a shield
    (calls of the file's own functions, recorded as possible spawns until their
    summaries decide, are not counted: comparable with the figures before them)."""
    spawning: Set[int] = set()
    for scope in ScopeVisitor(options).run(tree).scopes:
        if scope.kind != Scope.FUNCTION:
            continue
        if (
            scope.shields
            or any(spawn.helper is None for spawn in scope.drops)
            or any(spawn.helper is None for group in scope.groups for spawn in group.spawns)
        ):
            while scope.parent is not None and scope.parent.kind == Scope.FUNCTION:
                scope = scope.parent
            spawning.add(id(scope.node))
    return spawning


def floor_pass(sources: List[Source], options: Options) -> Dict[str, Any]:
    """A lower estimate of what a checker that decides from the text first and then
    visits the trees of the functions that matter must pay, as fractions of
    ``ast.parse`` time of the same files in this pass: joining the lines; the file
    test (``may_spawn``) of the files it rejects; in the files it lets through, the
    lines that hold a word that can spawn (which is all a file test needs there, so
    its time on those files is not counted); and a bare ``ast.walk`` (no analysis
    at all) of the module- and class-level functions in which the analysis records a
    spawn (fewer than it must look at: spawns passed on as arguments, and those in
    headers and nested classes, are not counted).  For comparison: the same walk of
    all the functions whose text names a spawner."""
    clock = time.perf_counter
    t_parse = t_join = t_test = t_test_passed = t_locate = t_walk_naming = t_walk_spawning = 0.0
    n_naming = n_spawning = nodes_naming = nodes_spawning = 0
    for src in sources:
        t0 = clock()
        try:
            tree = ast.parse(src.text, src.rel)
        except (SyntaxError, ValueError):
            continue
        t1 = clock()
        text = "".join(src.lines)
        t2 = clock()
        spawn = may_spawn(text, options)
        t3 = clock()
        t_parse += t1 - t0
        t_join += t2 - t1
        if not spawn:
            t_test += t3 - t2
            continue
        t_test_passed += t3 - t2
        hot = HotLines(src.lines, options, text)
        t0 = clock()
        hot.spawn_lines()
        t_locate += clock() - t0
        spawning = _spawning_functions(tree, options)
        lines = text.split("\n")
        for func in _outer_functions(tree.body):
            segment = "\n".join(lines[func.lineno - 1:func.end_lineno])  # type: ignore[attr-defined]
            if not any(holds_word(segment, token) for token in SPAWN_TOKENS):
                continue
            t0 = clock()
            nodes = sum(1 for _ in ast.walk(func))
            dt = clock() - t0
            n_naming += 1
            nodes_naming += nodes
            t_walk_naming += dt
            if id(func) in spawning:
                n_spawning += 1
                nodes_spawning += nodes
                t_walk_spawning += dt
        del tree
    floor = t_join + t_test + t_locate + t_walk_spawning
    return {
        "parse_s": t_parse,
        "join_over_parse": t_join / t_parse,
        "file_test_over_parse": t_test / t_parse,
        "file_test_passed_over_parse": t_test_passed / t_parse,
        "locate_over_parse": t_locate / t_parse,
        "functions_naming_spawner": n_naming,
        "nodes_naming_spawner": nodes_naming,
        "walk_naming_over_parse": t_walk_naming / t_parse,
        "functions_spawning": n_spawning,
        "nodes_spawning": nodes_spawning,
        "walk_spawning_over_parse": t_walk_spawning / t_parse,
        "floor_over_parse": floor / t_parse,
    }


# ------------------------------------------------------------------- growth
_HEADER = '''\
"""Synthetic asyncio module for the growth benchmark."""
import asyncio
import logging

logger = logging.getLogger(__name__)
_background = set()

'''

_SNIPPET = '''\

async def fetch_{i}(session, url, timeout=10.0):
    async with session.get(url) as response:
        return await asyncio.wait_for(response.text(), timeout)


async def crawl_{i}(session, urls):
    tasks = [asyncio.create_task(fetch_{i}(session, u)) for u in urls]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    return [r for r in results if not isinstance(r, Exception)]


class Worker{i}:
    def __init__(self, loop, queue):
        self._loop = loop
        self._queue = queue
        self._tasks = set()

    def start(self):
        task = self._loop.create_task(self._run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self):
        while True:
            item = await self._queue.get()
            try:
                await asyncio.wait_for(self._handle(item), timeout=5)
            except asyncio.TimeoutError:
                logger.warning("timeout on %r", item)
            finally:
                self._queue.task_done()

    async def _handle(self, item):
        asyncio.create_task(notify_{i}(item))
        helper = asyncio.ensure_future(fetch_{i}(item.session, item.url))
        await asyncio.sleep(0)
        return helper.done()


async def notify_{i}(item):
    waiter = asyncio.ensure_future(asyncio.sleep(0.1))
    done, pending = await asyncio.wait([waiter], timeout=1)
    for t in pending:
        t.cancel()
    task = asyncio.create_task(fetch_{i}(item.session, item.url))
    _background.add(task)
    task.add_done_callback(_background.discard)
    return await asyncio.shield(task)

'''


def synthetic_module(target_lines: int) -> str:
    parts = [_HEADER]
    lines = _HEADER.count("\n")
    i = 0
    while lines < target_lines:
        chunk = _SNIPPET.format(i=i)
        parts.append(chunk)
        lines += chunk.count("\n")
        i += 1
    return "".join(parts)


def growth_pass() -> List[Dict[str, Any]]:
    """Synthetic modules of GROWTH_SIZES lines, each timed in a fresh interpreter."""
    rows = []
    for size in GROWTH_SIZES:
        row = _child("growth", str(size))
        row["target_lines"] = size
        row["ms_per_1k_lines"] = row["ms"] / (row["lines"] / 1000.0)
        row["ms_per_1k_lines_gc_off"] = row["ms_gc_off"] / (row["lines"] / 1000.0)
        row["parse_ms_per_1k_lines"] = row["parse_ms"] / (row["lines"] / 1000.0)
        row["checker_over_parse"] = row["ms"] / row["parse_ms"]
        rows.append(row)
    return rows


# ------------------------------------------------------------ flake8 runs
def _venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def _pip(venv: Path, *args: str) -> None:
    subprocess.run([str(_venv_python(venv)), "-m", "pip", "--disable-pip-version-check", "--quiet",
                    *args], check=True)


def _ensure_venv(name: str, requirements: Sequence[str]) -> Path:
    venv = VENV_DIR / name
    marker = venv / ".bench-requirements"
    wanted = "\n".join(requirements) + "\n"
    if not (marker.is_file() and marker.read_text() == wanted and _venv_python(venv).exists()):
        if venv.exists():
            shutil.rmtree(venv)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        if requirements:
            _pip(venv, "install", *requirements)
        marker.write_text(wanted)
    return venv


def setup_venvs(names: Sequence[str] = ("plain", "taskref", "async")) -> Dict[str, Path]:
    """The venvs of the whole flake8 runs (``names``: which), this repository's
    working tree installed in the taskref one."""
    requirements = {
        "plain": [FLAKE8],
        "taskref": [FLAKE8, FLAKE8_PLUGIN_UTILS, *BUILD_REQUIREMENTS],
        "async": [FLAKE8, FLAKE8_ASYNC],
    }
    venvs = {name: _ensure_venv(name, requirements[name]) for name in names}
    # Always measure the working tree as it is now: a non-editable install.
    build = Path(os.environ.get("TMPDIR", "/tmp")) / "flake8-taskref-bench-build"
    shutil.rmtree(build, ignore_errors=True)
    shutil.copytree(REPO_ROOT, build, ignore=shutil.ignore_patterns(
        ".bench", ".git", "*.egg-info", "build", "dist", "__pycache__", ".tox", ".mypy_cache",
        ".pytest_cache", ".hypothesis", ".venv*"))
    try:
        _pip(venvs["taskref"], "install", "--no-deps", "--force-reinstall", "--no-build-isolation",
             str(build))
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return venvs


def make_subset(files: Sequence[Path]) -> Tuple[List[Path], int]:
    """Every SUBSET_STEP-th corpus file, copied under .bench/flake8-subset/."""
    chosen = list(files)[::SUBSET_STEP]
    marker = SUBSET_DIR / ".subset"
    wanted = f"step={SUBSET_STEP}\n" + "\n".join(CORPUS) + "\n"
    if not (marker.is_file() and marker.read_text() == wanted):
        shutil.rmtree(SUBSET_DIR, ignore_errors=True)
        for path in chosen:
            out = SUBSET_DIR / path.relative_to(CORPUS_DIR)
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, out)
        marker.write_text(wanted)
    lines = sum(count_lines(p.read_bytes()) for p in chosen)
    return [p.relative_to(CORPUS_DIR) for p in chosen], lines


def _flake8_version(venv: Path) -> str:
    out = subprocess.run([str(venv / "bin" / "flake8"), "--version"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    return out.stdout.strip()


def _time_flake8(venv: Path, target: Optional[Path] = None) -> Tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one flake8 run."""
    where = SUBSET_DIR if target is None else target
    cmd = [str(venv / "bin" / "flake8"), "--isolated", "--select", SELECT, "-j", "1", str(where)]
    wall, cpu, _ = timed_run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=str(BENCH_DIR))
    return wall, cpu


def flake8_pass(files: Sequence[Path], runs: int, checker_s_subset: float) -> Dict[str, Any]:
    venvs = setup_venvs()
    subset, subset_lines = make_subset(files)
    versions = {name: _flake8_version(v) for name, v in venvs.items()}
    if "flake8-taskref" not in versions["taskref"] and "taskref" not in versions["taskref"]:
        raise RuntimeError(f"flake8-taskref is not loaded in the taskref venv: {versions['taskref']}")
    if "async" not in versions["async"]:
        raise RuntimeError(f"flake8-async is not loaded in the async venv: {versions['async']}")
    order = ("plain", "taskref", "async")
    # Warm-up: the disk cache (a whole plain run) and each venv's .pyc files.
    _time_flake8(venvs["plain"])
    for name in order:
        _time_flake8(venvs[name], SUBSET_DIR / subset[0])
    times: Dict[str, List[float]] = {name: [] for name in order}
    cpu: Dict[str, List[float]] = {name: [] for name in order}

    def one(name: str) -> None:
        wall, used = _time_flake8(venvs[name])
        times[name].append(wall)
        cpu[name].append(used)
        print(f"  flake8 {name}: {wall:.2f} s (cpu {used:.2f} s)", file=sys.stderr)

    for _ in range(runs):
        for name in order:
            one(name)
        # A flake8-async run costs as much as ten plain ones; our added cost is a
        # few percent, within the noise of three runs: add cheap plain/taskref pairs.
        for _ in range(EXTRA_PAIRS):
            one("plain")
            one("taskref")
    cpu_med = {name: statistics.median(ts) for name, ts in cpu.items()}
    med = {name: statistics.median(ts) for name, ts in times.items()}
    best = {name: min(ts) for name, ts in times.items()}
    ours = (med["taskref"] - med["plain"]) / med["plain"] * 100.0
    theirs = (med["async"] - med["plain"]) / med["plain"] * 100.0
    paired = statistics.median(t - p for t, p in zip(times["taskref"], times["plain"]))
    cpu_paired = statistics.median(t - p for t, p in zip(cpu["taskref"], cpu["plain"]))
    return {
        "subset_step": SUBSET_STEP,
        "subset_files": len(subset),
        "subset_lines": subset_lines,
        "select": SELECT,
        "versions": versions,
        "runs": runs,
        "times_s": times,
        "median_s": med,
        "min_s": best,
        "taskref_added_pct": ours,
        "async_added_pct": theirs,
        "taskref_over_async": ours / theirs if theirs else float("inf"),
        "taskref_added_pct_min": (best["taskref"] - best["plain"]) / best["plain"] * 100.0,
        "async_added_pct_min": (best["async"] - best["plain"]) / best["plain"] * 100.0,
        "taskref_added_pct_paired": paired / med["plain"] * 100.0,
        "cpu_s": cpu,
        "cpu_median_s": cpu_med,
        "cpu_taskref_added_pct": (cpu_med["taskref"] - cpu_med["plain"]) / cpu_med["plain"] * 100.0,
        "cpu_async_added_pct": (cpu_med["async"] - cpu_med["plain"]) / cpu_med["plain"] * 100.0,
        "cpu_taskref_added_pct_paired": cpu_paired / cpu_med["plain"] * 100.0,
        "extra_pairs_per_round": EXTRA_PAIRS,
        # In-process estimate: the checker's own time on the subset files (from the
        # corpus pass) over the plain flake8 run: free of run-to-run noise.
        "taskref_checker_s_subset": checker_s_subset,
        "taskref_estimated_pct": checker_s_subset / med["plain"] * 100.0,
    }


def code_state() -> Dict[str, Any]:
    """Which code was measured: the commit, and a hash of the package's sources
    (the working tree may differ from the commit)."""
    import hashlib

    digest = hashlib.sha256()
    package = REPO_ROOT / "flake8_taskref"
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    state: Dict[str, Any] = {"sources_sha256": digest.hexdigest()[:16]}
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "flake8_taskref"], cwd=REPO_ROOT,
                               text=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        state["commit"] = head.stdout.strip()
        state["package_modified"] = bool(dirty.stdout.strip())
    except OSError:
        pass
    return state


def _spread(locations: List[str], count: int) -> List[str]:
    """Up to ``count`` locations, taking one per package in turn (for review)."""
    by_package: Dict[str, List[str]] = {}
    for loc in locations:
        by_package.setdefault(loc.split("/", 1)[0], []).append(loc)
    queues = list(by_package.values())
    picked: List[str] = []
    while len(picked) < count and any(queues):
        for queue in queues:
            if queue and len(picked) < count:
                picked.append(queue.pop(0))
    return sorted(picked)


# ------------------------------------------------------------------ report
def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def report(res: Dict[str, Any]) -> str:
    c = res["corpus"]
    out = []
    out.append(f"flake8-taskref benchmark  {res['date']}  Python {res['python']}  "
               f"{res['cpus']} cores  {res['platform']}")
    out.append(f"code: {res['code']}")
    out.append(f"load average (1, 5, 15 min) at start {res['loadavg_start']}, at end {res['loadavg_end']}")
    out.append(f"corpus: {len(CORPUS)} packages, {c['files_total']} files, {c['lines_total']:,} lines; "
               f"parsed {c['files_parsed']} files ({c['lines_parsed']:,} lines), "
               f"{len(c['unparsable']) + len(c['unreadable'])} skipped")
    out.append(f"shortcut says may-spawn for {c['files_may_spawn']} files ({c['lines_may_spawn']:,} lines)")
    out.append("")
    rows = [
        ("ast.parse, all files", f"{c['parse_s']:.2f} s", f"{c['parse_files_per_s']:.0f} files/s"),
        ("checker as plugin (shortcut + analyse)", f"{c['checker_s']:.3f} s",
         f"{c['files_per_s']:.0f} files/s"),
        ("checker without shortcut", f"{c['checker_full_s']:.3f} s", f"{c['files_per_s_full']:.0f} files/s"),
        ("checker / parse", f"{c['checker_over_parse']:.4f}",
         f"target <= {TARGETS['checker_over_parse']}: {_verdict(res['targets']['checker_over_parse'])}"),
        ("checker without shortcut / parse", f"{c['checker_full_over_parse']:.4f}", ""),
        ("  same ratios in CPU time", f"{c['cpu_checker_over_parse']:.4f}",
         f"without shortcut {c['cpu_checker_full_over_parse']:.4f}"),
    ]
    fl = res.get("floor")
    if fl:
        rows.append(("floor of a text-first checker / parse", f"{fl['floor_over_parse']:.4f}",
                     f"join {fl['join_over_parse']:.4f} + file test of rejected files "
                     f"{fl['file_test_over_parse']:.4f} + lines of the spawner words in the others "
                     f"{fl['locate_over_parse']:.4f} (their file test: "
                     f"{fl['file_test_passed_over_parse']:.4f}) + "
                     f"bare ast.walk of the {fl['functions_spawning']} functions that spawn "
                     f"({fl['nodes_spawning']:,} nodes) {fl['walk_spawning_over_parse']:.4f}"))
        rows.append(("  walk of functions naming a spawner", f"{fl['walk_naming_over_parse']:.4f}",
                     f"{fl['functions_naming_spawner']} functions, {fl['nodes_naming_spawner']:,} nodes"))
    s = res["slowest"]["slowest"]
    if s:
        rows.append(("slowest file, full analysis", f"{s['ms']:.1f} ms",
                     f"{s['path']} ({s['lines']:,} lines); target <= {TARGETS['slowest_file_ms']:.0f} ms: "
                     f"{_verdict(res['targets']['slowest_file_ms'])}; gc off {s['ms_gc_off']:.1f} ms"))
        for row in res["slowest"]["top"][1:5]:
            rows.append(("  next", f"{row['ms']:.1f} ms", f"{row['path']} ({row['lines']:,} lines)"))
        by_plugin = max(res["slowest"]["all"], key=lambda r: r["ms_plugin"])
        rows.append(("slowest file, plugin's path", f"{by_plugin['ms_plugin']:.1f} ms",
                     f"{by_plugin['path']} ({by_plugin['lines']:,} lines)"))
    over = res["slowest"]["files_over_target"]
    rows.append(("files over 20 ms (best of 5)", str(len(over)),
                 f"{sum(1 for r in over if r['may_spawn'])} of them pass the file shortcut, "
                 f"{res['slowest']['files_over_target_plugin']} over on the plugin's path; "
                 f"{res['slowest']['files_over_target_first_run']} over in run B's single timing"))
    for name, prof in res.get("profiles", {}).items():
        rows.append((f"profile {name}: {', '.join(prof['packages'])}", "",
                     f"{prof['files']} files, {prof['lines']:,} lines; best of {prof['rounds']} per file"))
        for mode, label in (("default", "default rules"), ("all", "every rule on")):
            m = prof[mode]
            note = (f"CPU {m['cpu_checker_over_parse']:.4f}; "
                    f"slowest {m['slowest_ms']:.1f} ms ({m['slowest_path']})")
            if mode == "all":
                note += (f"; targets <= {TARGETS['profile_all_over_parse']} and "
                         f"<= {TARGETS['profile_slowest_ms']:.0f} ms: "
                         f"{_verdict(res['targets'][f'profile_{name}_all'])}")
            rows.append((f"  checker / parse, {label}", f"{m['checker_over_parse']:.4f}", note))
        rows.append(("  findings lost by the shortcut, every rule on", str(len(prof["findings_lost"])),
                     f"found only with it: {len(prof['findings_extra'])}"))
    m = res["memory"]
    rows.append(("peak memory of analyse, one file", f"{m['peak_mb']:.1f} MB", m["peak_path"]))
    rows.append(("  among may-spawn files", f"{m['peak_mb_may_spawn']:.1f} MB", m["peak_path_may_spawn"]))
    for g in res["growth"]:
        rows.append((f"synthetic {g['lines']:,} lines", f"{g['ms']:.1f} ms",
                     f"{g['ms_per_1k_lines']:.2f} ms/1k lines; gc off {g['ms_per_1k_lines_gc_off']:.2f}; "
                     f"parse {g['parse_ms_per_1k_lines']:.2f} ms/1k lines; "
                     f"checker/parse {g['checker_over_parse']:.2f}; {g['findings']} findings"))
    rows.append(("growth: ms/1k at 100k over at 1k", f"{res['growth_factor']:.2f}",
                 f"target <= {TARGETS['growth_factor']}: {_verdict(res['targets']['growth_factor'])}; "
                 f"gc off {res['growth_factor_gc_off']:.2f}"))
    f = res.get("flake8")
    if f:
        subset = f"{f['subset_files']} files, {f['subset_lines']:,} lines"
        rows.append((f"flake8 -j1 on subset ({subset})", "", ""))
        for name in ("plain", "taskref", "async"):
            ts = ", ".join(f"{t:.2f}" for t in f["times_s"][name])
            rows.append((f"  {name}", f"{f['median_s'][name]:.2f} s",
                         f"median of {len(f['times_s'][name])}: [{ts}]"))
        rows.append(("  flake8-taskref added", f"{f['taskref_added_pct']:+.2f} %",
                     f"target <= {TARGETS['flake8_added_pct']} %: "
                     f"{_verdict(res['targets']['flake8_added_pct'])}"
                     f"; paired {f['taskref_added_pct_paired']:+.2f} %, min-based "
                     f"{f['taskref_added_pct_min']:+.2f} %, in-process estimate "
                     f"{f['taskref_estimated_pct']:.2f} %"))
        rows.append(("  flake8-async added", f"{f['async_added_pct']:+.2f} %",
                     f"min-based {f['async_added_pct_min']:+.2f} %"))
        rows.append(("  added, CPU time (taskref, async)", f"{f['cpu_taskref_added_pct']:+.2f} %",
                     f"{f['cpu_async_added_pct']:+.2f} %; "
                     f"taskref paired {f['cpu_taskref_added_pct_paired']:+.2f} %"))
        rows.append(("  taskref added / async added", f"{f['taskref_over_async']:.3f}",
                     f"target <= {TARGETS['added_vs_async']}: {_verdict(res['targets']['added_vs_async'])}"))
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    for name, value, note in rows:
        out.append(f"{name:<{width}}  {value:>{vwidth}}  {note}".rstrip())
    out.append("")
    out.append(f"findings (analyse, all files): {res['findings_by_code']}")
    out.append("findings of the plugin's path (default options, TRF006 off): "
               f"{res['plugin_findings_by_code']}")
    out.append(f"findings lost by the shortcut: {len(res['shortcut_lost'])}, "
               f"found only with it: {len(res['shortcut_extra'])}")
    out.append(f"analyse crashed on {len(c['crashes'])} files")
    for crash in c["crashes"]:
        out.append(f"  {crash['path']}\n{crash['traceback']}")
    for rel, why in c["unparsable"] + c["unreadable"]:
        out.append(f"  skipped {rel}: {why}")
    return "\n".join(out)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="flake8-taskref performance benchmark")
    parser.add_argument("--json", type=Path, help="write all figures to this file")
    parser.add_argument("--runs", type=int, default=3,
                        help="rounds of the flake8 runs (median); each round runs plain, taskref "
                        f"and async once, then {EXTRA_PAIRS} more plain/taskref pairs")
    parser.add_argument("--skip-flake8", action="store_true", help="skip the whole-flake8 runs")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child_main(args.child)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    started = time.perf_counter()
    load_start = os.getloadavg()
    options = plugin_options()
    full_options = all_options()
    files = ensure_corpus(CORPUS_DIR)
    sources, unreadable = read_corpus(files)
    lines_total = sum(s.nlines for s in sources)
    print(f"corpus: {len(files)} files, {lines_total:,} lines; timing ...", file=sys.stderr)

    # The corpus text is held for the whole run (flake8 holds one file at a
    # time): move it out of the cyclic collector's sight before timing.
    gc.collect()
    gc.freeze()
    corpus = corpus_pass(sources, options, full_options)
    corpus["unreadable"] = unreadable
    corpus["files_total"] = len(files)
    corpus["lines_total"] = lines_total
    findings = corpus.pop("_findings")
    plugin_findings = corpus.pop("_plugin_findings")
    per_file = corpus.pop("_per_file")
    per_file_plugin = corpus.pop("_per_file_plugin")
    print("re-timing the slowest files ...", file=sys.stderr)
    slowest = remeasure_slowest(per_file, sources)
    profiles: Dict[str, Any] = {}
    for name, packages in PROFILES.items():
        print(f"profile {name} ...", file=sys.stderr)
        profiles[name] = profile_pass(sources, packages)
    print("floor pass ...", file=sys.stderr)
    floor = floor_pass(sources, options)
    print("memory pass ...", file=sys.stderr)
    memory = memory_pass(sources, full_options)
    print("growth ...", file=sys.stderr)
    growth = growth_pass()
    growth_factor = growth[-1]["ms_per_1k_lines"] / growth[0]["ms_per_1k_lines"]
    growth_factor_gc_off = growth[-1]["ms_per_1k_lines_gc_off"] / growth[0]["ms_per_1k_lines_gc_off"]

    by_code: Dict[str, List[str]] = {}
    for rel, line, _col, code, _msg in findings:
        by_code.setdefault(code, []).append(f"{rel}:{line}")
    # TRF006 and TRF010 are off in a default flake8 run (and not followed at all then): the
    # full analysis's findings of them are no findings the shortcut could lose.
    comparable = [f for f in findings if (f[3] != "TRF006" or getattr(options, "collections", True))
                  and (f[3] != "TRF010" or getattr(options, "waits", True))]
    lost = sorted(set(comparable) - set(plugin_findings))
    extra = sorted(set(plugin_findings) - set(comparable))

    res: Dict[str, Any] = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "code": code_state(),
        "corpus_pins": list(CORPUS),
        "corpus": corpus,
        "slowest": slowest,
        "profiles": profiles,
        "floor": floor,
        "memory": memory,
        "growth": growth,
        "growth_factor": growth_factor,
        "growth_factor_gc_off": growth_factor_gc_off,
        "findings_by_code": dict(sorted(Counter(code for *_x, code, _m in findings).items())),
        "findings": [list(f) for f in findings],
        "finding_examples": {code: _spread(locs, 10) for code, locs in sorted(by_code.items())},
        "shortcut_lost": [list(f) for f in lost],
        "shortcut_extra": [list(f) for f in extra],
        "plugin_findings_by_code": dict(sorted(Counter(f[3] for f in plugin_findings).items())),
        "targets": {},
    }
    t = res["targets"]
    t["checker_over_parse"] = corpus["checker_over_parse"] <= TARGETS["checker_over_parse"]
    t["slowest_file_ms"] = bool(slowest["slowest"]) and slowest["slowest"]["ms"] <= TARGETS["slowest_file_ms"]
    t["growth_factor"] = growth_factor <= TARGETS["growth_factor"]
    for name, prof in profiles.items():
        t[f"profile_{name}_all"] = (
            prof["all"]["checker_over_parse"] <= TARGETS["profile_all_over_parse"]
            and prof["all"]["slowest_ms"] <= TARGETS["profile_slowest_ms"]
            and not prof["findings_lost"]
        )

    if not args.skip_flake8:
        print("flake8 runs ...", file=sys.stderr)
        subset_step_files = files[::SUBSET_STEP]
        checker_subset = sum(per_file_plugin.get(p.relative_to(CORPUS_DIR).as_posix(), 0.0)
                             for p in subset_step_files)
        fl = flake8_pass(files, args.runs, checker_subset)
        res["flake8"] = fl
        t["flake8_added_pct"] = fl["taskref_added_pct"] <= TARGETS["flake8_added_pct"]
        t["added_vs_async"] = fl["taskref_over_async"] <= TARGETS["added_vs_async"]
    res["target_values"] = TARGETS
    res["elapsed_s"] = time.perf_counter() - started
    res["loadavg_start"] = load_start
    res["loadavg_end"] = os.getloadavg()

    print(report(res))
    print(f"\n(benchmark took {res['elapsed_s']:.0f} s)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
