"""The text shortcut loses no finding.

The plugin skips the tree of a file when ``may_spawn(text)`` is False, and in
the other files does not enter the functions whose text holds no hot word.  So
``analyse(tree)`` (everything analysed) and the plugin's path (``may_spawn`` and
``analyse(tree, lines=...)``) must give the same findings, message for
message.  Checked on every ``.py`` file under ``tests/`` (fixtures and all), on the
shared real-world cases, and, opt-in with TASKREF_NETWORK=1, on the pinned
benchmark corpus of ``benchmarks/corpus.py``.
"""
from __future__ import annotations

import argparse
import ast
import os
import re
import shlex
import sys
from pathlib import Path
from typing import List, Optional, Set, Tuple

import pytest

from flake8_taskref.analysis import options as opts
from flake8_taskref.analysis.api import analyse, may_spawn
from flake8_taskref.analysis.messages import SpanError

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
SHARED_CASES = Path(__file__).resolve().parent / "data" / "cases"
BENCHMARKS = REPO / "benchmarks"

_ARGS = re.compile(r"^#\s*flake8-args:\s*(?P<args>.*)$")


def _files() -> List[Path]:
    files = sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)
    if SHARED_CASES.is_dir():
        files += sorted(SHARED_CASES.glob("*.py"))
    return files


def _file_options(text: str) -> Optional[opts.Options]:
    """The options a fixture asks for in a ``# flake8-args:`` header, if any."""
    for line in text.splitlines()[:3]:
        match = _ARGS.match(line)
        if match:
            parser = argparse.ArgumentParser(add_help=False)
            parser.add_argument("--taskref-spawners", default="")
            parser.add_argument("--taskref-loop-names", default=",".join(opts.DEFAULT_LOOP_NAMES))
            parser.add_argument("--taskref-timeouts", default="")
            namespace, _ = parser.parse_known_args(shlex.split(match.group("args")))
            return opts.from_namespace(namespace)
    return None


def _parse(path: Path) -> Optional[Tuple[str, ast.AST]]:
    try:
        text = path.read_text(encoding="utf-8")
        return text, ast.parse(text, str(path))
    except (SyntaxError, ValueError, UnicodeDecodeError):
        return None


def _key(findings: List[SpanError]) -> List[Tuple[int, int, str, str]]:
    return [(e.lineno, e.col_offset, e.code, e.message) for e in findings]


def _lost(text: str, tree: ast.AST, options: opts.Options) -> List[str]:
    """Findings that the plugin would not report, or would report differently,
    because the shortcut skipped the file or some of its functions."""
    full = _key(analyse(tree, options))
    if not may_spawn(text, options):
        return [f"{line}:{col} {code}" for line, col, code, _ in full]
    fast = _key(analyse(tree, options, text.splitlines(keepends=True)))
    return [f"{line}:{col} {code} {message}" for line, col, code, message in set(full) ^ set(fast)]


def _findings(source: str, options: opts.Options) -> List[Tuple[int, str]]:
    """(line, code) of the findings in ``source``, once the plugin's path is
    checked to give the very same ones as the full analysis."""
    tree = ast.parse(source)
    lost = _lost(source, tree, options)
    assert not lost, f"the shortcut changes the findings {lost}"
    return [(line, code) for line, _, code, _ in _key(analyse(tree, options))]


FILES = _files()


def test_there_are_files() -> None:
    assert any(p.parent.name == "data" for p in FILES), "no fixtures found under tests/data"


@pytest.mark.parametrize(
    "path", FILES, ids=lambda p: p.relative_to(p.parents[1]).as_posix()
)
def test_shortcut_keeps_every_finding(path: Path) -> None:
    parsed = _parse(path)
    if parsed is None:
        pytest.skip("does not parse on this Python")
    text, tree = parsed
    candidates = [opts.Options.build(), opts.Options.build(collections=False)]
    own = _file_options(text)
    if own is not None:
        candidates.append(own)
    for options in candidates:
        lost = _lost(text, tree, options)
        assert not lost, f"the shortcut changes the findings {lost} with {options}"


