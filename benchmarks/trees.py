"""The ``flake8-taskref`` command against ``ruff check --select RUF006`` on
big trees (issue 31): each tree run from its own folder, both with no cache,
and both warm (nothing changed since the run before), alternating in each
round; medians of wall and CPU seconds (the process and its children).

    python benchmarks/trees.py FOLDER [FOLDER ...] [--runs 5] [--warm] [--command PATH] [--ruff PATH]
                               [--baseline PATH]

``--command``: the ``flake8-taskref`` to time (default: the one beside this
Python); ``--warm``: the warm runs too; ``--baseline``: another ``flake8-taskref`` (the
code before a change, installed elsewhere) run beside it in each round, its
output the same.  Each folder must be a project (a
``pyproject.toml`` or the like at its top), so that the command keeps a cache
there; the command's output must be the same in every run of a tree.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import timed_run  # noqa: E402

ENV = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


def _run(argv: Sequence[str], folder: Path) -> Tuple[float, float, str]:
    wall, cpu, proc = timed_run(argv, cwd=str(folder), capture_output=True, text=True, env=ENV)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{argv} in {folder}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    return wall, cpu, proc.stdout


def tree(
    folder: Path, runs: int, warm: bool, command: str, ruff: str, baseline: Optional[str] = None,
) -> Dict[str, List[Tuple[float, float]]]:
    sides = {
        "ours, no cache": [command, "--no-cache", "."],
        "ruff, no cache": [ruff, "check", "--no-cache", "--select", "RUF006", "--isolated", "--quiet", "."],
    }
    if baseline is not None:
        sides["baseline, no cache"] = [baseline, "--no-cache", "."]
    if warm:
        sides["ours, warm"] = [command, "."]
        sides["ruff, warm"] = [ruff, "check", "--select", "RUF006", "--isolated", "--quiet", "."]
        if baseline is not None:
            sides["baseline, warm"] = [baseline, "."]
    times: Dict[str, List[Tuple[float, float]]] = {name: [] for name in sides}
    outputs: Dict[str, str] = {}
    for argv in sides.values():  # warm-up: the disk cache, the .pyc files, both caches made
        _run(argv, folder)
    names = list(sides)
    for rnd in range(runs):
        for name in names if rnd % 2 == 0 else names[::-1]:
            wall, cpu, out = _run(sides[name], folder)
            if not name.startswith("ruff"):
                if outputs.setdefault("ours", out) != out:
                    raise SystemExit(f"{folder}: the command's output differs ({name})")
            times[name].append((wall, cpu))
            print(f"  {folder.name} round {rnd + 1} {name}: {wall:.2f} s (cpu {cpu:.2f} s)", file=sys.stderr)
    print(f"{folder.name}: {sum(1 for _ in folder.rglob('*.py'))} files, "
          f"{len(outputs['ours'].splitlines())} lines printed by the command")
    for name, pairs in times.items():
        print(f"  {name}: {statistics.median(w for w, _ in pairs):.3f} s "
              f"(CPU {statistics.median(c for _, c in pairs):.3f} s)")
    for state in ("no cache", "warm"):
        for side in ("ours", "baseline"):
            if f"{side}, {state}" in times:
                ours = statistics.median(w for w, _ in times[f"{side}, {state}"])
                theirs = statistics.median(w for w, _ in times[f"ruff, {state}"])
                print(f"  {side} / Ruff, {state}: {ours / theirs:.2f}")
    return times


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warm", action="store_true")
    here = os.path.dirname(sys.executable)
    parser.add_argument("--command", default=shutil.which("flake8-taskref", path=here) or "flake8-taskref")
    parser.add_argument("--ruff", default=shutil.which("ruff", path=here) or "ruff")
    parser.add_argument("--baseline", default=None, metavar="PATH")
    args = parser.parse_args(argv)
    ruff_version = subprocess.run([args.ruff, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{datetime.now(timezone.utc).isoformat(timespec='minutes')}, load {os.getloadavg()[0]:.1f}, "
          f"{args.command}, {ruff_version}")
    for folder in args.folders:
        tree(folder.resolve(), args.runs, args.warm, args.command, args.ruff, args.baseline)
    print(f"load at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
