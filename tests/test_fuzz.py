"""Robustness fuzzing: the analysis must never raise, and must be deterministic.

Three sources of input:

* hypothesmith programs (``from_grammar`` and ``from_node``), as is and with
  asyncio spawns injected by the mutation engine below;
* mutants of real asyncio code (the fixtures, the shared cases, the inline
  snippets below and, with TASKREF_SLOW=1, the corpus files that spawn tasks);
* a programmatic expression ~3000 levels deep, through the flake8 entry point.

Sizes: 300 examples / mutants per test by default; TASKREF_SLOW=1 makes it
20,000 (override with TASKREF_FUZZ_EXAMPLES / TASKREF_FUZZ_MUTANTS).  The
mutation fuzz is seeded (TASKREF_FUZZ_SEED, default 20240601); a failure prints
the seed of the mutant, the seed file and the mutant's source, and
``TASKREF_FUZZ_ONLY=<mutant seed>`` replays exactly that mutant.
"""
from __future__ import annotations

import ast
import copy
import io
import keyword
import os
import random
import sys
import textwrap
import traceback
import warnings
from contextlib import redirect_stderr
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

import hypothesmith
from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.api import analyse
from flake8_taskref.plugin import TaskRefPlugin

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
DATA = TESTS / "data"
SHARED_CASES = Path(__file__).resolve().parent / "data" / "cases"
BENCHMARKS = REPO / "benchmarks"

SLOW = os.environ.get("TASKREF_SLOW") == "1"
EXAMPLES = int(os.environ.get("TASKREF_FUZZ_EXAMPLES", "20000" if SLOW else "300"))
# The injected-spawn variant costs as much per example as from_node (libcst's
# generator dominates), so the default suite keeps it smaller.
INJECTED_EXAMPLES = int(os.environ.get("TASKREF_FUZZ_INJECTED", str(EXAMPLES) if SLOW else "100"))
MUTANTS = int(os.environ.get("TASKREF_FUZZ_MUTANTS", "20000" if SLOW else "300"))
BASE_SEED = int(os.environ.get("TASKREF_FUZZ_SEED", "20240601"))
ONLY = os.environ.get("TASKREF_FUZZ_ONLY")
EQUIVALENCE = os.environ.get("TASKREF_FUZZ_EQUIVALENCE", "1") != "0"

Finding = Tuple[int, int, str, str]

OPTION_SETS: Tuple[Options, ...] = (
    Options.build(),
    Options.build(
        spawners=("myapp.tasks.spawn", "helpers.fire"),
        loop_names=("ioloop", "reactor"),
        timeouts=("async_timeout.timeout", "anyio.fail_after"),
    ),
)

HYPOTHESIS_SETTINGS = settings(
    max_examples=EXAMPLES,
    # hypothesmith's generators dominate the time; the "target" phase adds a third.
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    database=None,
    derandomize=not SLOW,
    print_blob=True,
)