@pytest.mark.network
@pytest.mark.skipif(os.environ.get("TASKREF_NETWORK") != "1", reason="set TASKREF_NETWORK=1")
def test_shortcut_keeps_every_finding_on_the_corpus() -> None:
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    from corpus import ensure_corpus

    all_options = [opts.Options.build(), opts.Options.build(collections=False)]
    files = ensure_corpus(REPO / ".bench" / "corpus")
    assert len(files) > 1000
    problems = []
    with_findings = 0
    for path in files:
        parsed = _parse(path)
        if parsed is None:
            continue
        text, tree = parsed
        if analyse(tree, all_options[0]):
            with_findings += 1
        for options in all_options:
            lost = _lost(text, tree, options)
            if lost:
                problems.append(f"{path}: {lost}")
    assert not problems, "\n".join(problems)
    assert with_findings > 0  # the corpus exercises the rules at all


def _hot(source: str, kind: str = "", **build: object) -> List[int]:
    """The hot lines of ``source``: of words that can spawn (``kind="spawn"``), of
    loop words (``kind="loop"``), or of either."""
    from flake8_taskref.analysis.shortcut import HotLines

    lines = source.splitlines(keepends=True)
    hot = HotLines(lines, opts.Options.build(**build))  # type: ignore[arg-type]
    return [
        n for n in range(1, len(lines) + 1)
        if (kind != "loop" and hot.any_between(n, n)) or (kind != "spawn" and hot.loop_between(n, n))
    ]


def test_hot_lines_are_whole_words_and_parts() -> None:
    source = (
        "x = asyncio.create_task(job())\n"  # 1: a spawn word
        "y = recreate_tasks\n"  # 2: not a whole word
        "t = asyncio.Task(coro)\n"  # 3
        "g = TaskGroup()\n"  # 4: Task is part of a longer word
        "loop = get_running_loop()\n"  # 5: loop words (the file has create_task)
        "self.main_loop = loop\n"  # 6: ``loop`` as a whole word after ``=``
        "looping = 1\n"  # 7
        "def f(l: AbstractEventLoop): ...\n"  # 8: a part
    )
    assert _hot(source, collections=False) == [1, 3, 5, 6, 8]
    assert _hot(source, collections=False, loop_names=["main_loop"]) == [1, 3, 5, 6, 8]
    assert _hot(source, collections=False, loop_names=["looping"]) == [1, 3, 5, 7, 8]
    assert _hot(source, "spawn", collections=False) == [1, 3]
    assert _hot(source, "loop", collections=False) == [5, 6, 8]


def test_spawner_words_are_hot_only_where_they_can_spawn() -> None:
    """A spawner's name is hot where the analysis can read it as one: a call, an
    argument (a callback), an import, or a line break inside brackets after it."""
    hot = [
        "t = asyncio.Task (coro)\n",
        "t = asyncio.Task\x0c(coro)\n",
        "loop.call_soon(asyncio.create_task, c)\n",
        "loop.call_later(1, loop.create_task)\n",
        "from asyncio import gather as g\n",
        "from asyncio import shield, gather\n",
        "f(asyncio.ensure_future\n",
        "f(asyncio.ensure_future  # a comment\n",
        "f(asyncio.ensure_future \\\n",
        "    asyncio.gather",
        "fut = asyncio.gather(a(), b())\n",
        "await asyncio.wait_for(asyncio.gather(a()), 1)\n",
        "from asyncio import gather, wait\n",
        "await asyncio.shield(c())\n",
        "x = gather \\\n",
    ]
    cold = [
        "# Task state\n",
        'log(f"Task {key} failed")\n',
        'handlers = {"gather": 1}\n',
        "async def gather(self, keys):\n",
        "t: asyncio.Task = t\n",
        "t = asyncio.Task.all_tasks()\n",
        "results = await asyncio.gather(a(), b())\n",
        "return await gather(*coros)\n",
        "handlers = {'gather': self.gather, 'x': 1}\n",
        "f(self.rpc().gather, who_has=x)\n",
    ]
    for line in hot:
        assert _hot(line, "spawn", collections=False) == [1], line
    for line in cold:
        assert _hot(line, "spawn", collections=False) == [], line
    # a configured spawner named gather: every place it can be called or passed on
    for line in ("results = await myapp.gather(a())\n", "f(myapp.gather, x)\n"):
        assert _hot(line, "spawn", collections=False, spawners=["myapp.gather"]) == [1], line


def test_lines_are_counted_as_the_parser_counts_them() -> None:
    # A form feed or a vertical tab splits str.splitlines() but is no line end for
    # the parser (nor in the lines flake8 reads); "\r\n" is one line end.
    source = "x = 1\x0c\ny = 2\x0b\r\nasyncio.create_task(job())\n"
    assert _hot(source) == [3]


