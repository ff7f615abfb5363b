"""The ``flake8-taskref`` command's speed against Ruff (issue 19), in one run.

    python benchmarks/speed.py [--runs 5] [--one-file-runs 21] [--baseline REV] [--json out.json]

Run it with Python 3.12 or later: Home Assistant's code uses 3.12 syntax (on an
older Python its files that pass the shortcut do not parse, and are E999).

1. *Trees*: the pinned corpus of ``corpus.py`` run as one tree (28 packages,
   1.26M lines), and Home Assistant 2026.2.3 (8,805 files, 1.3M lines in one
   package; the wheel, fetched with pip into ``.bench/`` and unpacked whole, its
   data files too, as a checkout has them).  On each, in alternation, ``runs``
   times: ``flake8-taskref --isolated --no-cache .`` (``-j`` auto; as every
   version before the cache ran), the same with its cache cold (the cache folder
   deleted before each run: the project's index made, every file that may spawn
   summarised and checked, all written) and warm (nothing changed since the last
   run), ``ruff check --isolated --no-cache --select RUF006 .`` and Ruff with its
   cache warm.  Reported: the medians of wall and CPU time (user + system of the
   process and its children), the ratios of the medians (no cache and cold
   against Ruff without its cache, warm against Ruff's warm run; target: at most
   1.0), the median of each round's ratio, and whether the three runs of ours
   print the same.
2. *Shortcut*: the share of files (and of bytes) the text shortcut passes over
   without parsing them, computed in this process.
3. *One file, as an editor runs it on save*: ``flake8-taskref FILE`` on the
   425-line ``aiohttp/web_runner.py`` in a small project (a setup.cfg with a
   [flake8] section, a pyproject.toml), against a bare ``python -c pass`` of the
   same interpreter, alternating, ``one-file-runs`` times, the project's cache
   warm (the run before made it).  Target: the median at most 4x the bare
   start-up.  Also Ruff on the same file.
4. *flake8 per file*: ``flake8 --select TRF`` on three packages of the corpus
   (every plugin of flake8's runs, as a user's flake8 does), the plugin's cache
   warm; with ``--baseline``, against that commit's plugin.  Target: at most
   1.10 (+10%).
5. *Imports*: what each module costs a run on that file (``-X importtime``, the
   best of 7 runs per module), the modules over 0.3 ms.
6. With ``--baseline REV``: the same runs with the code of that commit, and its
   output compared with ours on both trees (they must be the same).  With
   ``--with-check-syntax``: also ``flake8-taskref --check-syntax`` (every file parsed).

The command runs from a venv under ``.bench/venvs/`` with this working tree
installed (not editable: an editable install adds an import finder to every
start-up) and byte-compiled; ``--installed`` uses the current environment
instead.  Ruff is taken beside this Python or from PATH; without it the
comparisons with Ruff are skipped.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import ensure_corpus  # noqa: E402
from timing import timed_run  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / ".bench"
CORPUS_DIR = BENCH / "corpus"
HA_PIN = "homeassistant==2026.2.3"
HA_DIR = BENCH / "homeassistant-2026.2.3"
ONE_FILE = CORPUS_DIR / "aiohttp" / "aiohttp" / "web_runner.py"
FLAKE8 = "flake8==7.5.0"
FLAKE8_PLUGIN_UTILS = "flake8-plugin-utils==1.3.3"
BUILD = ("setuptools>=61", "wheel")
TREE_TARGET = 1.0
ONE_FILE_TARGET = 4.0


# ----------------------------------------------------------------- setup
def ensure_home_assistant() -> Path:
    """Home Assistant's wheel (pure Python, for Python >= 3.13.2), unpacked once."""
    marker = HA_DIR / ".complete"
    if marker.is_file():
        return HA_DIR
    downloads = BENCH / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                    "--python-version", "3.13.2", "--dest", str(downloads), HA_PIN], check=True)
    name, version = HA_PIN.split("==")
    [wheel] = downloads.glob(f"{name}-{version}-*.whl")
    tmp = Path(tempfile.mkdtemp(prefix=".ha-", dir=BENCH))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp)
    if HA_DIR.exists():
        shutil.rmtree(HA_DIR)
    os.replace(tmp, HA_DIR)
    marker.write_text(HA_PIN + "\n")
    return HA_DIR