# --------------------------------------------------------------------- helpers
def parse(source: str) -> Optional[ast.Module]:
    """The module, or None if the running interpreter cannot parse it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences and the like
            return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None


def flake8_lines(source: str) -> List[str]:
    """The lines flake8 hands to plugins: split at \\n, \\r\\n and \\r only
    (str.splitlines would also split at form feeds and U+2028, which the
    tokenizer does not count as line ends)."""
    return io.StringIO(source, newline=None).readlines()


def findings(tree: ast.AST, options: Options) -> List[Finding]:
    return [(e.lineno, e.col_offset, e.code, e.message) for e in analyse(tree, options)]


class Nondeterminism(AssertionError):
    """Two analyses of the same source disagree."""


class ShortcutDivergence(AssertionError):
    """The flake8 entry point (text shortcut) and the full analysis disagree."""


def check_source(source: str, options: Options) -> List[Finding]:
    """Analyse ``source`` twice from fresh parses and check the invariants:
    no exception, identical findings, and (unless TASKREF_FUZZ_EQUIVALENCE=0)
    the flake8 entry point -- text shortcut included -- reports exactly what the
    full analysis reports."""
    first_tree = parse(source)
    second_tree = parse(source)
    assert first_tree is not None and second_tree is not None
    first = findings(first_tree, options)
    second = findings(second_tree, options)
    if first != second:
        raise Nondeterminism(f"two analyses differ:\n{first}\n{second}")
    lines = flake8_lines(source)
    saved = TaskRefPlugin.config
    TaskRefPlugin.config = options
    try:  # the first tree again: the analysis must not have changed it
        via_plugin = [t[:3] for t in TaskRefPlugin(first_tree, lines, "fuzz.py").run()]
        again = [t[:3] for t in TaskRefPlugin(second_tree, lines, "fuzz.py").run()]
    finally:
        TaskRefPlugin.config = saved
    if via_plugin != again:
        raise Nondeterminism(f"two plugin runs differ:\n{via_plugin}\n{again}")
    if EQUIVALENCE:
        _same_via_plugin(via_plugin, first, options)
        if options.collections:
            # The plugin's default, TRF006 off, has other hot words: check it too.
            default = options._replace(collections=False)
            TaskRefPlugin.config = default
            try:
                via_default = [t[:3] for t in TaskRefPlugin(first_tree, lines, "fuzz.py").run()]
            finally:
                TaskRefPlugin.config = saved
            _same_via_plugin(via_default, findings(first_tree, default), default)
    return first


def _same_via_plugin(
    plugin_view: List[Tuple[int, int, str]], full: List[Finding], options: Options
) -> None:
    full_view = [(line, col, f"{code} {message}") for line, col, code, message in full]
    if plugin_view != full_view:
        raise ShortcutDivergence(
            f"flake8 entry point vs analyse(tree), collections={options.collections}:\n"
            f"  only via flake8: {sorted(set(plugin_view) - set(full_view))}\n"
            f"  only in analyse: {sorted(set(full_view) - set(plugin_view))}"
        )


# ------------------------------------------------------------- seed programs
INLINE_SEEDS: Dict[str, str] = {
    "inline_service": '''
        import asyncio
        from contextlib import suppress


        class Service:
            def __init__(self, loop):
                self.loop = loop
                self.tasks = set()
                self._runner = None

            def start(self):
                self._runner = asyncio.create_task(self.run())
                task = self.loop.create_task(self.tick())
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

            async def run(self):
                while True:
                    child = asyncio.create_task(self.tick())
                    try:
                        await asyncio.wait_for(self.step(), timeout=1)
                    except asyncio.TimeoutError:
                        child.cancel()
                        continue
                    await child

            async def tick(self):
                await asyncio.sleep(1)

            async def step(self):
                await asyncio.sleep(0)

            async def stop(self):
                for t in list(self.tasks):
                    t.cancel()
                with suppress(asyncio.CancelledError):
                    await self._runner
    ''',
    "inline_waits": '''
        import asyncio


        async def job(n):
            await asyncio.sleep(n)


        async def race(jobs):
            tasks = [asyncio.create_task(job(j)) for j in jobs]
            done, pending = await asyncio.wait(tasks, timeout=2, return_when=asyncio.FIRST_COMPLETED)
            for p in pending:
                p.cancel()
            return [d.result() for d in done]


        async def fan_out(jobs):
            results = await asyncio.gather(*(job(j) for j in jobs), return_exceptions=True)
            fut = asyncio.ensure_future(job(1))
            shielded = await asyncio.shield(fut)
            return results, shielded


        async def guarded():
            t = asyncio.create_task(job(3))
            async with asyncio.timeout(1):
                await asyncio.sleep(5)
            await t


        def callbacks(loop):
            loop.call_soon(lambda: asyncio.ensure_future(job(1)))
            loop.call_later(1, asyncio.create_task, job(2))
            handle = loop.call_soon_threadsafe(print, "x")
            return handle
    ''',
    "inline_module_level": '''
        import asyncio as aio
        from asyncio import create_task as spawn, gather

        BACKGROUND = set()
        PENDING = {}


        async def job():
            await aio.sleep(1)


        def fire_and_forget():
            task = spawn(job())
            BACKGROUND.add(task)
            task.add_done_callback(BACKGROUND.discard)


        def forget():
            spawn(job())
            gather(job(), job())
            PENDING["k"] = aio.ensure_future(job())


        async def nested():
            async def inner():
                t = aio.Task(job())
                return t
            keep = await inner()
            del keep
            global BACKGROUND
            BACKGROUND = {aio.create_task(job()) for _ in range(3)}
            (first, *rest) = [aio.create_task(job()) for _ in range(3)]
            if (w := aio.create_task(job())) is not None:
                await w
            return first, rest
    ''',
    "inline_generators": '''
        import asyncio


        async def producer(q):
            for i in range(3):
                yield asyncio.create_task(q.get())


        async def consumer(q):
            got = [t async for t in producer(q)]
            pending = {asyncio.ensure_future(x) for x in got if x}
            while pending:
                done, pending = await asyncio.wait(pending)
            return {k: asyncio.create_task(v) async for k, v in aitems(q)}


        def sync_side(loop, coro):
            fut = asyncio.run_coroutine_threadsafe(coro, loop)
            loop.run_until_complete(asyncio.gather(coro, return_exceptions=True))
            return fut.result(timeout=1)
    ''',
}


def seed_sources(include_corpus: bool) -> List[Tuple[str, str]]:
    """(name, source) of every seed program the running interpreter can parse."""
    seeds: List[Tuple[str, str]] = [(name, textwrap.dedent(src)) for name, src in INLINE_SEEDS.items()]
    paths: List[Path] = sorted(DATA.rglob("*.py")) if DATA.is_dir() else []
    if SHARED_CASES.is_dir():
        paths += sorted(SHARED_CASES.glob("*.py"))
    if include_corpus:
        paths += [p for p in corpus_files() if b"create_task" in p.read_bytes()]
    for path in paths:
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if parse(source) is not None:
            seeds.append((str(path), source))
    return seeds


def corpus_files() -> List[Path]:
    """The benchmark corpus (downloaded on first use), or [] when unavailable."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    try:
        import corpus  # type: ignore[import-not-found]
    except ImportError:
        warnings.warn("benchmarks/corpus.py is missing: fuzzing without the corpus")
        return []
    try:
        return list(corpus.ensure_corpus(REPO / ".bench" / "corpus"))
    except Exception as exc:  # no network, a changed pin, ...
        warnings.warn(f"corpus unavailable ({exc!r}): fuzzing without it")
        return []