def test_loop_words_are_hot_only_where_a_loop_method_can_spawn() -> None:
    source = "loop = get_running_loop()\nx = asyncio.gather(a(), b())\nself._loop = loop\n"
    assert _hot(source, collections=False) == [2]
    assert _hot(source + "loop.create_task(c())\n", collections=False) == [1, 2, 3, 4]


def test_module_aliases_become_hot() -> None:
    from flake8_taskref.analysis.shortcut import HotLines

    lines = ["import asyncio\n", "x = spawn(job())\n", "spawner(job())\n"]
    hot = HotLines(lines, opts.Options.build())
    assert not hot.any_between(2, 3)
    hot.add_words(["spawn"])
    assert [n for n in (1, 2, 3) if hot.any_between(n, n)] == [2]


def test_loop_only_functions_are_entered_when_they_name_a_receiver() -> None:
    from flake8_taskref.analysis.facts import Scope
    from flake8_taskref.analysis.asyncio_api import ScopeVisitor
    from flake8_taskref.analysis.shortcut import HotLines

    source = (
        "class Worker:\n"
        "    def __init__(self, loop):\n"  # a loop word, and names the receiver io
        "        self.io = loop\n"
        "    def start(self):\n"  # spawns
        "        self.io.create_task(self.run())\n"
        "        self._loop.create_task(self.run())\n"  # a loop by its name
        "    def clock(self, loop):\n"  # a loop word, no receiver
        "        return loop.time()\n"
        "    def stop(self):\n"  # names the receiver, no loop word
        "        self.io = None\n"
        "    def other(self, loop):\n"  # a loop word and _loop: no loop facts needed
        "        self._loop = loop\n"
    )
    options = opts.Options.build(collections=False)
    lines = source.splitlines(keepends=True)
    facts = ScopeVisitor(options, HotLines(lines, options)).run(ast.parse(source))
    entered = {s.node.name for s in facts.scopes if s.kind == Scope.FUNCTION}  # type: ignore[attr-defined]
    assert entered == {"__init__", "start"}
    assert facts.receiver_attrs == {"io"}
    assert _findings(source, options) == [(5, "TRF001"), (6, "TRF001")]


def test_coroutines_a_spawn_asks_about_are_entered_only_where_something_is_reported() -> None:
    """Whether a spawned coroutine ever waits (or keeps its own task) can only
    take a finding away: the plugin's path enters such a cold coroutine only
    when the rules report something in the file, then runs them again."""
    from flake8_taskref.analysis.asyncio_api import ScopeVisitor
    from flake8_taskref.analysis.facts import Scope
    from flake8_taskref.analysis.shortcut import HotLines

    head = (
        "import asyncio\n"
        "class Worker:\n"
        "    async def _tick(self):\n"  # never waits: its task ends in its first step
        "        self.count += 1\n"
        "    async def _wait(self):\n"
        "        await self.event.wait()\n"
        "    def poke(self):\n"
        "        asyncio.create_task(self._tick())\n"
    )
    tail = (
        "    def start(self):\n"
        "        asyncio.create_task(self._wait())\n"
    )
    options = opts.Options.build(collections=False)
    cases = [
        (head, {"poke"}, {"_tick"}, []),
        (head + tail, {"poke", "start"}, {"_tick", "_wait"}, [(10, "TRF001")]),
    ]
    for source, hot, later, expected in cases:
        lines = source.splitlines(keepends=True)
        visitor = ScopeVisitor(options, HotLines(lines, options))
        visitor.put_off = True
        facts = visitor.run(ast.parse(source))

        def entered() -> Set[str]:
            functions = [s.node for s in facts.scopes if s.kind == Scope.FUNCTION]
            return {node.name for node in functions}  # type: ignore[attr-defined]

        assert entered() == hot
        assert visitor.later_needed([]) is False
        assert visitor.enter_later()
        assert entered() == hot | later
        visitor.finish()
        # through the API: the same findings as the full analysis (line 8 silent)
        assert _findings(source, options) == expected
    # a finding away from every spawn put off (its coroutine is not this
    # file's) does not ask for them: the rules run once
    source = head + "    def start(self):\n        asyncio.create_task(job())\n"
    visitor = ScopeVisitor(options, HotLines(source.splitlines(keepends=True), options))
    visitor.put_off = True
    visitor.run(ast.parse(source))
    found = _findings(source, options)
    assert found == [(10, "TRF001")]
    assert not visitor.later_needed([SpanError("TRF001", "", 10, 8)])
    assert visitor.later_needed([SpanError("TRF001", "", 8, 8)])
    visitor.finish()


