"""Real asyncio libraries' own test suites with and without ``pytest --taskref-gc`` (issue 18).

    python benchmarks/real_suites.py [--rounds 3] [--suite NAME ...] [--extra ARG ...]

Downloads the pinned sdists below into ``.bench/real-suites/`` on the first run
(``pip download --no-deps --no-binary :all:``; their code is never committed)
and runs each suite's ``tests/`` from its unpacked folder, in fresh pytest
processes of this interpreter, alternating without and with ``--taskref-gc``,
``--rounds`` times.  The libraries and their test dependencies must be
installed in this interpreter::

    pip install pytest-asyncio pytest-timeout aiohttp pytest-aiohttp packaging
    pip install --no-deps .bench/real-suites/*/   # after a first run downloaded them

Reported for each suite and side: the outcomes (they must be the same), and the
medians of wall time, CPU time (user + system of the child) and peak memory
(the child's ``ru_maxrss``), with the ratio with/without.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
WHERE = ROOT / ".bench" / "real-suites"

# name: (pinned requirement, pytest arguments run from the unpacked folder)
SUITES: Dict[str, Tuple[str, Tuple[str, ...]]] = {
    # its pytest configuration is not in the sdist: the repository runs in auto mode
    "aiojobs": ("aiojobs==1.4.0", ("-o", "asyncio_mode=auto", "tests")),
    # test_benchmarks.py needs pytest-codspeed's fixture
    "janus": ("janus==2.0.0", ("--ignore=tests/test_benchmarks.py", "tests")),
    "async-lru": ("async-lru==2.4.0", ("-o", "asyncio_default_fixture_loop_scope=function", "tests")),
    "asgiref": ("asgiref==3.13.0", ("tests",)),
}
# the projects' addopts ask for coverage plugins these runs do not need
COMMON = ("-q", "-rfE", "-p", "no:cacheprovider", "-o", "addopts=")


def unpacked(requirement: str) -> Path:
    """The sdist's folder, downloaded and unpacked on the first call."""
    WHERE.mkdir(parents=True, exist_ok=True)
    name, _, version = requirement.partition("==")
    stem = f"{name.replace('-', '_')}-{version}"
    for candidate in (WHERE / stem, WHERE / f"{name}-{version}"):
        if candidate.is_dir():
            return candidate
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-q",
         requirement, "-d", str(WHERE)],
        check=True,
    )
    archive = next(path for path in WHERE.glob("*.tar.gz") if path.name.lower().startswith(
        (stem.lower(), f"{name}-{version}".lower())))
    with tarfile.open(archive) as tar:
        tar.extractall(WHERE)  # noqa: S202 - a pinned sdist from PyPI
    return next(path for path in (WHERE / stem, WHERE / f"{name}-{version}") if path.is_dir())


def run(folder: Path, args: Sequence[str]) -> Tuple[float, float, int, str]:
    """Wall and CPU time, peak memory (KB on Linux) and the summary line of one pytest run."""
    command = [sys.executable, "-m", "pytest", *COMMON, *args]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)  # this child's own usage, its peak memory too
    child.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - start
    lines = [line for line in output.splitlines() if re.search(r"\d+ (passed|failed|error)", line)]
    summary = lines[-1] if lines else f"exit {child.returncode}: {output[-300:]}"
    summary = re.sub(r" in [\d.]+s.*", "", summary.strip("= "))
    failures = [line.split(" - ")[0] for line in output.splitlines()
                if line.startswith(("FAILED ", "ERROR "))]
    if failures:
        summary += " (" + ", ".join(failures) + ")"
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, summary


Run = Tuple[float, float, int, str]  # wall, CPU, peak memory, summary


def compare(folder: Path, args: Sequence[str], rounds: int, extra: Sequence[str]) -> Dict[str, List[Run]]:
    runs: Dict[str, List[Run]] = {"off": [], "on": []}
    for _ in range(rounds):
        runs["off"].append(run(folder, args))
        runs["on"].append(run(folder, [*args, "--taskref-gc", *extra]))
    return runs


def show(name: str, runs: Dict[str, List[Run]]) -> None:
    medians = {
        side: [statistics.median(run[index] for run in values) for index in range(3)]
        for side, values in runs.items()
    }
    off, on = medians["off"], medians["on"]
    outcomes = {side: sorted({run[3] for run in values}) for side, values in runs.items()}
    print(f"{name}: without [{'; '.join(outcomes['off'])}], with [{'; '.join(outcomes['on'])}]")
    for index, (what, unit) in enumerate((("wall", "s"), ("cpu", "s"), ("peak memory", "MB"))):
        scale = 1024 if unit == "MB" else 1
        print(f"  {what:>11}: {off[index] / scale:7.2f} {unit} -> {on[index] / scale:7.2f} {unit}"
              f"  {100 * (on[index] / off[index] - 1):+.1f} %")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--suite", action="append", choices=sorted(SUITES), help="default: all")
    parser.add_argument("--extra", action="append", default=[],
                        help="another pytest argument for the side with the flag (e.g. --taskref-gc=warn)")
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, {args.rounds} rounds")
    for name in args.suite or sorted(SUITES):
        requirement, pytest_args = SUITES[name]
        show(f"{name} ({requirement})", compare(unpacked(requirement), pytest_args, args.rounds, args.extra))
    return 0


if __name__ == "__main__":
    sys.exit(main())