def _pip(python: Path, *args: str) -> None:
    subprocess.run([str(python), "-m", "pip", "--disable-pip-version-check", "--quiet", *args], check=True)


def _venv(name: str) -> Path:
    """A venv with flake8 and flake8-plugin-utils (the package's dependencies)."""
    venv = BENCH / "venvs" / f"{name}-py{sys.version_info[0]}{sys.version_info[1]}"
    python = venv / "bin" / "python"
    marker = venv / ".bench-requirements"
    wanted = "\n".join([FLAKE8, FLAKE8_PLUGIN_UTILS, *BUILD]) + "\n"
    if not (marker.is_file() and marker.read_text() == wanted and python.exists()):
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        _pip(python, "install", FLAKE8, FLAKE8_PLUGIN_UTILS, *BUILD)
        marker.write_text(wanted)
    return venv


def _install(venv: Path, source: Path) -> None:
    python = venv / "bin" / "python"
    _pip(python, "install", "--no-deps", "--force-reinstall", "--no-build-isolation", str(source))
    site = subprocess.run([str(python), "-c", "import flake8_taskref, os; print(os.path.dirname("
                           "flake8_taskref.__file__))"], capture_output=True, text=True, check=True,
                          env=CHILD_ENV)
    subprocess.run([str(python), "-m", "compileall", "-q", site.stdout.strip()], check=True, env=CHILD_ENV)


def install_working_tree() -> Path:
    venv = _venv("speed")
    build = Path(tempfile.mkdtemp(prefix="taskref-speed-build-"))
    try:
        shutil.copytree(REPO, build / "src", ignore=shutil.ignore_patterns(
            ".bench", ".git", "*.egg-info", "build", "dist", "__pycache__", ".tox", ".mypy_cache",
            ".pytest_cache", ".hypothesis", ".venv*", "site"))
        _install(venv, build / "src")
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return venv


def install_baseline(rev: str) -> Path:
    venv = _venv("speed-baseline")
    build = Path(tempfile.mkdtemp(prefix="taskref-speed-baseline-"))
    try:
        archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(build)], input=archive.stdout, check=True)
        _install(venv, build)
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return venv


def find_ruff() -> Optional[str]:
    return shutil.which("ruff", path=os.path.dirname(sys.executable)) or shutil.which("ruff")


# ----------------------------------------------------------------- timing
# The commands run with their own installed code: a PYTHONPATH (this checkout,
# say, to run this script) would make every side import the same package.
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


def _timed(argv: Sequence[str], cwd: Path) -> Tuple[float, float, "subprocess.CompletedProcess[bytes]"]:
    """Wall and CPU seconds (user + system of the process and its children)."""
    return timed_run(argv, cwd=cwd, capture_output=True, env=CHILD_ENV)


def _check(name: str, proc: "subprocess.CompletedProcess[bytes]") -> None:
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{name} failed ({proc.returncode}):\n{proc.stderr.decode(errors='replace')}")


# the ratios reported, (ours, theirs): no cache and the cache cold against Ruff
# without its cache, the cache warm against Ruff's warm run
RATIOS = {"ratio": ("flake8-taskref", "ruff"), "cold_ratio": ("flake8-taskref, cache cold", "ruff"),
          "warm_ratio": ("flake8-taskref, cache warm", "ruff, cache warm")}