# ----------------------------------------------------------- mutation engine
# Statements inserted at random places.  Each is parsed afresh when used.
SNIPPETS: Tuple[str, ...] = (
    "t = asyncio.create_task(job())",
    "_ = asyncio.create_task(job())",
    "asyncio.create_task(job())",
    "asyncio.ensure_future(job())",
    "asyncio.ensure_future(t)",
    "asyncio.Task(job())",
    "asyncio.tasks.create_task(job())",
    "loop.create_task(job())",
    "self.loop.create_task(job())",
    "asyncio.get_running_loop().create_task(job())",
    "loop = asyncio.get_event_loop()",
    "ioloop.create_task(job())",
    "spawn(job())",
    "helpers.fire(job())",
    "from myapp.tasks import spawn",
    "import helpers",
    "import async_timeout",
    "await t",
    "t.cancel()",
    "t.add_done_callback(tasks.discard)",
    "t.add_done_callback(lambda _: tasks.discard(_))",
    "tasks.add(t)",
    "tasks.append(asyncio.create_task(job()))",
    "tasks.discard(t)",
    "tasks = set()",
    "tasks = []",
    "tasks[key] = asyncio.create_task(job())",
    "self.tasks.add(asyncio.create_task(job()))",
    "self.tasks.add(t)",
    "self.tasks.discard(t)",
    "self.tasks = set()",
    "self._task = asyncio.create_task(job())",
    "self._tasks[key] = t",
    "del self._tasks[key]",
    "del t",
    "del tasks[0], t",
    "global t",
    "nonlocal t",
    "global tasks",
    "return t",
    "return asyncio.create_task(job())",
    "yield t",
    "yield asyncio.create_task(job())",
    "raise",
    "raise RuntimeError from None",
    "break",
    "continue",
    "pass",
    "t = None",
    "t, u = asyncio.create_task(job()), asyncio.create_task(job())",
    "a, *b = asyncio.create_task(job()), t",
    "[t, *rest] = tasks",
    "x: asyncio.Task = asyncio.create_task(job())",
    "x: int",
    "tasks += [asyncio.create_task(job())]",
    "tasks |= {asyncio.create_task(job())}",
    "tasks -= done",
    "self.tasks -= done",
    "done, pending = await asyncio.wait(tasks, timeout=1)",
    "done, pending = await asyncio.wait({t}, return_when=asyncio.FIRST_COMPLETED)",
    "await asyncio.wait([t, u])",
    "await asyncio.wait(tasks, timeout=None)",
    "await asyncio.wait_for(fut, 1)",
    "await asyncio.wait_for(t, timeout=1)",
    "await asyncio.wait_for(aw=job(), timeout=1)",
    "await async_timeout.timeout(1)",
    "await asyncio.shield(t)",
    "await asyncio.shield(job())",
    "asyncio.shield(asyncio.create_task(job()))",
    "res = await asyncio.gather(*tasks)",
    "await asyncio.gather(job(), t, return_exceptions=True)",
    "asyncio.gather(job())",
    "g = asyncio.gather(t, u)",
    "loop.call_soon(asyncio.create_task, job())",
    "loop.call_later(1, lambda: asyncio.create_task(job()))",
    "loop.call_soon_threadsafe(loop.create_task, job())",
    "loop.add_signal_handler(2, lambda: asyncio.ensure_future(job()))",
    "fut = asyncio.run_coroutine_threadsafe(job(), loop)",
    "if (t := asyncio.create_task(job())):\n    pass",
    "print(t, len(tasks))",
    "assert t.done(), t",
    "cb = lambda: asyncio.create_task(job())",
    "cb = lambda t=asyncio.create_task(job()): t",
    "ts = [asyncio.create_task(j) for j in jobs]",
    "ts = {asyncio.create_task(j) for j in jobs if (k := j)}",
    "d = {k: asyncio.ensure_future(v) for k, v in pairs}",
    "g = (asyncio.create_task(j) for j in jobs)",
    "s = f'{asyncio.create_task(job())!r:>{width}}'",
    "x = t if t else asyncio.create_task(job())",
    "x = t or asyncio.create_task(job())",
    "x = not asyncio.create_task(job())",
    "x = asyncio.create_task(job()) is None",
    "x = -t",
    "x = t[0]",
    "x = t[1:2]",
    "x = t.result()",
    "x = {**kw, 'a': t}",
    "f(*tasks, **kw)",
    "async with asyncio.timeout(1):\n    await t",
    "async with asyncio.timeout_at(when) as cm, lock:\n    pass",
    "async with async_timeout.timeout(1):\n    await asyncio.sleep(2)",
    "with anyio.fail_after(1):\n    await asyncio.sleep(2)",
    "async with asyncio.TaskGroup() as tg:\n    tg.create_task(job())",
    "with suppress(Exception):\n    t = asyncio.create_task(job())",
    "for t in list(tasks):\n    t.cancel()",
    "for t in tasks.copy():\n    await t",
    "for i, t in enumerate(tasks):\n    pass",
    "async for item in stream:\n    asyncio.create_task(handle(item))",
    "while tasks:\n    await tasks.pop()",
    "while True:\n    t = asyncio.create_task(job())\n    if t:\n        break",
    "try:\n    await t\nexcept asyncio.CancelledError:\n    raise\nfinally:\n    t.cancel()",
    "try:\n    t = asyncio.create_task(job())\n"
    "except (ValueError, TypeError) as exc:\n    return\nelse:\n    pass",
    "from asyncio import create_task as ct\nct(job())",
    "from asyncio import *\ncreate_task(job())",
    "import asyncio as aio\naio.ensure_future(job())",
    "from asyncio import tasks as asyncio_tasks\nasyncio_tasks.ensure_future(job())",
    "@decorator(asyncio.create_task(job()))\n"
    "def decorated(a, /, b=asyncio.create_task(job()), *args, c, d=t, **kw):\n    return a",
    "async def inner():\n    t = asyncio.create_task(job())\n    return t",
    "def inner_sync():\n    nonlocal t\n    t = None",
    "class Inner(Base, metaclass=Meta):\n    task = asyncio.create_task(job())\n"
    "    def m(self):\n        self.tasks.add(asyncio.create_task(job()))",
    "lock = asyncio.Lock()",
    "import asyncio",
)

