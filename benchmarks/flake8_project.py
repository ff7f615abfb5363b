"""A whole ``flake8`` run on one project, from its own folder, as its users run
it (issue 31): flake8's default checks and its default ``-j``, with
flake8-taskref installed against the same flake8 without it, the cache cold
(``.taskref_cache`` deleted before the run) and warm (kept from the run
before, nothing changed).

    python benchmarks/flake8_project.py FOLDER [--runs 5] [--jobs N] [--baseline REV] [--json out.json]

The two installs are the venvs of ``bench.py`` (``.bench/venvs/plain``: flake8
alone; ``.bench/venvs/taskref``: the same flake8 with this working tree
installed, non-editable): the plugin is turned off by not being installed,
everything else equal (the same flake8, pycodestyle, pyflakes, Python).  Each
round runs, in an order that alternates from round to round, plain and taskref
with the cache deleted, then plain and taskref with the cache kept (each
install's cache made again by an unmeasured run first); the ratios
are medians of the paired differences of one run.  flake8's output without the
TRF lines must be the same in both venvs (checked every run).  ``--baseline
REV``: a third venv with the code of that commit (``.bench/venvs/baseline``),
run in each round beside the other two, its output the same as the working
tree's (the TRF lines included).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench import FLAKE8, FLAKE8_PLUGIN_UTILS, BUILD_REQUIREMENTS, REPO_ROOT, _ensure_venv, _pip  # noqa: E402
from bench import code_state, setup_venvs  # noqa: E402
from timing import timed_run  # noqa: E402

CACHE = ".taskref_cache"


def _run(venv: Path, folder: Path, jobs: Optional[str]) -> Tuple[float, float, List[str]]:
    cmd = [str(venv / "bin" / "flake8")] + (["-j", jobs] if jobs else [])
    wall, cpu, proc = timed_run(cmd, cwd=str(folder), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
    if proc.returncode not in (0, 1) or proc.stderr.strip():
        raise RuntimeError(f"{cmd} in {folder}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    return wall, cpu, sorted(proc.stdout.splitlines())


def install_baseline(rev: str) -> Path:
    """A venv with flake8 and the code of commit ``rev``, non-editable."""
    venv = _ensure_venv("baseline", [FLAKE8, FLAKE8_PLUGIN_UTILS, *BUILD_REQUIREMENTS])
    build = Path(tempfile.mkdtemp(prefix="taskref-flake8-baseline-"))
    try:
        archive = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", rev],
                                 capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(build)], input=archive.stdout, check=True)
        _pip(venv, "install", "--no-deps", "--force-reinstall", "--no-build-isolation", str(build))
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return venv


def measure(folder: Path, runs: int, jobs: Optional[str], baseline: Optional[str] = None) -> Dict[str, Any]:
    venvs = setup_venvs(("plain", "taskref"))
    names: Tuple[str, ...] = ("plain", "taskref")
    if baseline is not None:
        venvs["baseline"] = install_baseline(baseline)
        names += ("baseline",)
    cache = folder / CACHE
    times: Dict[str, List[float]] = {
        f"{name}_{state}": [] for name in names for state in ("cold", "warm")}
    cpus: Dict[str, List[float]] = {k: [] for k in times}
    findings = -1
    # warm-up: the disk cache and each venv's .pyc files
    shutil.rmtree(cache, ignore_errors=True)
    _, _, plain_out = _run(venvs["plain"], folder, jobs)
    _, _, ours_out = _run(venvs["taskref"], folder, jobs)
    for rnd in range(runs):
        for state in ("cold", "warm"):
            order = names if (rnd % 2 == 0) == (state == "cold") else names[::-1]
            if state == "warm":
                # each install's cache (its own namespace) made again, unmeasured:
                # the cold runs deleted the folder, the last of them kept only its own
                for name in names[1:]:
                    _run(venvs[name], folder, jobs)
            for name in order:
                if state == "cold":
                    shutil.rmtree(cache, ignore_errors=True)
                wall, cpu, out = _run(venvs[name], folder, jobs)
                if name == "baseline" and out != ours_out:
                    raise RuntimeError(f"the baseline's output differs from the working tree's ({state})")
                if name == "taskref":
                    if out != ours_out:
                        raise RuntimeError(f"the working tree's output differs between runs ({state})")
                    trf = [line for line in out if ": TRF" in line]
                if name != "plain":
                    out = [line for line in out if ": TRF" not in line]
                    if findings not in (-1, len(trf)):
                        raise RuntimeError(f"TRF findings differ between runs: {findings} and {len(trf)}")
                    findings = len(trf)
                if out != plain_out:
                    raise RuntimeError(f"flake8's own output differs ({name}, {state})")
                times[f"{name}_{state}"].append(wall)
                cpus[f"{name}_{state}"].append(cpu)
                print(f"  round {rnd + 1} {state:4} {name:8}: {wall:.2f} s (cpu {cpu:.2f} s)",
                      file=sys.stderr)
    shutil.rmtree(cache, ignore_errors=True)
    result: Dict[str, Any] = {
        "folder": str(folder), "runs": runs, "jobs": jobs or "flake8's default",
        "files": sum(1 for _ in folder.rglob("*.py")), "trf_findings": findings,
        "flake8_findings": len(plain_out), "times_s": times, "cpu_s": cpus,
        "load_before": os.getloadavg(),
    }
    for state in ("cold", "warm"):
        for name in names[1:]:
            plain, ours = times[f"plain_{state}"], times[f"{name}_{state}"]
            plain_cpu, ours_cpu = cpus[f"plain_{state}"], cpus[f"{name}_{state}"]
            base = statistics.median(plain)
            result[f"{name}_{state}"] = {
                "plain_median_s": base,
                "median_s": statistics.median(ours),
                "added_pct_paired": statistics.median(t - p for t, p in zip(ours, plain)) / base * 100.0,
                "added_pct_medians": (statistics.median(ours) - base) / base * 100.0,
                "cpu_added_pct_paired": statistics.median(t - p for t, p in zip(ours_cpu, plain_cpu))
                / statistics.median(plain_cpu) * 100.0,
            }
    return result


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", default=None, help="flake8's -j (default: flake8's own default)")
    parser.add_argument("--baseline", default=None, metavar="REV", help="also the code of this commit")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    folder = args.folder.resolve()
    start_load = os.getloadavg()
    res = measure(folder, args.runs, args.jobs, args.baseline)
    res["load_at_start"] = start_load
    res["load_at_end"] = os.getloadavg()
    res["when"] = datetime.now(timezone.utc).isoformat(timespec="minutes")
    res["code"] = code_state()
    print(f"{folder} ({res['files']} files, flake8 findings {res['flake8_findings']}, "
          f"TRF {res['trf_findings']}), -j {res['jobs']}, {args.runs} rounds, "
          f"load {start_load[0]:.1f} -> {res['load_at_end'][0]:.1f}")
    for state in ("cold", "warm"):
        for name in ("taskref", "baseline"):
            r = res.get(f"{name}_{state}")
            if r is None:
                continue
            label = "this tree" if name == "taskref" else f"baseline {args.baseline}"
            print(f"  cache {state}: flake8 {r['plain_median_s']:.2f} s, with taskref ({label}) "
                  f"{r['median_s']:.2f} s: added {r['added_pct_paired']:+.1f} % paired "
                  f"(medians {r['added_pct_medians']:+.1f} %, CPU {r['cpu_added_pct_paired']:+.1f} %)")
    if args.json:
        args.json.write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