def compare_tree(
    root: Path, sides: Dict[str, List[str]], runs: int, cold: Optional[Dict[str, Path]] = None,
) -> Dict[str, Any]:
    """Each side in turn, ``runs`` rounds; the outputs of the taskref sides.
    ``cold``: the sides whose cache folder is deleted before each of their runs."""
    cold = cold or {}
    wall: Dict[str, List[float]] = {name: [] for name in sides}
    cpu: Dict[str, List[float]] = {name: [] for name in sides}
    outputs: Dict[str, bytes] = {}
    for name, argv in sides.items():  # warm the disk cache, Ruff's cache and the .pyc files
        _check(name, _timed(argv, root)[2])
    for _ in range(runs):
        for name, argv in sides.items():
            if name in cold:
                shutil.rmtree(cold[name], ignore_errors=True)
            seconds, used, proc = _timed(argv, root)
            _check(name, proc)
            wall[name].append(seconds)
            cpu[name].append(used)
            if not name.startswith("ruff"):
                outputs[name] = proc.stdout
    result: Dict[str, Any] = {"wall_s": wall, "cpu_s": cpu}
    for key, (ours_name, theirs_name) in RATIOS.items():
        if ours_name in sides and theirs_name in sides:
            result[key] = statistics.median(wall[ours_name]) / statistics.median(wall[theirs_name])
            result["paired_" + key] = statistics.median(
                ours / theirs for ours, theirs in zip(wall[ours_name], wall[theirs_name]))
    if "ruff" in sides:
        result["cpu_ratio"] = statistics.median(cpu["flake8-taskref"]) / statistics.median(cpu["ruff"])
    for name in ("flake8-taskref, cache cold", "flake8-taskref, cache warm"):
        if name in outputs:
            result.setdefault("same_cold_warm_none", True)
            result["same_cold_warm_none"] &= outputs[name] == outputs["flake8-taskref"]
    lines = outputs["flake8-taskref"].decode(errors="replace").splitlines()
    result["findings"] = len(lines)
    result["syntax_errors"] = sum(1 for line in lines if " E999 " in line)
    if "baseline" in outputs:
        result["same_as_baseline"] = outputs["baseline"] == outputs["flake8-taskref"]
        result["baseline_findings"] = len(outputs["baseline"].splitlines())
        result["ratio_to_baseline"] = (statistics.median(wall["flake8-taskref"])
                                       / statistics.median(wall["baseline"]))
    return result


def shortcut_share(root: Path) -> Dict[str, Any]:
    """How many files (and bytes) the text shortcut passes over, unparsed."""
    from flake8_taskref.command import runner
    from flake8_taskref.command.cli import build_parser
    from flake8_taskref.project.config import resolve

    here = os.getcwd()
    os.chdir(root)
    try:
        settings = resolve(build_parser().parse_args(["--isolated", "."]))
        files, _ = runner.discover(settings)
        parsed = parsed_bytes = total_bytes = 0
        parse_cpu = 0.0
        for path in files:
            _, source = runner._scan(path, settings)
            size = os.path.getsize(path)
            total_bytes += size
            if source is not None:
                parsed += 1
                parsed_bytes += size
                parse_cpu += _parse_cpu(source.text)
    finally:
        os.chdir(here)
    return {"files": len(files), "parsed": parsed, "skipped": len(files) - parsed,
            "skipped_share": 1 - parsed / len(files), "skipped_bytes_share": 1 - parsed_bytes / total_bytes,
            "parse_cpu_s": parse_cpu}


def _parse_cpu(text: str) -> float:
    """CPU seconds of ``ast.parse`` of one file, the collector paused (as the command parses)."""
    import ast
    import gc

    gc.disable()
    try:
        start = time.process_time()
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return time.process_time() - start
        used = time.process_time() - start
        del tree
        return used
    finally:
        gc.enable()


def _project_for_one_file(work: Path) -> Path:
    """A small project holding the file, as an editor opens it."""
    project = work / "project"
    (project / "app").mkdir(parents=True)
    shutil.copy(ONE_FILE, project / "app" / ONE_FILE.name)
    (project / "app" / "__init__.py").write_text("")
    (project / "setup.cfg").write_text("[flake8]\nmax-line-length = 100\nextend-ignore = E203\n")
    (project / "pyproject.toml").write_text(
        '[project]\nname = "app"\nversion = "1"\n\n[tool.black]\nline-length = 100\n')
    return project