SNIPPETS_310: Tuple[str, ...] = (
    "match t:\n    case asyncio.Task(name=n) | [n, *_]:\n        await n\n"
    "    case {'k': v, **rest} if v:\n        pass\n    case _:\n        t.cancel()",
    "match asyncio.create_task(job()):\n    case x:\n        pass",
)
SNIPPETS_311: Tuple[str, ...] = (
    "try:\n    await t\nexcept* ValueError as eg:\n    pass\nexcept* (TypeError, OSError):\n    raise",
)
SNIPPETS_312: Tuple[str, ...] = (
    "type Alias[T] = list[asyncio.Task[T]]",
    "def generic[T: int, *Ts, **P](x: T) -> T:\n    return asyncio.create_task(job())",
    "class Box[T]:\n    task = asyncio.create_task(job())",
    "s = f\"{'a' + f'{asyncio.create_task(job())}'}\"",
)


SNIPPETS_314: Tuple[str, ...] = (
    "s = t\"{asyncio.create_task(job())} {name!r:>{width}}\"",
    "asyncio.create_task(job(), name=t\"job {n}\", eager_start=True)",
    "try:\n    await asyncio.wait_for(t, 1)\nexcept ValueError, TimeoutError:\n    return None",
)
SNIPPETS_315: Tuple[str, ...] = (
    "lazy import asyncio",
    "lazy from asyncio import create_task as ct\nct(job())",
    "ts = [*[asyncio.create_task(job())] for _ in range(2)]",
    "d = {**{k: asyncio.create_task(job())} for k in keys}",
)


def _for_this_python(
    common: Tuple[str, ...], *newer: Tuple[Tuple[int, int], Tuple[str, ...]]
) -> Tuple[str, ...]:
    """``common`` and the items of each ``(version, items)`` the running Python has."""
    for version, items in newer:
        if sys.version_info >= version:
            common += items
    return common


def available_snippets() -> Tuple[str, ...]:
    return _for_this_python(
        SNIPPETS, ((3, 10), SNIPPETS_310), ((3, 11), SNIPPETS_311), ((3, 12), SNIPPETS_312),
        ((3, 14), SNIPPETS_314), ((3, 15), SNIPPETS_315),
    )


def _stmts(source: str) -> List[ast.stmt]:
    return ast.parse(textwrap.dedent(source)).body


# Block templates: the run of statements replaces the body of the first
# compound statement; "PLACEHOLDER" marks where.
WRAPPERS: Tuple[str, ...] = (
    "try:\n    pass\nfinally:\n    pass",
    "try:\n    pass\nfinally:\n    t.cancel()",
    "try:\n    pass\nfinally:\n    await t",
    "try:\n    pass\nexcept Exception:\n    pass",
    "try:\n    pass\nexcept asyncio.TimeoutError:\n    return None",
    "try:\n    pass\nexcept (asyncio.CancelledError, KeyError) as e:\n    raise\nelse:\n    pass",
    "try:\n    pass\nexcept:\n    continue",
    "with lock:\n    pass",
    "with open(path) as fh, suppress(Exception):\n    pass",
    "async with lock:\n    pass",
    "async with asyncio.timeout(1) as cm:\n    pass",
    "async with async_timeout.timeout(1):\n    pass",
    "for _ in range(3):\n    pass",
    "for t in tasks:\n    pass\nelse:\n    pass",
    "async for item in stream:\n    pass",
    "while running:\n    pass",
    "while True:\n    pass\nelse:\n    pass",
    "if cond:\n    pass",
    "if cond:\n    pass\nelse:\n    pass",
    "if not t.done():\n    pass\nelif t:\n    pass",
    "def _inner():\n    pass",
    "async def _inner():\n    pass",
    "async def _inner(self, *a, **k):\n    pass",
    "@decorator\nasync def _inner():\n    pass",
    "class _Inner:\n    pass",
)
WRAPPERS_310: Tuple[str, ...] = (
    "match command:\n    case _:\n        pass",
    "match command:\n    case [x, y, *rest] if x:\n        pass",
    "match command:\n    case Point(x=0, y=yy) | {'y': yy}:\n        pass",
)
WRAPPERS_311: Tuple[str, ...] = (
    "try:\n    pass\nexcept* ValueError:\n    pass",
    "try:\n    pass\nexcept* asyncio.TimeoutError as eg:\n    return None",
)
WRAPPERS_312: Tuple[str, ...] = (
    "def _inner[T](x: T) -> T:\n    pass",
    "class _Inner[T]:\n    pass",
)

WRAPPERS_314: Tuple[str, ...] = (
    "try:\n    pass\nexcept ValueError, asyncio.TimeoutError:\n    return None",
)


def available_wrappers() -> Tuple[str, ...]:
    return _for_this_python(
        WRAPPERS, ((3, 10), WRAPPERS_310), ((3, 11), WRAPPERS_311), ((3, 12), WRAPPERS_312),
        ((3, 14), WRAPPERS_314),
    )


# Expression wrappers: "E" is replaced by the chosen expression.
EXPR_WRAPPERS: Tuple[str, ...] = (
    "await E",
    "asyncio.create_task(E)",
    "asyncio.ensure_future(E)",
    "loop.create_task(E)",
    "asyncio.shield(E)",
    "await asyncio.shield(E)",
    "asyncio.gather(E, job())",
    "await asyncio.gather(E)",
    "await asyncio.wait_for(E, 1)",
    "await asyncio.wait([E], timeout=1)",
    "[E]",
    "(E,)",
    "{E}",
    "{'k': E}",
    "(x := E)",
    "lambda: E",
    "lambda *a, k=E: k",
    "E if cond else None",
    "E or None",
    "not E",
    "E is None",
    "[E for _ in ts]",
    "(E for _ in ts)",
    "[E async for _ in ts]",
    "{_: E for _ in ts if (z := _)}",
    "E[0]",
    "E.result()",
    "E.add_done_callback(cb)",
    "E.cancel()",
    "tasks.add(E)",
    "self.tasks.add(E)",
    "print(E)",
    "f'{E}'",
    "(yield E)",
    "(yield from E)",
    "*E,",
)
EXPR_WRAPPERS_314: Tuple[str, ...] = ("t'{E}'", "t'{E!r:>{E}}'")
EXPR_WRAPPERS_315: Tuple[str, ...] = (
    "[*E for _ in ts]", "{*E for _ in ts}", "{**E for _ in ts}", "(*E for _ in ts)",
)


