"""Instructions of the plugin's path over the corpus, counted by valgrind's callgrind.

A count does not move with the machine's load, so it can compare commits measured
hours or sessions apart (``docs/performance.md#issue-32-drift``)::

    python benchmarks/instructions.py [TREE ...]

Each TREE is a checkout of this repository (a ``git worktree`` of the commit to
measure, with the corpus of ``benchmarks/corpus.py`` reachable as its ``.bench``);
the default is this checkout.  For each, two runs under callgrind (with
``PYTHONHASHSEED=0``): one reads the corpus, takes the files the file test lets
through and parses them; the other also runs ``bench.plugin_check`` on each.  The
difference is the plugin's path.  Each tree's ``.pyc`` files are written by a run
outside callgrind first.  Needs ``valgrind``; a run takes a few minutes.
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List

HERE = Path(__file__).resolve().parent


def child(mode: str) -> None:
    """The measured run, in a tree's own interpreter path (``mode``: parse or run)."""
    import bench  # the tree's own benchmark module
    from flake8_taskref.analysis.api import may_spawn

    sources, _ = bench.read_corpus(sorted(bench.CORPUS_DIR.rglob("*.py")))
    options = bench.plugin_options()
    trees = []
    for source in sources:
        if may_spawn("".join(source.lines), options):
            try:
                trees.append((ast.parse(source.text), source.lines))
            except SyntaxError:
                continue
    if mode == "run":
        for tree, lines in trees:
            bench.plugin_check(tree, lines, options)
    print(len(trees), "files", file=sys.stderr)


def _command(tree: Path, mode: str) -> List[str]:
    code = (  # (this script last on the path: a tree older than it has no copy of its own)
        f"import sys; sys.path[:0] = [{str(tree)!r}, {str(tree / 'benchmarks')!r}]; "
        f"sys.path.append({str(HERE)!r}); import instructions; instructions.child({mode!r})"
    )
    return [sys.executable, "-c", code]


def count(tree: Path, mode: str) -> int:
    """Instructions of one run under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    subprocess.run(_command(tree, mode), cwd=tree, env=env, check=True, capture_output=True)  # .pyc
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *_command(tree, mode)],
            cwd=tree, env=env, check=True, capture_output=True, text=True,
        )
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if found is None:
        raise SystemExit(f"no count from callgrind:\n{proc.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: List[str]) -> int:
    trees = [Path(arg).resolve() for arg in argv] or [HERE.parent]
    for tree in trees:
        parse, run = count(tree, "parse"), count(tree, "run")
        print(f"{tree}: plugin's path {(run - parse) / 1e9:.3f} G instructions "
              f"(run {run / 1e9:.3f} G, parse only {parse / 1e9:.3f} G)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
