"""Summaries made in part (issue 23's cold cost): the project's index
summarises a module with the text shortcut, entering only the functions that
name a spawner; what the others do to their parameters, whether a coroutine
ever waits, and the attributes of the classes are in the module's whole
summary, which the reader (``Resolver``) asks the view for when it needs them.
The findings are the same as with whole summaries; a view that cannot give a
whole summary leaves the question unanswered (silent)."""
from __future__ import annotations

import ast
import textwrap
from typing import Dict, List, Optional, Tuple

from flake8_taskref.analysis.api import lint_file, summarise, with_words
from flake8_taskref.analysis.modules import ModuleSummary
from flake8_taskref.analysis.options import Options

UTIL = textwrap.dedent('''\
    import asyncio

    def spawn(coro):
        return asyncio.get_running_loop().create_task(coro)

    def note(task):
        print(task.get_name() if task.done() else "running")

    class Worker:
        async def cancel_group(self, name):
            await asyncio.sleep(1)

    class Base:
        def __init__(self, worker: Worker) -> None:
            self._worker = worker
''')

USER = textwrap.dedent('''\
    import asyncio
    from util import Base, note

    async def job():
        await asyncio.sleep(1)

    def start():
        task = asyncio.create_task(job())
        note(task)

    class Service(Base):
        async def stop(self):
            await asyncio.shield(self._worker.cancel_group("all"))
''')


def _lines(text: str) -> List[str]:
    return text.splitlines(keepends=True)


def _summaries(options: Options) -> Tuple[ModuleSummary, ModuleSummary]:
    tree = ast.parse(UTIL)
    part = summarise(tree, options, "util.py", lines=_lines(UTIL))
    whole = summarise(tree, options, "util.py")
    return part, whole


class _View:
    """A project's view: summaries in part, and the whole ones when asked."""

    def __init__(self, part: ModuleSummary, whole: Optional[ModuleSummary]) -> None:
        self.part = {part.name: part}
        self.wholes = {} if whole is None else {whole.name: whole}
        self.asked: List[str] = []

    def __call__(self, name: str) -> Optional[ModuleSummary]:
        return self.part.get(name)

    def whole(self, name: str) -> Optional[ModuleSummary]:
        self.asked.append(name)
        return self.wholes.get(name)


def _findings(view: object) -> List[Tuple[int, int, str]]:
    options = with_words(Options.build(), ["spawn"])
    errors = lint_file(ast.parse(USER), _lines(USER), options, "user.py", view)  # type: ignore[arg-type]
    return [(e.lineno, e.col_offset, e.code) for e in errors]


def test_a_summary_in_part_enters_only_the_functions_that_name_a_spawner() -> None:
    part, whole = _summaries(Options.build())
    assert part.partial and not whole.partial
    entered: Dict[str, bool] = {name: info.entered for name, info in part.functions}
    assert entered == {"spawn": True, "note": False, "Worker.cancel_group": False, "Base.__init__": False}
    assert all(info.entered for _, info in whole.functions)
    # what the part entered, it knows as the whole does
    assert part.function("spawn") == whole.function("spawn")
    # what it did not: the whole knows that ``note`` only looks, that
    # ``cancel_group`` waits, and the type of ``Base._worker``
    assert whole.function("note").fates == ("look",)  # type: ignore[union-attr]
    assert part.function("note").fates == ()  # type: ignore[union-attr]
    assert whole.klass("Base").attrs == (("_worker", "util.Worker"),)  # type: ignore[union-attr]
    assert part.klass("Base").attrs == ()  # type: ignore[union-attr]
    assert ModuleSummary.from_json(part.to_json()) == part


def test_the_reader_asks_for_the_whole_summary_and_finds_the_same() -> None:
    part, whole = _summaries(Options.build())
    with_wholes = _View(part, whole)
    found = _findings(with_wholes)
    # the task only looked at by ``note`` (TRF002), and the shield of a
    # coroutine method of an attribute whose type the base writes down (TRF004)
    assert found == [(8, 11, "TRF002"), (13, 14, "TRF004")]
    assert found == _findings(_View(whole, None))  # as with whole summaries
    assert with_wholes.asked and set(with_wholes.asked) == {"util"}


def test_without_a_whole_summary_the_reader_stays_silent() -> None:
    part, _ = _summaries(Options.build())
    assert _findings(_View(part, None)) == []
