"""Cost of ``pytest --taskref-gc`` (issues 13 and 18).

    python benchmarks/bench_runtime.py [--rounds 5] [--tests 1000] [--suite both] [--own-suite]
    python benchmarks/bench_runtime.py --instructions 300 [--suite clean]

In one run, in fresh pytest processes started from this interpreter:

* a synthetic suite of ``--tests`` small async tests (pytest-asyncio, auto mode,
  20 tests a module; each test spawns a few tasks, keeps them in a set with the
  discard idiom and awaits them, as small service tests do; nothing is lost),
  run without and with ``--taskref-gc``, alternating, ``--rounds`` times;
* the same suite where each test also leaves a kept task waiting (cancelled by
  pytest-asyncio's runner at the loop's shutdown): the plugin collects then;
* with ``--debug``, a third side: ``--taskref-gc --taskref-gc-debug``;
* with ``--own-suite``: this project's suite (``tests/``, slow and network
  tests skipped as by default), once without and once with ``--taskref-gc``.

Reported: the median of each side, wall-clock (``time.perf_counter`` around the
whole process) and CPU (user + system of the child, less disturbed by other load
on a shared machine), and the ratio with/without, as a percent added; the same
for the best run of each side (other load only adds time), and the median of
the ratios of the runs taken one after the other (a run with the flag over the
run without it just before: a slow spell of the machine affects both).  The
suite must pass on both sides with the same counts (the plugin must not change
which tests pass); the counts are printed.

``--instructions N``: instead, the instructions each side executes, counted by
valgrind's callgrind (deterministic, unlike times on a shared machine; about
50 times slower), on suites of N tests, less those of a run that collects the
same suite and runs no test: instructions per test without and with the flag,
and of the whole processes.  The flag's one-time costs (its first full
collection, the patches) count per test in proportion to 1/N: take N of a few
hundred.  ``--suite clean`` or ``pending`` runs one of the two suites.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import timed_run  # noqa: E402

MODULE_HEAD = '''import asyncio

import pytest


async def work(n):
    await asyncio.sleep(0)
    return n * 2


@pytest.fixture
async def numbers():
    yield [1, 2, 3]

KEPT = set()
'''

TEST = '''
async def test_{i}(numbers):
    tasks = set()
    results = []
    for n in numbers:
        task = asyncio.create_task(work(n + {i}))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        results.append(task)
    assert [await task for task in results] == [2 * (n + {i}) for n in numbers]
{pending}'''

# The "pending" variant: each test leaves a kept task waiting, which the
# runner cancels at the loop's shutdown, so every test pays the collections.
PENDING = '''    waiter = asyncio.create_task(asyncio.Event().wait())
    KEPT.add(waiter)
    waiter.add_done_callback(KEPT.discard)
'''

INI = """[pytest]
asyncio_mode = auto
asyncio_default_fixture_loop_scope = function
"""


def write_suite(where: Path, tests: int, pending: bool = False, per_module: int = 20) -> None:
    """The synthetic suite: ``tests`` tests, ``per_module`` in each module."""
    (where / "pytest.ini").write_text(INI)
    for start in range(0, tests, per_module):
        body = MODULE_HEAD + "".join(
            TEST.format(i=i, pending=PENDING if pending else "")
            for i in range(start, min(start + per_module, tests))
        )
        (where / f"test_synthetic_{start // per_module:03d}.py").write_text(body)


def run_pytest(cwd: Path, extra: Sequence[str]) -> Tuple[float, float, str]:
    """Wall and CPU time of one pytest process, and its summary line."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    elapsed, cpu, done = timed_run(command, cwd=cwd, env=env, capture_output=True, text=True)
    lines = [line for line in done.stdout.splitlines() if re.search(r"\d+ (passed|failed|error)", line)]
    summary = lines[-1] if lines else f"exit {done.returncode}: {done.stdout[-500:]}{done.stderr[-500:]}"
    return elapsed, cpu, re.sub(r" in [\d.]+s.*", "", summary.strip("= "))


SIDES = {"off": [], "on": ["--taskref-gc"], "debug": ["--taskref-gc", "--taskref-gc-debug"]}
VARIANTS = {"clean": (False,), "pending": (True,), "both": (False, True)}  # --suite: pending?


