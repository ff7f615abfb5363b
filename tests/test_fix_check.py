"""The fixer reads and checks only the parts of a file it changes (issue 25):
its self-check still refuses a fix that changes anything but the keep-idiom,
in a method, at module level and between module-level statements, and what it
asks about the file's names still sees every spelling of them.

The self-check is internal (the command never shows a wrong fix), so it is
driven in process with a fixer made wrong on purpose."""
from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path
from typing import Any, List

import pytest

from flake8_taskref.analysis.api import lint_file
from flake8_taskref.analysis.options import Options
from flake8_taskref.fix import FixOptions
from flake8_taskref.fix import rewrite
from flake8_taskref.fix.rewrite import FixError, Site, fix_source
from tests.test_fix import command

SERVICE = """import asyncio


class Service:
    def __init__(self) -> None:
        self.n = 0

    async def run(self) -> None:
        pass

    class Inner:
        def start(self, s: "Service") -> None:
            asyncio.create_task(s.run())


def launch(s: Service) -> None:
    print(asyncio.create_task(s.run()))


loop = asyncio.new_event_loop()
loop.create_task(Service().run())
"""


def _sites(text: str) -> List[Site]:
    errors = lint_file(ast.parse(text), text.splitlines(True), Options.build())
    return [(e.lineno, e.col_offset, e.end_lineno, e.end_col_offset, e.code) for e in errors]


def _only(line: int) -> List[Site]:
    sites = [site for site in _sites(SERVICE) if site[0] == line]
    assert len(sites) == 1, _sites(SERVICE)
    return sites


@pytest.mark.parametrize("line", [13, 17, 21], ids=["nested class method", "function", "module level"])
def test_the_fix_as_written_passes_its_check(line: int) -> None:
    result = fix_source(SERVICE.encode(), _only(line), FixOptions(line_length=88))
    assert result.changed
    compile(result.source, "service.py", "exec")


@pytest.mark.parametrize("line", [13, 17, 21], ids=["nested class method", "function", "module level"])
def test_a_keep_line_that_does_more_is_refused(line: int, monkeypatch: Any) -> None:
    real = rewrite._keep_codes
    monkeypatch.setattr(rewrite, "_keep_codes", lambda edit: [*real(edit), f"{edit.handle}.cancel()"])
    with pytest.raises(FixError, match="does not give back the original program"):
        fix_source(SERVICE.encode(), _only(line), FixOptions(line_length=88))


@pytest.mark.parametrize("line", [13, 17, 21], ids=["nested class method", "function", "module level"])
def test_a_changed_spawn_is_refused(line: int, monkeypatch: Any) -> None:
    real = rewrite._statement_edits

    def changed(source: Any, writer: Any, edit: Any) -> Any:
        edits = real(source, writer, edit)
        return [(start, end, text.replace(".run()", ".run(1)")) for start, end, text in edits]

    monkeypatch.setattr(rewrite, "_statement_edits", changed)
    with pytest.raises(FixError, match="does not give back the original program"):
        fix_source(SERVICE.encode(), _only(line), FixOptions(line_length=88))


def test_a_module_set_that_does_more_is_refused(monkeypatch: Any) -> None:
    """The lines inserted between module-level statements are checked too."""
    real = rewrite._set_code
    monkeypatch.setattr(rewrite, "_set_code", lambda target, note: real(target, note) + "; print()")
    with pytest.raises(FixError, match="does not give back the original program"):
        fix_source(SERVICE.encode(), _only(17), FixOptions(line_length=88))


