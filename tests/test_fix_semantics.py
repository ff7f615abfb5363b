"""A differential test of what ``--fix`` does to a program (issue 17): a fix
changes one thing, whether the task can be collected.

Spawn statements are generated over a grammar of receivers (``asyncio``
functions, loop names, loop attributes, loop getters, chained calls,
subscripts), arguments (calls, awaits, a walrus, starred and keyword
arguments) and statement shapes (bare, a method or call around the spawn, a
local binding, a walrus statement), in contexts (functions, coroutines,
methods, nested blocks, ``try``, ``with``, decorated and nested functions, the
module itself).  Each program is fixed by the command, then the original and
the fixed program run, in one fresh interpreter, against a recording fake
``asyncio`` (``tests/data/semantics/asyncio.py``): every expression the program
evaluates records itself, and the spawns record their calls.  The two records
must be identical (the same calls, in the same order, the same number of
times), and in a fixed program every task must be in a set with the keep idiom
(``S.add(t)`` and ``t.add_done_callback(S.discard)``).  A program the command
does not fix must be left byte for byte, with a reason for each site.

The default run takes a deterministic sample of the grammar; ``TASKREF_SLOW=1``
runs all of it.
"""
from __future__ import annotations

import itertools
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

from tests.harness import DATA

FAKES = DATA / "semantics"

# receiver template ({coro}, {extra} for spawner keyword arguments), what it needs
RECEIVERS: Dict[str, Tuple[str, Tuple[str, ...]]] = {
    "create_task": ("asyncio.create_task({coro}{extra})", ()),
    "ensure_future": ("asyncio.ensure_future({coro})", ()),
    "loop_name": ("loop.create_task({coro}{extra})", ("loop",)),
    "loop_attr": ("self._loop.create_task({coro}{extra})", ("self",)),
    "running_loop": ("asyncio.get_running_loop().create_task({coro}{extra})", ()),
    "event_loop": ("asyncio.get_event_loop().create_task({coro})", ()),
    "subscript": ("self.loops[rec('i', 0)].create_task({coro})", ("self",)),
    "getter": ("get_loop(rec('which')).create_task({coro})", ()),
}
# the coroutine argument, what it needs
ARGS: Dict[str, Tuple[str, Tuple[str, ...]]] = {
    "call": ("job()", ()),
    "evaluated": ("job(rec('a'), k=rec('k'))", ()),
    "starred": ("job(*rec('args', (1, 2)))", ()),
    "await": ("job(await agetter(rec('x')))", ("async",)),
    "walrus": ("job((w := rec('w')))", ()),
    "attribute": ("job(box.value)", ()),
}
# keyword arguments of the spawner itself
EXTRAS = {"": "", "name": ", name=rec('n')"}
# the statement around the spawn: lines, with {spawn}
SHAPES: Dict[str, List[str]] = {
    "bare": ["{spawn}"],
    "commented": ["# keep this comment", "{spawn}  # and this one"],
    "done_callback": ["{spawn}.add_done_callback(report)"],
    "method": ["show({spawn}.get_name())"],
    "printed": ["print('spawned', {spawn})"],
    "printed_late": ["print(rec('before'), {spawn})"],
    "logged": ["log.warning('%s', {spawn})"],
    "binding": ["t = {spawn}", "t.add_done_callback(report)"],
    "walrus_statement": ["(t := {spawn})", "show(t.done())"],
    "throwaway": ["for _ in rec('loop', range(1)):", "    rec('body')", "_ = {spawn}"],
    "callback": ["LOOP.call_soon(lambda: {spawn})"],
}


def _indent(lines: List[str], depth: int) -> List[str]:
    return ["    " * depth + line for line in lines]


# context name -> (builder of the module body from the statement lines, what it provides)
def _function(body: List[str]) -> List[str]:
    return ["def work(loop):", *_indent(body, 1), "", "", "def main():", "    work(LOOP)"]


def _coroutine(body: List[str]) -> List[str]:
    return ["async def work(loop):", *_indent(body, 1), "", "", "def main():", "    drive(work(LOOP))"]


def _method(body: List[str]) -> List[str]:
    return [
        "class Service:", "    def __init__(self):", "        self._loop = LOOP",
        "        self.loops = [LOOP]", "", "    async def work(self, loop):", *_indent(body, 2), "", "",
        "def main():", "    drive(Service().work(LOOP))",
    ]


def _nested_blocks(body: List[str]) -> List[str]:
    return [
        "def work(loop):", "    for i in rec('range', range(2)):", "        if rec('test', i == 1):",
        *_indent(body, 3), "        else:", "            rec('else')", "", "",
        "def main():", "    work(LOOP)",
    ]


def _try(body: List[str]) -> List[str]:
    return [
        "async def work(loop):", "    try:", *_indent(body, 2), "    except KeyError:",
        "        rec('except')", "    finally:", "        rec('finally')", "", "",
        "def main():", "    drive(work(LOOP))",
    ]


def _with(body: List[str]) -> List[str]:
    return ["def work(loop):", "    with Context(rec('cm')):", *_indent(body, 2), "", "",
            "def main():", "    work(LOOP)"]


def _decorated(body: List[str]) -> List[str]:
    return ["@decorate(rec('deco'))", "def work(loop):", *_indent(body, 1), "", "",
            "def main():", "    work(LOOP)"]


def _nested_function(body: List[str]) -> List[str]:
    return ["def work(loop):", "    def inner():", *_indent(body, 2), "    inner()", "    rec('after')",
            "", "", "def main():", "    work(LOOP)"]


def _module(body: List[str]) -> List[str]:
    return ["loop = LOOP", *body, "", "", "def main():", "    rec('main')"]