def compare(
    cwd: Path, rounds: int, extra: Sequence[str] = (), sides: Sequence[str] = ("off", "on")
) -> Dict[str, Any]:
    """Alternate runs of each side (``off`` first); medians and ratios to ``off``."""
    times: Dict[str, List[float]] = {side: [] for side in sides}
    cpus: Dict[str, List[float]] = {side: [] for side in sides}
    summaries: Dict[str, str] = {}
    for _ in range(rounds):
        for side in sides:
            elapsed, cpu, summary = run_pytest(cwd, [*extra, *SIDES[side]])
            times[side].append(elapsed)
            cpus[side].append(cpu)
            summaries[side] = summary
    result: Dict[str, Any] = {"times": times, "cpus": cpus, "summaries": summaries}
    for kind, runs in (("wall", times), ("cpu", cpus)):
        off, best_off = statistics.median(runs["off"]), min(runs["off"])
        result[kind] = {
            side: {
                "median": statistics.median(runs[side]),
                "added_percent": 100.0 * (statistics.median(runs[side]) / off - 1.0),
                "best_added_percent": 100.0 * (min(runs[side]) / best_off - 1.0),
                "paired_added_percent": 100.0 * (statistics.median(
                    mine / theirs for mine, theirs in zip(runs[side], runs["off"])) - 1.0),
            }
            for side in sides
        }
    return result


def instructions(cwd: Path, extra: Sequence[str]) -> int:
    """Instructions executed by one pytest process, counted by callgrind."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    found = re.search(r"refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no count: {done.stderr[-500:]}")
    return int(found.group(1).replace(",", ""))


def count_instructions(tests: int, variants: Sequence[bool] = (False, True)) -> None:
    """Instructions per test without and with the flag (see the module docstring),
    and of the whole process (startup and collection included)."""
    for pending in variants:
        with tempfile.TemporaryDirectory() as tmp:
            where = Path(tmp)
            write_suite(where, tests, pending)
            base = instructions(where, ["-k", "no_test_has_this_name"])
            whole_off = instructions(where, [])
            whole_on = instructions(where, ["--taskref-gc"])
        off, on = (whole_off - base) / tests, (whole_on - base) / tests
        name = "synthetic suite" + (", a kept task pending at each test's end" if pending else "")
        print(f"{name}: {off / 1e6:.3f} M instructions a test without, {on / 1e6:.3f} M with: "
              f"{100.0 * (on / off - 1.0):+.1f} %; whole process {whole_off / 1e9:.3f} G without, "
              f"{whole_on / 1e9:.3f} G with: {100.0 * (whole_on / whole_off - 1.0):+.1f} %")


def show(name: str, result: Dict[str, Any]) -> None:
    print(f"{name}:")
    for kind, runs in (("wall", result["times"]), ("cpu", result["cpus"])):
        for side, figures in result[kind].items():
            each = ", ".join(f"{t:.2f}" for t in runs[side])
            line = f"  {kind:>4} {side:>5}: median {figures['median']:.2f} s  (runs: {each})"
            if side != "off":
                line += (f"  {figures['added_percent']:+.1f} % (best of each side: "
                         f"{figures['best_added_percent']:+.1f} %, paired runs: "
                         f"{figures['paired_added_percent']:+.1f} %)")
            print(line)
    print("  outcomes: " + ", ".join(f"{side} [{text}]" for side, text in result["summaries"].items()))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tests", type=int, default=1000)
    parser.add_argument("--own-suite", action="store_true", help="also run this project's suite")
    parser.add_argument("--debug", action="store_true",
                        help="also run the synthetic suites with --taskref-gc-debug")
    parser.add_argument("--instructions", type=int, metavar="N",
                        help="count instructions with valgrind on suites of N tests instead")
    parser.add_argument("--suite", choices=("clean", "pending", "both"), default="both",
                        help="which synthetic suites to run (default: both)")
    args = parser.parse_args(argv)
    if args.instructions:
        print(f"Python {sys.version.split()[0]}, {args.instructions} synthetic tests, instructions")
        count_instructions(args.instructions, VARIANTS[args.suite])
        return 0
    print(f"Python {sys.version.split()[0]}, {args.tests} synthetic tests, {args.rounds} rounds")
    sides = ("off", "on", "debug") if args.debug else ("off", "on")
    for pending in VARIANTS[args.suite]:
        with tempfile.TemporaryDirectory() as tmp:
            where = Path(tmp)
            write_suite(where, args.tests, pending)
            synthetic = compare(where, args.rounds, sides=sides)
        show("synthetic suite" + (", a kept task pending at each test's end" if pending else ""),
             synthetic)
    if args.own_suite:
        show("this project's suite", compare(ROOT, 1, ["tests"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