def test_names_in_another_spelling_are_seen(tmp_path: Path) -> None:
    """An identifier written in a spelling that Python normalises (NFKC:
    ``ſ`` is ``s``) is the same name: the fixer's search of the text for the
    names it would write finds it (the set and the handle get new names)."""
    source = (
        "import asyncio\n\n_background_taſks = None\ntick_taſk = None\n\n\n"
        "async def tick() -> None:\n    pass\n\n\n"
        "loop = asyncio.new_event_loop()\nloop.create_task(tick())\n"
    )
    (tmp_path / "mod.py").write_text(source, encoding="utf-8")
    proc = command("--isolated", "--fix", "mod.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    fixed = (tmp_path / "mod.py").read_text(encoding="utf-8")
    assert "\n_background_tasks_1: " in fixed and "\ntick_task_1 = loop.create_task(tick())\n" in fixed, fixed


def test_a_set_reused_from_a_large_file(tmp_path: Path) -> None:
    """An existing keep set is found, and its uses checked, however far from the
    site it is written (the fixer walks only the statements that name it)."""
    filler = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(2000))
    source = (
        "import asyncio\n\n_pending_tasks = set()\n\n\n" + filler
        + "async def tick():\n    pass\n\n\ndef start():\n    asyncio.create_task(tick())\n\n\n" + filler
        + "def more():\n    t = asyncio.ensure_future(tick())\n    _pending_tasks.add(t)\n"
        "    t.add_done_callback(_pending_tasks.discard)\n"
    )
    (tmp_path / "mod.py").write_text(source)
    shutil.copy(tmp_path / "mod.py", tmp_path / "reader.py")
    with (tmp_path / "reader.py").open("a") as handle:
        handle.write("\n\ndef count():\n    return len(_pending_tasks)\n")  # a reader: not reused
    proc = command("--isolated", "--fix", "mod.py", "reader.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "mod.py:8011:5: fixed TRF001 (kept in _pending_tasks)" in proc.stderr.splitlines()
    assert "reader.py:8011:5: fixed TRF001 (kept in _background_tasks)" in proc.stderr.splitlines()


@pytest.mark.parametrize("name", ["classes", "hoisted", "pragmas", "module_level"])
def test_a_tree_given_is_used_as_it_is(name: str) -> None:
    """``fix_source(..., tree=...)`` takes the lint's tree of the same text
    (and does not parse it again): the same fix, and the tree is left as it was."""
    data = (Path(__file__).parent / "data" / "fix" / f"{name}.py").read_bytes()
    text = data.decode("utf-8")
    tree = ast.parse(text)
    before = ast.dump(tree, include_attributes=True)
    sites = _sites(text)
    given = fix_source(data, sites, FixOptions(line_length=79), tree=tree)
    assert given.changed and given == fix_source(data, sites, FixOptions(line_length=79))
    assert ast.dump(tree, include_attributes=True) == before


def test_naming_asks_a_linear_number_of_questions(monkeypatch: Any) -> None:
    """Issue 33: each new name of a function with many sites of one coroutine
    counted up from ``job_task_1``, asking whether each name was taken: n sites
    asked n * n / 2 questions (8,000 sites: 32 million, most of a 54 s --diff).
    The count goes on from where it stopped: a few questions a site."""
    from flake8_taskref.fix import plan

    asked = [0]
    real = plan.Taken.__contains__

    def counted(self: plan.Taken, name: object) -> bool:
        asked[0] += 1
        return real(self, name)

    monkeypatch.setattr(plan.Taken, "__contains__", counted)
    sites = 600
    text = "import asyncio\n\n\nasync def job() -> None:\n    pass\n\n\nasync def main() -> None:\n"
    text += "    asyncio.create_task(job())\n" * sites
    result = fix_source(text.encode(), _sites(text))
    assert sum(outcome.fixed for outcome in result.outcomes) == sites
    new = result.source.decode()
    assert "job_task = " in new and f"job_task_{sites - 1} = " in new
    assert asked[0] <= 4 * sites, asked[0]


@pytest.mark.skipif(sys.version_info < (3, 10), reason="match needs Python 3.10")
def test_the_cases_of_a_match_share_a_name() -> None:
    """Issue 33: the cases of one ``match`` exclude each other, as the branches
    of an ``if`` do: one name serves them; a site after the ``match`` may run
    with either, so it gets a name of its own."""
    text = (
        "import asyncio\n\n\nasync def job() -> None:\n    pass\n\n\ndef start(kind: str) -> None:\n"
        "    match kind:\n"
        "        case 'a':\n            asyncio.create_task(job())\n"
        "        case _:\n            asyncio.create_task(job())\n"
        "    asyncio.create_task(job())\n"
    )
    new = fix_source(text.encode(), _sites(text)).source.decode()
    assert [line.strip() for line in new.splitlines() if " = asyncio.create_task" in line] == [
        "job_task = asyncio.create_task(job())",
        "job_task = asyncio.create_task(job())",
        "job_task_1 = asyncio.create_task(job())",
    ]


def test_the_self_check_makes_no_dump_of_its_trees(monkeypatch: Any) -> None:
    """Issue 33: the self-check compared ``ast.dump`` strings, of each spawn it
    bound (twice) and of the whole edited unit, undone and original (32,002
    dumps for 16,000 sites of one function, a fifth of the fix); it now
    compares the trees themselves (``verify.same``), and refuses what it refused."""
    dumped = [0]
    real = ast.dump

    def counted(node: ast.AST, *args: Any, **kwargs: Any) -> str:
        dumped[0] += 1
        return real(node, *args, **kwargs)

    monkeypatch.setattr(ast, "dump", counted)
    text = "import asyncio\n\n\nasync def job() -> None:\n    pass\n\n\nasync def main() -> None:\n"
    text += "    asyncio.create_task(job())\n" * 50
    result = fix_source(text.encode(), _sites(text))
    assert sum(outcome.fixed for outcome in result.outcomes) == 50
    assert dumped[0] == 0


def test_same_agrees_with_ast_dump() -> None:
    """``verify.same`` answers as a comparison of ``ast.dump`` strings does,
    on every pair of statements of the fixtures and the service above."""
    from flake8_taskref.fix.verify import same

    statements: List[ast.stmt] = []
    for path in sorted((Path(__file__).parent / "data").glob("*.py"))[:12]:
        try:
            statements += ast.parse(path.read_text(encoding="utf-8")).body[:40]
        except SyntaxError:
            continue
    statements += ast.parse(SERVICE).body + ast.parse(SERVICE).body  # equal trees, not the same objects
    statements += ast.parse("x = 1\nx = 1.0\nx = True\nx = '1'\nx = b'1'\nx = None\nx = ...\nx = 1\n").body
    dumps = [ast.dump(statement) for statement in statements]
    for one, dumped in zip(statements, dumps):
        for other, other_dumped in zip(statements, dumps):
            assert same(one, other) == (dumped == other_dumped)
    assert sum(dumps.count(dumped) for dumped in dumps) > len(dumps)
    assert same(statements, list(statements)) and not same(statements, statements[1:])


def test_statements_without_comments_are_not_tokenized(monkeypatch: Any) -> None:
    """Issue 33: each site's statement was tokenized for its comments (a third of
    the fix of 16,000 one-line spawns); one without ``#`` has none.  A comment
    is still found, and its codes resolved."""
    from flake8_taskref.fix import comments

    tokenized = [0]
    real = comments.tokenize.generate_tokens

    def counted(readline: Any) -> Any:
        tokenized[0] += 1
        return real(readline)

    monkeypatch.setattr(comments.tokenize, "generate_tokens", counted)
    text = "import asyncio\n\n\nasync def job() -> None:\n    pass\n\n\nasync def main() -> None:\n"
    text += "    asyncio.create_task(job())\n" * 20
    result = fix_source(text.encode(), _sites(text))
    assert sum(outcome.fixed for outcome in result.outcomes) == 20
    assert tokenized[0] == 0
    text += "    asyncio.create_task(job())  # a comment\n"
    assert "job_task_20 = asyncio.create_task(job())  # a comment\n" in fix_source(
        text.encode(), _sites(text)).source.decode()
    assert tokenized[0] >= 1