def test_headers_of_outer_functions_are_visited_only_when_they_can_spawn() -> None:
    from flake8_taskref.analysis.asyncio_api import ScopeVisitor
    from flake8_taskref.analysis.shortcut import HotLines

    source = (
        "import asyncio\n"
        "class A:\n"
        "    @deco(lambda: 1)\n"
        "    def f(self, x=lambda: 2): ...\n"
        "    @deco(lambda: asyncio.create_task(job()))\n"
        "    def g(self, y=lambda: asyncio.create_task(job()).get_name()): ...\n"
        "    @deco(lambda: 3)\n"  # a cold header over a body that spawns
        "    def h(self, z=lambda: 4):\n"
        "        asyncio.create_task(job())\n"
    )
    options = opts.Options.build(collections=False)
    lines = source.splitlines(keepends=True)

    def lambdas(hot: Optional[HotLines]) -> List[int]:
        facts = ScopeVisitor(options, hot).run(ast.parse(source))
        return sorted(s.node.lineno for s in facts.scopes if isinstance(s.node, ast.Lambda))

    assert lambdas(None) == [3, 4, 5, 6, 7, 8]
    assert lambdas(HotLines(lines, options)) == [5, 6]
    assert _findings(source, options) == [(6, "TRF001"), (9, "TRF001")]


def test_aliases_of_hot_names_are_hot_of_the_same_kind() -> None:
    from flake8_taskref.analysis.shortcut import HotLines

    source = "x.create_task(a)\ntask(a)\nsure(a)\nAEL\nthing(a)\nos.path\n"
    lines = source.splitlines(keepends=True)
    hot = HotLines(lines, opts.Options.build(collections=False))
    assert [n for n in range(1, 7) if hot.any_between(n, n)] == [1]  # found before the aliases
    hot.add_aliases([
        ("task", "asyncio.create_task"),  # a part of the name it imports
        ("sure", "asyncio.tasks.ensure_future"),
        ("AEL", "asyncio.AbstractEventLoop"),  # a loop word
        ("thing", "gather.thing"),  # what a name stands for is its last part
        ("os", "os"),
    ])
    assert [n for n in range(1, 7) if hot.any_between(n, n)] == [1, 2, 3]
    assert [n for n in range(1, 7) if hot.loop_between(n, n)] == [4]


@pytest.mark.parametrize(
    "source, expected",
    [
        # the header runs where the function is defined: with the imports known there
        (
            "from asyncio import create_task\n"
            "async def job(): pass\n"
            "def f(x=create_task(job()).add_done_callback(print)): ...\n"
            "from mylib import create_task\n",
            [(3, "TRF001")],
        ),
        (
            "async def job(): pass\n"
            "@register(create_task(job()).get_name())\n"
            "def f(): ...\n"
            "from asyncio import create_task\n",
            [],
        ),
        # an alias imported above a header makes it hot
        (
            "from asyncio import ensure_future as sure\n"
            "async def job(): pass\n"
            "def f(x=sure(job()).add_done_callback(print)): ...\n",
            [(3, "TRF001")],
        ),
    ],
)
def test_headers_see_the_imports_above_them(source: str, expected: List[Tuple[int, str]]) -> None:
    assert _findings(source, opts.Options.build(collections=False)) == expected


def test_lines_ending_in_carriage_returns_through_the_api() -> None:
    source = (
        "# a\rb = 1\r\n# c\rimport asyncio\n"
        "async def job(): pass\nasync def f():\n    asyncio.create_task(job())\n"
    )
    options = opts.Options.build(collections=False)
    full = _key(analyse(ast.parse(source), options))
    assert [(line, code) for line, _, code, _ in full] == [(7, "TRF001")]
    # lines split on every line end, and on "\n" only (a "\r" inside a line)
    for lines in (source.splitlines(keepends=True), re.findall(r"[^\n]*\n|[^\n]+$", source)):
        assert _key(analyse(ast.parse(source), options, lines)) == full