def available_expr_wrappers() -> Tuple[str, ...]:
    return _for_this_python(EXPR_WRAPPERS, ((3, 14), EXPR_WRAPPERS_314), ((3, 15), EXPR_WRAPPERS_315))


def _template_expr(template: str, expr: ast.expr) -> Optional[ast.expr]:
    tree = ast.parse(template.replace("E", "__E__"), mode="eval")
    replaced = False

    class Fill(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            nonlocal replaced
            if node.id == "__E__":
                replaced = True
                return copy.deepcopy(expr)
            return node

    body = Fill().visit(tree).body
    return body if replaced else None


def _stmt_lists(tree: ast.AST) -> List[List[ast.stmt]]:
    lists: List[List[ast.stmt]] = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            value = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                lists.append(value)
    return lists


_NOT_REPLACEABLE = (ast.Starred, ast.Slice)
_PATTERN = getattr(ast, "pattern", ())  # match patterns (3.10+): their values are not expressions


def _replaceable_exprs(tree: ast.AST) -> List[Tuple[ast.AST, str, Optional[int]]]:
    """(parent, field, index) of expressions in Load context that can be
    replaced by another expression without breaking the grammar."""
    found: List[Tuple[ast.AST, str, Optional[int]]] = []
    skip: set = set()
    for node in ast.walk(tree):
        if _PATTERN and isinstance(node, _PATTERN):
            skip.update(id(sub) for sub in ast.walk(node))
        if id(node) in skip or isinstance(node, ast.JoinedStr):
            continue  # the parts of an f-string are not free expressions
        for field, value in ast.iter_fields(node):
            if isinstance(node, ast.FormattedValue) and field != "value":
                continue
            items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
            for index, child in items:
                if not isinstance(child, ast.expr) or isinstance(child, _NOT_REPLACEABLE):
                    continue
                if not isinstance(getattr(child, "ctx", ast.Load()), ast.Load):
                    continue
                found.append((node, field, index))
    return found


def _set_child(parent: ast.AST, field: str, index: Optional[int], new: ast.AST) -> None:
    if index is None:
        setattr(parent, field, new)
    else:
        getattr(parent, field)[index] = new


def _store_names(tree: ast.AST) -> List[ast.Name]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


class Mutator:
    """Applies random structure-preserving mutations to a module AST."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd
        self.snippets = available_snippets()
        self.wrappers = available_wrappers()
        self.expr_wrappers = available_expr_wrappers()
        self.ops: List[Tuple[str, Callable[[ast.Module], bool], int]] = [
            ("delete", self.delete, 3),
            ("duplicate", self.duplicate, 3),
            ("swap", self.swap, 3),
            ("move", self.move, 2),
            ("wrap", self.wrap, 6),
            ("unwrap", self.unwrap, 2),
            ("insert", self.insert, 8),
            ("expr", self.wrap_expr, 6),
            ("replace_expr", self.replace_expr, 2),
            ("rename", self.rename, 3),
            ("alias", self.alias, 2),
            ("import_alias", self.import_alias, 2),
            ("toggle_async", self.toggle_async, 2),
            ("decorate", self.decorate, 1),
        ]
        self.log: List[str] = []

    def mutate(self, tree: ast.Module, count: int) -> Optional[ast.Module]:
        """Apply ``count`` mutations in place, then unparse and parse again (so
        that positions are the parser's).  None if the result does not parse."""
        names = [op[0] for op in self.ops]
        weights = [op[2] for op in self.ops]
        funcs = {op[0]: op[1] for op in self.ops}
        for _ in range(count):
            name = self.rnd.choices(names, weights)[0]
            try:
                applied = funcs[name](tree)
            except Exception:  # a mutation that does not fit this tree
                applied = False
            if applied:
                self.log.append(name)
        try:
            source = ast.unparse(ast.fix_missing_locations(tree))
        except Exception:  # an AST the unparser cannot render
            return None
        return parse(source)

    # ---- statement lists
    def _pick_list(self, tree: ast.Module) -> Optional[List[ast.stmt]]:
        lists = _stmt_lists(tree)
        return self.rnd.choice(lists) if lists else None

    def delete(self, tree: ast.Module) -> bool:
        body = self._pick_list(tree)
        if body is None:
            return False
        i = self.rnd.randrange(len(body))
        if len(body) > 1:
            del body[i]
        else:
            body[i] = ast.Pass()
        return True

    def duplicate(self, tree: ast.Module) -> bool:
        body = self._pick_list(tree)
        if body is None:
            return False
        i = self.rnd.randrange(len(body))
        body.insert(self.rnd.randrange(len(body) + 1), copy.deepcopy(body[i]))
        return True

    def swap(self, tree: ast.Module) -> bool:
        body = self._pick_list(tree)
        if body is None or len(body) < 2:
            return False
        i, j = self.rnd.sample(range(len(body)), 2)
        body[i], body[j] = body[j], body[i]
        return True

    def move(self, tree: ast.Module) -> bool:
        lists = _stmt_lists(tree)
        source = self.rnd.choice(lists)
        if len(source) < 2:
            return False
        stmt = source.pop(self.rnd.randrange(len(source)))
        target = self.rnd.choice(_stmt_lists(tree))
        target.insert(self.rnd.randrange(len(target) + 1), stmt)
        return True

    def wrap(self, tree: ast.Module) -> bool:
        body = self._pick_list(tree)
        if body is None:
            return False
        i = self.rnd.randrange(len(body))
        j = self.rnd.randint(i + 1, min(len(body), i + 4))
        template = _stmts(self.rnd.choice(self.wrappers))
        outer = template[0]
        inner: ast.AST = outer
        if type(outer).__name__ == "Match":
            inner = outer.cases[0]  # type: ignore[attr-defined]
        run = body[i:j]
        inner.body = run  # type: ignore[attr-defined]
        body[i:j] = template
        return True

    def unwrap(self, tree: ast.Module) -> bool:
        """Replace a compound statement by its body."""
        body = self._pick_list(tree)
        if body is None:
            return False
        candidates = [k for k, s in enumerate(body) if isinstance(getattr(s, "body", None), list)]
        if not candidates:
            return False
        k = self.rnd.choice(candidates)
        inner = body[k].body  # type: ignore[attr-defined]
        if not inner:
            return False
        body[k:k + 1] = inner
        return True

    def insert(self, tree: ast.Module) -> bool:
        body = self._pick_list(tree)
        if body is None:
            return False
        stmts = _stmts(self.rnd.choice(self.snippets))
        pos = self.rnd.randrange(len(body) + 1)
        body[pos:pos] = stmts
        return True

    # ---- expressions
    def wrap_expr(self, tree: ast.Module) -> bool:
        sites = _replaceable_exprs(tree)
        if not sites:
            return False
        parent, field, index = self.rnd.choice(sites)
        old = getattr(parent, field) if index is None else getattr(parent, field)[index]
        new = _template_expr(self.rnd.choice(self.expr_wrappers), old)
        if new is None:
            return False
        _set_child(parent, field, index, new)
        return True

    def replace_expr(self, tree: ast.Module) -> bool:
        sites = _replaceable_exprs(tree)
        if not sites:
            return False
        parent, field, index = self.rnd.choice(sites)
        call = ast.Call(ast.Name("job", ast.Load()), [], [])
        new = _template_expr(self.rnd.choice(self.expr_wrappers), call)
        if new is None:
            return False
        _set_child(parent, field, index, new)
        return True

    def rename(self, tree: ast.Module) -> bool:
        """Rename a bound name (a task handle, usually) to ``_``, everywhere or once."""
        stores = _store_names(tree)
        if not stores:
            return False
        victim = self.rnd.choice(stores)
        old, new = victim.id, self.rnd.choice(["_", "_", "__", "t", "tasks", "loop"])
        if self.rnd.random() < 0.5:
            victim.id = new
        else:
            for node in ast.walk(tree):
                if isinstance(node, ast.Name) and node.id == old:
                    node.id = new
        return True

    def alias(self, tree: ast.Module) -> bool:
        """``u = t`` right after a binding of ``t``, and uses of ``t`` become ``u``."""
        body = self._pick_list(tree)
        if body is None:
            return False
        for k, stmt in enumerate(body):
            if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                body.insert(k + 1, _stmts(f"alias_{name} = {name}")[0])
                for later in body[k + 2:]:
                    for node in ast.walk(later):
                        if isinstance(node, ast.Name) and node.id == name and self.rnd.random() < 0.5:
                            node.id = f"alias_{name}"
                return True
        return False

    def import_alias(self, tree: ast.Module) -> bool:
        """Import a name under an alias, often a part of its own name
        (``create_task as task``), and use the alias instead."""
        found = [
            alias
            for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for alias in node.names
            if alias.asname is None and alias.name != "*" and "." not in alias.name
        ]
        if not found:
            return False
        alias = self.rnd.choice(found)
        old = alias.name
        parts = [part for part in old.split("_") if part] + [old[1:], old[:-1], "alias_" + old]
        new = self.rnd.choice(parts)
        if new == old or not new.isidentifier() or keyword.iskeyword(new):
            return False
        alias.asname = new
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == old:
                node.id = new
        return True

    def toggle_async(self, tree: ast.Module) -> bool:
        funcs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not funcs:
            return False
        func = self.rnd.choice(funcs)
        new_type = ast.FunctionDef if isinstance(func, ast.AsyncFunctionDef) else ast.AsyncFunctionDef
        func.__class__ = new_type
        return True

    def decorate(self, tree: ast.Module) -> bool:
        kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        defs = [n for n in ast.walk(tree) if isinstance(n, kinds)]
        if not defs:
            return False
        target = self.rnd.choice(defs)
        decorator = ast.parse(
            self.rnd.choice(
                ["staticmethod", "functools.wraps(f)", "register(asyncio.create_task(job()))", "lambda f: f"]
            ),
            mode="eval",
        ).body
        target.decorator_list.insert(0, decorator)
        return True


def make_mutant(seeds: Sequence[Tuple[str, str]], mutant_seed: int) -> Tuple[str, str, Options, List[str]]:
    """(seed name, mutant source, options, applied mutations) for one mutant seed."""
    rnd = random.Random(mutant_seed)
    name, source = seeds[rnd.randrange(len(seeds))]
    options = OPTION_SETS[rnd.randrange(len(OPTION_SETS))]
    for _attempt in range(10):
        tree = parse(source)
        assert tree is not None
        mutator = Mutator(rnd)
        mutant = mutator.mutate(tree, rnd.randint(1, 6))
        if mutant is not None:
            return name, ast.unparse(mutant), options, mutator.log
    return name, source, options, []  # ten unparseable mutants in a row: the seed itself


def run_mutation_fuzz(seeds: Sequence[Tuple[str, str]], count: int, base_seed: int) -> Dict[str, int]:
    """Every mutant is checked; failures are collected (by kind) and reported at the end."""
    failures: List[str] = []
    stats: Dict[str, int] = {"mutants": 0, "findings": 0, "with_findings": 0}
    mutant_seeds = [int(ONLY)] if ONLY else [base_seed * 1_000_003 + i for i in range(count)]
    for mutant_seed in mutant_seeds:
        name, source, options, log = make_mutant(seeds, mutant_seed)
        stats["mutants"] += 1
        try:
            found = check_source(source, options)
        except Exception as exc:
            kind = type(exc).__name__
            if not isinstance(exc, (Nondeterminism, ShortcutDivergence)):
                kind = f"crash:{kind}"
            stats[kind] = stats.get(kind, 0) + 1
            replay = f"{'TASKREF_SLOW=1 ' if SLOW else ''}TASKREF_FUZZ_ONLY={mutant_seed}"
            failures.append(
                f"[{kind}] mutant seed {mutant_seed} "
                f"(replay: {replay} pytest tests/test_fuzz.py -k mutation_fuzz), "
                f"seed file {name}, mutations {log}, options {options}\n"
                f"{traceback.format_exc()}\n--- mutant ---\n{source}"
            )
            continue
        stats["findings"] += len(found)
        stats["with_findings"] += bool(found)
    print(f"mutation fuzz: {stats}")
    if failures:
        index = "\n".join(failure.split(", mutations")[0] for failure in failures)
        shown = "\n\n".join(failures[:5])
        pytest.fail(
            f"{len(failures)} of {stats['mutants']} mutants failed {stats}\n{index}\n\n"
            f"first {min(5, len(failures))} in full:\n\n{shown}",
            pytrace=False,
        )
    return stats


# ------------------------------------------------------------------- tests
@HYPOTHESIS_SETTINGS
@given(source=hypothesmith.from_grammar())
def test_hypothesmith_from_grammar(source: str) -> None:
    tree = parse(source)
    assume(tree is not None)
    for options in OPTION_SETS:
        check_source(source, options)


@HYPOTHESIS_SETTINGS
@given(source=hypothesmith.from_node())
def test_hypothesmith_from_node(source: str) -> None:
    tree = parse(source)
    assume(tree is not None)
    for options in OPTION_SETS:
        check_source(source, options)


@settings(HYPOTHESIS_SETTINGS, max_examples=INJECTED_EXAMPLES)
@given(source=hypothesmith.from_node(), mutant_seed=st.integers(0, 2**32 - 1))
def test_hypothesmith_with_spawns_injected(source: str, mutant_seed: int) -> None:
    """Generated programs with asyncio spawns, waits and handles inserted."""
    tree = parse(source)
    assume(tree is not None)
    assert tree is not None
    rnd = random.Random(mutant_seed)
    mutator = Mutator(rnd)
    mutator.ops = [op for op in mutator.ops if op[0] in ("insert", "expr", "wrap", "rename")]
    mutant = mutator.mutate(tree, rnd.randint(2, 8))
    assume(mutant is not None)
    mutant_source = "import asyncio\n" + ast.unparse(mutant)
    assume(parse(mutant_source) is not None)
    for options in OPTION_SETS:
        check_source(mutant_source, options)


def test_mutation_fuzz() -> None:
    """Mutants of real asyncio code: no exception, same findings twice."""
    seeds = seed_sources(include_corpus=SLOW)  # the same seeds when replaying one mutant
    stats = run_mutation_fuzz(seeds, MUTANTS, BASE_SEED)
    print(f"mutation fuzz: {stats} from {len(seeds)} seed files, base seed {BASE_SEED}")
    assert stats["with_findings"] > 0 or ONLY  # the fuzz does reach the rules


def test_mutants_are_diverse() -> None:
    """Guard against a vacuous fuzz: mutants parse and differ from their seeds."""
    seeds = seed_sources(include_corpus=False)
    changed = 0
    for i in range(40):
        name, source, _, log = make_mutant(seeds, BASE_SEED + i)
        original = dict(seeds)[name]
        tree = parse(original)
        assert tree is not None and parse(source) is not None
        changed += bool(log) and ast.unparse(tree) != source
    assert changed >= 30


# ------------------------------------------------------------- deep nesting
def _at(node: ast.AST, line: int, end_line: Optional[int] = None) -> ast.AST:
    """Positions set by hand: ast.fix_missing_locations itself recurses."""
    if "lineno" in node._attributes:
        node.lineno, node.col_offset = line, 4  # type: ignore[attr-defined]
        node.end_lineno, node.end_col_offset = end_line or line, 5  # type: ignore[attr-defined]
    return node


def _deep_module(depth: int) -> ast.Module:
    """``asyncio.create_task(job(a + a + ... + a))`` with ``depth`` BinOps,
    built programmatically (the parser would refuse the source)."""
    def name(ident: str) -> ast.expr:
        return _at(ast.Name(ident, ast.Load()), 3)  # type: ignore[return-value]

    expr: ast.expr = name("a")
    for _ in range(depth):
        expr = _at(ast.BinOp(expr, ast.Add(), name("a")), 3)  # type: ignore[assignment]
    call = _at(
        ast.Call(
            _at(ast.Attribute(name("asyncio"), "create_task", ast.Load()), 3),
            [_at(ast.Call(name("job"), [expr], []), 3)],
            [],
        ),
        3,
    )
    func = _at(
        ast.AsyncFunctionDef(
            name="main",
            args=ast.arguments(
                posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
            ),
            body=[_at(ast.Expr(call), 3)],
            decorator_list=[],
            returns=None,
            type_comment=None,
            **({"type_params": []} if sys.version_info >= (3, 12) else {}),
        ),
        2,
        3,
    )
    return ast.Module(body=[_at(ast.Import([_at(ast.alias("asyncio"), 1)]), 1), func], type_ignores=[])


def test_deep_nesting_is_skipped_with_one_message() -> None:
    tree = _deep_module(3000)
    lines = ["import asyncio\n", "async def main():\n", "    asyncio.create_task(job(a + a))\n"]
    err = io.StringIO()
    with redirect_stderr(err):
        results = list(TaskRefPlugin(tree, lines, "deep.py").run())
    assert results == []
    message = "flake8-taskref: skipped deep.py: nested too deeply to analyse\n"
    assert err.getvalue() == message
    # Nothing is left behind: the next file is analysed normally.
    shallow = ast.parse("".join(lines))
    with redirect_stderr(io.StringIO()) as err2:
        again = list(TaskRefPlugin(shallow, lines, "ok.py").run())
    assert err2.getvalue() == ""
    assert [code.split()[0] for _, _, code, _ in again] == ["TRF001"]


def test_moderate_nesting_is_analysed() -> None:
    """Depths real code reaches are analysed, not skipped."""
    err = io.StringIO()
    with redirect_stderr(err):
        results = list(TaskRefPlugin(_deep_module(150), None, "mid.py").run())
    assert err.getvalue() == ""
    assert [text.split()[0] for _, _, text, _ in results] == ["TRF001"]


REALISTIC_DEPTH_SHAPES: Dict[str, Callable[[int], str]] = {
    "sum": lambda n: "async def f():\n    x = " + " + ".join(["a"] * n) + "\n    await asyncio.sleep(x)\n",
    "string_concat": lambda n: "X = " + " + ".join(['"s"'] * n) + "\n",
    "attribute_chain": lambda n: "x = a" + ".b" * n + "\n",
    "method_chain": lambda n: "x = a" + ".b()" * n + "\n",
    "conditional": lambda n: "x = " + " if c else ".join(["a"] * n) + "\n",
    "elif_chain": lambda n: "if a:\n    pass\n" + "elif a:\n    asyncio.create_task(f())\n" * n,
    "dict_union": lambda n: "x = " + " | ".join(["{}"] * n) + "\n",
}


def _pyflakes_handles(tree: ast.AST) -> bool:
    import pyflakes.checker

    try:
        pyflakes.checker.Checker(tree)
    except RecursionError:
        return False
    return True


@pytest.mark.parametrize("shape", sorted(REALISTIC_DEPTH_SHAPES))
def test_depths_pyflakes_handles_are_analysed(shape: str) -> None:
    """Long chains that pyflakes (flake8's own checker, which gives up between
    200 and 400 levels depending on the shape) still handles must be analysed,
    not skipped: the plugin is never the first to give up."""
    checked = 0
    for depth in (100, 200, 300, 400):
        source = "import asyncio\n" + REALISTIC_DEPTH_SHAPES[shape](depth) + "asyncio.create_task(f())\n"
        tree = parse(source)
        if tree is None or not _pyflakes_handles(parse(source)):  # type: ignore[arg-type]
            continue
        checked += 1
        err = io.StringIO()
        with redirect_stderr(err):
            results = list(TaskRefPlugin(tree, flake8_lines(source), "chain.py").run())
        assert err.getvalue() == "", f"{shape} at depth {depth}: pyflakes copes, the plugin skips"
        assert results and all(text.startswith("TRF001") for _, _, text, _ in results)
    assert checked >= 1


def test_deeply_nested_blocks() -> None:
    """100 nested if/with/for blocks (the parser's limit is about 100 indents)."""
    lines = ["import asyncio", "async def main(c, lock, xs):"]
    depth = 90
    kinds = ["if c:", "async with lock:", "for x in xs:", "while c:", "with lock:"]
    for level in range(depth):
        lines.append("    " * (level + 1) + kinds[level % len(kinds)])
    lines.append("    " * (depth + 1) + "asyncio.create_task(main(c, lock, xs))")
    source = "\n".join(lines) + "\n"
    tree = parse(source)
    if tree is None:
        pytest.skip("the running parser refuses this depth")
    found = check_source(source, OPTION_SETS[0])
    assert [f[2] for f in found] == ["TRF001"]


# --------------------------------------------------------------- huge file
def huge_source(min_lines: int = 50_000) -> Tuple[str, int]:
    """A generated module of many small async functions: (source, functions)."""
    chunks = ["import asyncio\n\nBACKGROUND = set()\n\n\nasync def job(n):\n    await asyncio.sleep(n)\n"]
    lines = chunks[0].count("\n")
    functions = 0
    while lines < min_lines:
        chunk = f"""

async def worker_{functions}(loop, items):
    kept = asyncio.create_task(job({functions}))
    BACKGROUND.add(kept)
    kept.add_done_callback(BACKGROUND.discard)
    for item in items:
        if item:
            await asyncio.wait_for(job(item), timeout=1)
    asyncio.create_task(job({functions}))
    return [asyncio.ensure_future(job(x)) for x in items]
"""
        chunks.append(chunk)
        lines += chunk.count("\n")
        functions += 1
    return "".join(chunks), functions


def test_huge_generated_file() -> None:
    """A 50,000-line module: no exception, each dropped spawn found once, and
    the flake8 entry point agrees with the analysis."""
    source, functions = huge_source()
    assert source.count("\n") >= 50_000
    tree = parse(source)
    assert tree is not None
    found = findings(tree, OPTION_SETS[0])
    assert [f[2] for f in found] == ["TRF001"] * functions
    via_plugin = list(TaskRefPlugin(tree, flake8_lines(source), "huge.py").run())
    assert [(line, col) for line, col, _, _ in via_plugin] == [(f[0], f[1]) for f in found]