CONTEXTS = {
    "function": (_function, ("loop",)),
    "coroutine": (_coroutine, ("loop", "async")),
    "method": (_method, ("loop", "self", "async")),
    "nested_blocks": (_nested_blocks, ("loop",)),
    "try": (_try, ("loop", "async")),
    "with": (_with, ("loop",)),
    "decorated": (_decorated, ("loop",)),
    "nested_function": (_nested_function, ("loop",)),
    "module": (_module, ("loop",)),
}
HEADER = [
    "import asyncio",
    "import logging",
    "",
    "from fakes import (LOOP, Context, agetter, box, decorate, drive, get_loop, job, rec, report,",
    "                   show)",
    "",
    "log = logging.getLogger('semantics')",
    "",
    "",
]


def programs() -> Dict[str, str]:
    """Every valid combination: name -> source."""
    found: Dict[str, str] = {}
    for (r, (receiver, r_needs)), (a, (arg, a_needs)), (e, extra), (s, shape), (c, (build, gives)) in (
        itertools.product(RECEIVERS.items(), ARGS.items(), EXTRAS.items(), SHAPES.items(), CONTEXTS.items())
    ):
        if not set(r_needs + a_needs) <= set(gives) or (extra and "{extra}" not in receiver):
            continue
        spawn = receiver.format(coro=arg, extra=extra)
        body = [line.format(spawn=spawn) for line in shape]
        found[f"p_{r}_{a}_{e or 'plain'}_{s}_{c}"] = "\n".join(HEADER + build(body)) + "\n"
    return found


def sample(every: Dict[str, str]) -> Dict[str, str]:
    """A deterministic sample: every value of every dimension is in it."""
    if os.environ.get("TASKREF_SLOW") == "1":
        return every
    names = sorted(every)
    return {name: every[name] for name in sorted(random.Random(17).sample(names, len(names) // 9))}


def test_the_grammar_is_covered_by_the_sample() -> None:
    chosen = sample(programs())
    assert len(chosen) >= 300
    for dimension in (RECEIVERS, ARGS, SHAPES, CONTEXTS):
        for key in dimension:
            assert any(f"_{key}_" in f"{name}_" for name in chosen), key


RUN = """
import contextlib, importlib, io, json, logging, sys
sys.path.insert(0, sys.argv[1])  # the fake asyncio and the fakes
import fakes


class RecordingLogger(logging.Logger):
    # reading a logging method records itself (it is an attribute read)

    def __getattribute__(self, name):
        if name in ("warning", "info"):
            fakes.record("getattr", "log." + name)
        return super().__getattribute__(name)


logging.setLoggerClass(RecordingLogger)
logging.getLogger("semantics")
logging.setLoggerClass(logging.Logger)
result = {}
for name in sys.argv[3:]:
    for side in ("original", "fixed"):
        fakes.reset()
        sys.path.insert(0, sys.argv[2] + "/" + side)
        output = io.StringIO()
        handler = logging.StreamHandler(output)
        logging.getLogger("semantics").addHandler(handler)
        try:
            with contextlib.redirect_stdout(output):
                module = importlib.import_module(name)
                module.main()
            error = None
        except Exception as exc:
            error = type(exc).__name__
        finally:
            logging.getLogger("semantics").removeHandler(handler)
            sys.path.pop(0)
            sys.modules.pop(name, None)
        result.setdefault(name, {})[side] = {"trace": fakes.TRACE[:], "output": output.getvalue(),
                                              "error": error, "unkept": fakes.unkept()}
print(json.dumps(result))
"""


def test_fix_changes_nothing_but_whether_the_task_is_kept(tmp_path: Path) -> None:
    chosen = sample(programs())
    original, fixed = tmp_path / "original", tmp_path / "fixed"
    original.mkdir()
    for name, source in chosen.items():
        (original / f"{name}.py").write_text(source, encoding="utf-8")
    shutil.copytree(original, fixed)
    script = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))
    assert script is not None
    proc = subprocess.run([script, "--isolated", "--fix", "--format", "json", "."], cwd=fixed,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr and "FixError" not in proc.stderr, proc.stderr
    notes: Dict[str, List[str]] = {}
    for row in proc.stderr.splitlines():
        path, _, rest = row.partition(":")
        if path.endswith(".py") and (" fixed " in rest or " not fixed " in rest):
            notes.setdefault(Path(path).stem, []).append(rest)
    run = subprocess.run([sys.executable, "-c", RUN, str(FAKES), str(tmp_path), *sorted(chosen)],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    counts = {"fixed": 0, "left": 0, "silent": 0}
    for name in sorted(chosen):
        before, after = results[name]["original"], results[name]["fixed"]
        assert after["trace"] == before["trace"], name
        assert after["output"] == before["output"], name  # what it printed and logged
        assert after["error"] == before["error"], name
        changed = (fixed / f"{name}.py").read_bytes() != (original / f"{name}.py").read_bytes()
        rows = notes.get(name, [])
        if changed:
            counts["fixed"] += 1
            assert rows and all(" fixed " in row and "not fixed" not in row for row in rows), (name, rows)
            assert after["unkept"] == 0, name  # every task is in a set with the keep idiom
            assert before["unkept"] > 0, name
        elif rows:
            counts["left"] += 1
            assert all(" not fixed " in row for row in rows), (name, rows)
        else:
            counts["silent"] += 1  # the analysis reports nothing here (an unknown receiver)
    # the sample exercises all three outcomes
    assert counts["fixed"] > 100 and counts["left"] > 20 and counts["silent"] > 10, counts