def one_file(python: Path, ruff: Optional[str], runs: int, baseline: Optional[Path]) -> Dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="taskref-one-file-"))
    try:
        project = _project_for_one_file(work)
        target = str(Path("app") / ONE_FILE.name)
        sides: Dict[str, List[str]] = {
            "python -c pass": [str(python), "-c", "pass"],
            "flake8-taskref": [str(python.parent / "flake8-taskref"), target],
        }
        if ruff is not None:
            sides["ruff"] = [ruff, "check", "--no-cache", "--select", "RUF006", "--quiet", target]
        if baseline is not None:
            sides["baseline"] = [str(baseline / "bin" / "flake8-taskref"), target]
        times: Dict[str, List[float]] = {name: [] for name in sides}
        for name, argv in sides.items():
            _check(name, _timed(argv, project)[2])
        for _ in range(runs):
            for name, argv in sides.items():
                times[name].append(_timed(argv, project)[0])
        bare = statistics.median(times["python -c pass"])
        result: Dict[str, Any] = {
            "file": str(ONE_FILE.relative_to(CORPUS_DIR)),
            "lines": ONE_FILE.read_text(encoding="utf-8").count("\n"),
            "wall_s": times,
            "ratio_to_bare_python": statistics.median(times["flake8-taskref"]) / bare,
            "paired_ratio": statistics.median(
                ours / plain for ours, plain in zip(times["flake8-taskref"], times["python -c pass"])),
        }
        if baseline is not None:
            result["baseline_ratio_to_bare_python"] = statistics.median(times["baseline"]) / bare
        result["imports"] = import_costs(python, project, target)
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


FLAKE8_TREES = ("aiohttp", "websockets", "redis")  # of the corpus: 3 packages checked by flake8
FLAKE8_TARGET = 1.10


def flake8_per_file(python: Path, baseline: Optional[Path], runs: int) -> Dict[str, Any]:
    """``flake8 --select TRF`` (every plugin runs; flake8's own ``-j``) on three
    packages of the corpus, the plugin's cache warm, against the baseline's
    plugin (which has no cache): wall time per file."""
    roots = [str(CORPUS_DIR / name) for name in FLAKE8_TREES]
    files = sum(1 for root in roots for _ in Path(root).rglob("*.py"))
    work = Path(tempfile.mkdtemp(prefix="taskref-flake8-"))
    try:
        sides = {"flake8, cache warm": [str(python), "-m", "flake8", "--isolated", "--select", "TRF",
                                        "--taskref-cache-dir", str(work / "cache"), *roots]}
        if baseline is not None:
            sides["flake8, baseline"] = [str(baseline / "bin" / "python"), "-m", "flake8", "--isolated",
                                         "--select", "TRF", *roots]
        times: Dict[str, List[float]] = {name: [] for name in sides}
        outputs: Dict[str, bytes] = {}
        for name, argv in sides.items():
            _check(name, _timed(argv, work)[2])
        for _ in range(runs):
            for name, argv in sides.items():
                seconds, _, proc = _timed(argv, work)
                _check(name, proc)
                times[name].append(seconds)
                outputs[name] = proc.stdout
        result: Dict[str, Any] = {"trees": list(FLAKE8_TREES), "files": files, "wall_s": times,
                                  "findings": len(outputs["flake8, cache warm"].splitlines())}
        if baseline is not None:
            result["ratio_to_baseline"] = (statistics.median(times["flake8, cache warm"])
                                           / statistics.median(times["flake8, baseline"]))
            result["paired_ratio_to_baseline"] = statistics.median(
                ours / theirs for ours, theirs in zip(times["flake8, cache warm"], times["flake8, baseline"]))
            result["baseline_findings"] = len(outputs["flake8, baseline"].splitlines())
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