def test_the_file_test_asks_for_a_place_where_a_spawner_can_spawn() -> None:
    """A file passes only if a spawner's name is a whole word where it can spawn,
    as for a function's lines: Home Assistant's 8,805 files hold 600 that name a
    spawner at all (mostly ``hass.async_create_task``), of which 91 have such a
    place; the command parses only those."""
    options = opts.Options.build()
    cold = [
        "self.hass.async_create_task(job())\n",
        "# Task state\nx: asyncio.Task = t\n",
        "async def f():\n    return await asyncio.gather(a(), b())\n",
        "def create_task(self, coro): ...\n",
        "import asyncio\nasync def f():\n    return await asyncio.gather(\r\n        a())\r\n",
    ]
    hot = [
        "asyncio.create_task(job())\n",
        "from asyncio import create_task as spawn\n",
        "fut = asyncio.gather(a(), b())\n",
        "loop.call_soon(asyncio.ensure_future, c)\n",
        "await asyncio.shield(c())\n",
        "x = asyncio.Task(\r\n    c())\r\n",
        "f(asyncio.ensure_future\r\n",  # the line break after the name is a "\r\n"
        "f(asyncio.ensure_future\r",
    ]
    for source in cold:
        assert not may_spawn(source, options), source
    for source in hot:
        assert may_spawn(source, options), source
    configured = opts.Options.build(spawners=["app.run_soon"])
    assert may_spawn("app.run_soon(c())\n", configured)
    assert not may_spawn("app.run_soon_later(c())\n# run_soon is not called\n", configured)


def test_a_file_without_a_place_that_can_spawn_has_no_finding() -> None:
    """What the stricter file test leaves out gives no finding in the full analysis."""
    options = opts.Options.build()
    for source in (
        "import asyncio\n\nasync def main():\n    results = await asyncio.gather(a(), b())\n"
        "    self.hass.async_create_task(job())\n    log('Task failed')\n",
        "import asyncio\n\nclass Worker:\n    task: asyncio.Task[None]\n\n"
        "    def create_task(self, c): ...\n",
    ):
        assert not may_spawn(source, options)
        assert analyse(ast.parse(source), options) == []


def test_a_lock_is_followed_under_every_spelling_of_its_name() -> None:
    """``coroutines.quiet_lock`` needs every use of the lock's name: the text
    shortcut enters the functions that name it as Python reads names (NFKC),
    so a full-width spelling of the holder that waits keeps the finding on
    both paths (a fresh-eyes review's case)."""
    source = (
        "import asyncio\n"
        "\n"
        "\n"
        "class W:\n"
        "    def __init__(self, loop):\n"
        "        self._loop = loop\n"
        "        self.lock = asyncio.Lock()\n"
        "\n"
        "    def push(self):\n"
        "        self._loop.create_task(self._push())\n"
        "\n"
        "    async def _push(self):\n"
        "        async with self.lock:\n"
        "            pass\n"
        "\n"
        "    async def hold(self):\n"
        "        async with self.\uff4cock:\n"
        "            await asyncio.sleep(1)\n"
    )
    assert _findings(source, opts.Options.build()) == [(10, "TRF001")]
    quiet = source.replace("await asyncio.sleep(1)", "pass")
    assert _findings(quiet, opts.Options.build()) == []


def test_a_wait_after_a_task_is_made_is_followed_into_cold_coroutines() -> None:
    """TRF007's caught cancellation asks whether the wait after the task may
    suspend: the coroutine it awaits (no spawner word in it) is entered on the
    plugin's path too, so both paths agree (a shortcut divergence the mutation
    fuzz found on Python 3.15: a decorated coroutine that never waits)."""
    source = (
        "import asyncio\n"
        "\n"
        "\n"
        "async def quiet():\n"
        "    await asyncio.sleep(1)\n"
        "\n"
        "\n"
        "async def first(work):\n"
        "    try:\n"
        "        task = asyncio.create_task(work())\n"
        "        await quiet()\n"
        "        await task\n"
        "    except asyncio.CancelledError:\n"
        "        return None\n"
    )
    assert _findings(source, opts.Options.build()) == [(10, "TRF007")]
    decorated = source.replace("async def quiet", "@functools.wraps(print)\nasync def quiet")
    decorated = decorated.replace("await asyncio.sleep(1)", "print(1)")
    decorated = decorated.replace("import asyncio\n", "import asyncio\nimport functools\n")
    assert _findings(decorated, opts.Options.build()) == [(12, "TRF007")]