_IMPORT = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def import_costs(python: Path, project: Path, target: str, runs: int = 7) -> List[Dict[str, Any]]:
    """Per module imported by a run on one file: self and cumulative microseconds,
    the best of ``runs`` (-X importtime), in import order."""
    code = (f"from flake8_taskref.command.cli import main\ntry:\n    main([{target!r}])\n"
            "except SystemExit:\n    pass")
    best: Dict[Tuple[int, str], Tuple[int, int]] = {}
    order: List[Tuple[int, str]] = []
    for _ in range(runs):
        err = subprocess.run([str(python), "-X", "importtime", "-c", code], cwd=project, env=CHILD_ENV,
                             capture_output=True, text=True).stderr
        for line in err.splitlines():
            match = _IMPORT.match(line)
            if match is None:
                continue
            key = (len(match.group(3)) // 2, match.group(4))
            self_us, cumulative = int(match.group(1)), int(match.group(2))
            if key not in best:
                order.append(key)
                best[key] = (self_us, cumulative)
            else:
                best[key] = (min(best[key][0], self_us), min(best[key][1], cumulative))
    return [{"module": name, "depth": depth, "self_us": best[(depth, name)][0],
             "cumulative_us": best[(depth, name)][1]} for depth, name in order]


# ----------------------------------------------------------------- report
def _ms(values: List[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms"


def _s(values: List[float]) -> str:
    return f"{statistics.median(values):.2f} s"


def report(res: Dict[str, Any]) -> str:
    out = [f"Python {res['python']}, {res['cpus']} CPUs, load average {res['load_start']} at the start, "
           f"{res['load_end']} at the end; ruff: {res['ruff_version'] or 'not installed'}"]
    for label, tree in res["trees"].items():
        share = tree["shortcut"]
        out.append(f"{label}: {share['files']:,} files; the shortcut skips {share['skipped']:,} "
                   f"({share['skipped_share']:.1%} of the files, {share['skipped_bytes_share']:.1%} of the "
                   f"bytes), {share['parsed']:,} are parsed (ast.parse of those alone: "
                   f"{share['parse_cpu_s']:.2f} s of CPU in this process)")
        times = tree["times"]
        for name in times["wall_s"]:
            out.append(f"  {name:22s} wall {_s(times['wall_s'][name])}, CPU {_s(times['cpu_s'][name])}"
                       f" (median of {len(times['wall_s'][name])})")
        for key, (ours, theirs) in RATIOS.items():
            if key in times:
                cpu = f"; CPU {times['cpu_ratio']:.2f}" if key == "ratio" else ""
                out.append(f"  {ours} / {theirs}: {times[key]:.2f} "
                           f"(paired: {times['paired_' + key]:.2f}{cpu}); target <= {TREE_TARGET}")
        if "same_cold_warm_none" in times:
            out.append(f"  same output with the cache cold, warm and none: {times['same_cold_warm_none']}")
        out.append(f"  findings printed: {times['findings']} ({times['syntax_errors']} E999)")
        if "same_as_baseline" in times:
            out.append(f"  same output as the baseline: {times['same_as_baseline']} "
                       f"({times['baseline_findings']} lines); wall time / baseline's: "
                       f"{times['ratio_to_baseline']:.2f}")
    per_file = res.get("flake8")
    if per_file is not None:
        out.append(f"flake8 --select TRF on {', '.join(per_file['trees'])} ({per_file['files']} files, "
                   f"{per_file['findings']} findings):")
        for name, values in per_file["wall_s"].items():
            each = statistics.median(values) / per_file["files"] * 1000
            out.append(f"  {name:22s} {_s(values)}, {each:.1f} ms per file (median of {len(values)})")
        if "ratio_to_baseline" in per_file:
            out.append(f"  warm / baseline: {per_file['ratio_to_baseline']:.2f} (paired: "
                       f"{per_file['paired_ratio_to_baseline']:.2f}); target <= {FLAKE8_TARGET:.2f}; "
                       f"baseline findings {per_file['baseline_findings']}")
    one = res.get("one_file")
    if one is not None:
        out.append(f"one file on save ({one['file']}, {one['lines']} lines):")
        for name, values in one["wall_s"].items():
            out.append(f"  {name:22s} {_ms(values)} (median of {len(values)}; "
                       f"best {min(values) * 1000:.0f} ms)")
        out.append(f"  flake8-taskref / python -c pass: {one['ratio_to_bare_python']:.2f} (paired: "
                   f"{one['paired_ratio']:.2f}); target <= {ONE_FILE_TARGET}")
        if "baseline_ratio_to_bare_python" in one:
            out.append(f"  baseline / python -c pass: {one['baseline_ratio_to_bare_python']:.2f}")
        out.append("  imports of that run, best of 7 (self / cumulative, ms), those over 0.3 ms:")
        for row in one["imports"]:
            if row["cumulative_us"] >= 300:
                out.append(f"    {'  ' * row['depth']}{row['module']:{40 - 2 * row['depth']}s} "
                           f"{row['self_us'] / 1000:5.1f} {row['cumulative_us'] / 1000:6.1f}")
    return "\n".join(out)


def _load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--one-file-runs", type=int, default=21)
    parser.add_argument("--baseline", metavar="REV", help="also run the code of this commit")
    parser.add_argument("--installed", action="store_true",
                        help="run the flake8-taskref installed beside this Python (no venv)")
    parser.add_argument("--with-check-syntax", action="store_true",
                        help="also time flake8-taskref --check-syntax (every file parsed)")
    parser.add_argument("--skip-corpus", action="store_true")
    parser.add_argument("--skip-ha", action="store_true")
    parser.add_argument("--skip-one-file", action="store_true")
    parser.add_argument("--skip-flake8", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if sys.version_info < (3, 12) and not args.skip_ha:
        print("warning: Home Assistant needs Python 3.12+ to parse; its files that pass the shortcut "
              "will be E999 here", file=sys.stderr)
    python = Path(sys.executable) if args.installed else install_working_tree() / "bin" / "python"
    baseline = install_baseline(args.baseline) if args.baseline else None
    ruff = find_ruff()
    ruff_version = subprocess.run([ruff, "--version"], capture_output=True, text=True).stdout.strip() \
        if ruff else None
    res: Dict[str, Any] = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "load_start": _load(),
                           "ruff_version": ruff_version, "baseline": args.baseline, "trees": {}}
    trees: List[Tuple[str, Path]] = []
    if not args.skip_corpus:
        ensure_corpus(CORPUS_DIR)
        trees.append(("corpus (28 packages, one tree)", CORPUS_DIR))
    if not args.skip_ha:
        trees.append(("Home Assistant 2026.2.3", ensure_home_assistant()))
    for label, root in trees:
        taskref = str(python.parent / "flake8-taskref")
        caches = Path(tempfile.mkdtemp(prefix="taskref-cache-"))
        # "flake8-taskref": no cache (each file read and, where it may spawn,
        # analysed), as every earlier version ran and as the baseline runs
        sides: Dict[str, List[str]] = {
            "flake8-taskref": [taskref, "--isolated", "--no-cache", "."],
            "flake8-taskref, cache cold": [taskref, "--isolated", "--cache-dir", str(caches / "cold"), "."],
            "flake8-taskref, cache warm": [taskref, "--isolated", "--cache-dir", str(caches / "warm"), "."],
        }
        cold = {"flake8-taskref, cache cold": caches / "cold"}
        if ruff is not None:
            sides["ruff"] = [ruff, "check", "--isolated", "--no-cache", "--select", "RUF006", "--quiet",
                             "--exit-zero", "."]
            cache = Path(tempfile.mkdtemp(prefix="taskref-ruff-cache-"))
            sides["ruff, cache warm"] = [ruff, "check", "--isolated", "--cache-dir", str(cache), "--select",
                                         "RUF006", "--quiet", "--exit-zero", "."]
        if baseline is not None:
            sides["baseline"] = [str(baseline / "bin" / "flake8-taskref"), "--isolated", "."]
        if args.with_check_syntax:
            sides["--check-syntax"] = [str(python.parent / "flake8-taskref"), "--isolated",
                                       "--check-syntax", "."]
        res["trees"][label] = {"root": str(root), "shortcut": shortcut_share(root),
                               "times": compare_tree(root, sides, args.runs, cold)}
        shutil.rmtree(caches, ignore_errors=True)
        if ruff is not None:
            shutil.rmtree(cache, ignore_errors=True)
    if not args.skip_flake8:
        ensure_corpus(CORPUS_DIR)
        res["flake8"] = flake8_per_file(python, baseline, args.runs)
    if not args.skip_one_file:
        ensure_corpus(CORPUS_DIR)
        res["one_file"] = one_file(python, ruff, args.one_file_runs, baseline)
    res["load_end"] = _load()
    print(report(res))
    if args.json:
        args.json.write_text(json.dumps(res, indent=2))
    same = all(tree["times"].get("same_as_baseline", True) for tree in res["trees"].values())
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
