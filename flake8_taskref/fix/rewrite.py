"""``--fix``: keep the tasks of TRF001 and TRF002 sites with the keep-idiom.

The analysis decides *which* handles are lost (its findings are the input
here); this package only decides *how* to keep them, the way the asyncio docs
do: the task goes into a set and leaves it when done::

    _background_tasks: set[asyncio.Task[object]] = set()
    ...
    job_task = asyncio.create_task(job())
    _background_tasks.add(job_task)
    job_task.add_done_callback(_background_tasks.discard)

A fix changes one thing, whether the task can be collected: the same
expressions are evaluated in the same order, the same number of times, and
nothing else in the file changes (comments, formatting, imports: none is
added).  ``plan.py`` decides which sites can be fixed that way and which set
keeps each task (a module-level set by default; ``--fix-keep instance``: a
set on the instance, see ``classes.py``); ``annotations.py`` spells a new
set's type with the names the file has; ``lines.py`` breaks a line that
becomes too long as Black would.

The file is read once by ``ast`` and changed by inserting lines and splicing
text at the positions ``ast`` gives (``source.py``): every byte that is not
part of the fix stays as it was.  Before anything is written the fix checks
itself (``verify.py``): undone, it must give back the original program, node
for node.  (LibCST, used before, costs four times its own parse to read
positions and parents and to rewrite a module; this costs less than one.)
"""
from __future__ import annotations

import ast
import gc
import importlib.util
from dataclasses import dataclass, field
from typing import List, NamedTuple, Optional, Sequence, Tuple

from flake8_taskref.fix import FIXABLE, FixOptions
from flake8_taskref.fix.annotations import Typing
from flake8_taskref.fix.comments import comments, line_bound, resolve
from flake8_taskref.fix.lines import fit, multiline_string, too_long, width
from flake8_taskref.fix.nodes import FUNCTIONS, first_param, is_docstring
from flake8_taskref.fix.plan import Edit, Facts, Keeper, Planner, Taken, statement_of
from flake8_taskref.fix.source import Edit as TextEdit
from flake8_taskref.fix.source import Source
from flake8_taskref.fix.verify import FixError, Tagged, check


def _has_black() -> bool:
    try:
        return importlib.util.find_spec("black") is not None
    except (ImportError, ValueError):  # hidden, or a broken installation
        return False


if not _has_black():  # say at once which extra is missing (Black is imported only when needed)
    raise ImportError("flake8-taskref: --fix and --diff need Black: pip install 'flake8-taskref[fix]'")

__all__ = ["FIXABLE", "NEEDS_A_HUMAN", "FixError", "Outcome", "FixResult", "fix_source", "Site"]

# spawners that return an asyncio.Task (the set is then typed as one); the others
# (ensure_future, gather, shield, helpers) return a Future
_MAKE_TASKS = frozenset({"create_task", "Task"})
NEEDS_A_HUMAN = {
    "TRF003": "needs a decision: cancel and await the task in 'finally', keep it in a set, "
    "or wait on both with asyncio.wait()",
    "TRF004": "needs a decision: store the task and shield the stored task",
    "TRF005": "needs a decision: cancel, await or store the 'pending' set",
    "TRF006": "needs a decision: where the collection should be pruned",
    "TRF007": "needs a decision: finish the task on the path that leaves (cancel and await it), or keep it",
    "TRF008": "needs a decision: cancel and await the tasks in 'finally', use a TaskGroup, "
    "or return_exceptions=True and check the results",
    "TRF009": "needs a decision: await the task after cancel() (in a coroutine), or keep it until it is done",
    "TRF010": "needs a decision: cancel the tasks in 'finally' (and wait for them), or use a TaskGroup",
}

# (line, col_offset, end line, end col_offset, code): where a finding's node is,
# as ``ast`` counts (columns in UTF-8 bytes).
Site = Tuple[int, int, int, int, str, str]  # ``project.check.Site``


@dataclass(frozen=True)
class Outcome:
    """What happened to one finding."""

    line: int
    col: int  # 1-based, as reported
    code: str
    fixed: bool
    detail: str  # where the task is kept now, or why it was left


@dataclass
class FixResult:
    source: bytes
    outcomes: List[Outcome] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(outcome.fixed for outcome in self.outcomes)


def _indent_unit(source: Source) -> str:
    """The file's indentation step: the first indented line's (tabs, or its spaces)."""
    for line in source.lines:
        stripped = line.lstrip(" \t")
        if stripped.strip() and not stripped.startswith("#") and stripped != line:
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else " " * min(len(lead), 8)
    return "    "


class _Writer:
    """Text of new and changed statements, fitted to the project's line length
    (broken as Black would where they are too long)."""

    def __init__(self, source: Source, options: FixOptions) -> None:
        self.source = source
        self.limit = options.line_length
        self.unit = _indent_unit(source)
        self.newline = source.newline

    def statement(self, code: str, indent: str, floor: int = 0) -> str:
        """One statement at ``indent`` (its first line unindented; its other
        lines as they are), broken where it is too long.  ``floor``: the width
        of the longest line of the statement it changes, which the file already
        accepts (a limit the file does not follow must not reflow its lines)."""
        limit = max(self.limit, floor)
        if not too_long(code, indent, limit):
            return code  # as it is (a statement of the file keeps its own line ends)
        code = code.replace("\r\n", "\n").replace("\r", "\n")
        return fit(code + "\n", indent, limit, self.unit).rstrip("\n").replace("\n", self.newline)

    def lines(self, codes: Sequence[str], indent: str) -> str:
        """New statements, each on lines of its own, at ``indent``."""
        return "".join(indent + self.statement(code, indent) + self.newline for code in codes)


def _set_code(target: str, annotation: Optional[str]) -> str:
    return f"{target} = set()" if annotation is None else f"{target}: {annotation} = set()"


def _keep_codes(edit: Edit) -> List[str]:
    return [f"{edit.receiver}.add({edit.handle})",
            f"{edit.handle}.add_done_callback({edit.receiver}.discard)"]


def _release_code(edit: Edit) -> str:
    """A new name lets the task go once the statement is over: the set alone
    keeps it, and only while it runs (a name that lived on to the end of the
    function would keep a finished task, and its exception unreported)."""
    return f"del {edit.handle}"


def _after_line(source: Source, lineno: int, text: str) -> TextEdit:
    """Insert whole lines after line ``lineno`` (which may lack a line end: the
    file's last line)."""
    end = source.line_end(lineno)
    if lineno <= len(source.lines) and not source.lines[lineno - 1].endswith(("\n", "\r")):
        return (end, end, source.newline + text[: -len(source.newline)])
    return (end, end, text)


class _Text(NamedTuple):
    """A statement's text (from its start to the end of its last line) with the
    codes the fix resolves taken out of its comments."""

    text: str
    removed: List[str]  # what was taken out of which pragma
    bound: Optional[str]  # a pragma left that must stay on the line of its code


def statement_text(source: Source, statement: ast.stmt) -> _Text:
    start = source.offset(statement.lineno, statement.col_offset)
    end_line = statement.end_lineno or statement.lineno
    text = source.text[start: source.line_start(end_line) + len(source.line(end_line))]
    found = comments(text)
    if not found:
        return _Text(text, [], None)
    lines = text.splitlines(True)
    removed: List[str] = []
    bound: Optional[str] = None
    for index, begin, end in reversed(found):
        line = lines[index]
        new, changed = resolve(line[begin:end])
        removed[:0] = changed
        if changed:
            head = line[:begin] if new else line[:begin].rstrip(" \t\f")
            lines[index] = head + new + line[end:]
        bound = line_bound(new) or bound
    return _Text("".join(lines), removed, bound)


def _statement_edits(source: Source, writer: _Writer, edit: Edit) -> List[TextEdit]:
    statement = edit.statement
    indent = source.indent(statement.lineno)
    start = source.offset(statement.lineno, statement.col_offset)
    end_line = statement.end_lineno or statement.lineno
    # to the end of the statement's last line: its comment moves with it
    stop = source.line_start(end_line) + len(source.line(end_line))
    call = edit.spawn
    if edit.form == "bind":  # the user's own name holds the task as it did before
        return [_after_line(source, end_line, writer.lines(_keep_codes(edit), indent))]
    release = writer.lines([_release_code(edit)], indent)
    keep = writer.lines(_keep_codes(edit), indent)
    floor = max(width(source.line(n).rstrip("\r\n")) for n in range(statement.lineno, end_line + 1))
    text, removed, bound = statement_text(source, statement)
    if removed:
        them = "them" if len(removed) > 1 else "it"
        edit.notes.append(f"removed {' and '.join(removed)}: the fix resolves {them}")
    if edit.form in ("bare", "rename"):  # the statement becomes the binding, its comment and all
        if edit.form == "bare":
            value = text
        else:  # ``_ = spawn(...)``: the task gets a name of its own
            target = edit.statement.targets[0]  # type: ignore[attr-defined]
            after = source.offset(target.end_lineno or target.lineno, target.end_col_offset or 0)
            value = text[after - start:].lstrip(" \t\f")[1:].lstrip(" \t\f")  # after "="
        code = f"{edit.handle} = {value}"
        if bound is not None:
            code = _pragma_bound(writer, edit, code, value, indent, floor, bound)
        else:
            code = writer.statement(code, indent, floor)
        return [(start, stop, code), _after_line(source, end_line, keep + release)]
    # hoist: the spawn moves to a line of its own before the statement, which
    # uses the handle in its place (the spawn is on one line, and no pragma is
    # on it: plan.py, rewrite.py)
    call_start = source.offset(call.lineno, call.col_offset) - start
    call_end = source.offset(call.end_lineno or call.lineno, call.end_col_offset or 0) - start
    bind = f"{edit.handle} = {text[call_start:call_end]}"
    line_start = source.line_start(statement.lineno)
    rest = text[:call_start] + edit.handle + text[call_end:]
    return [
        (line_start, line_start, indent + writer.statement(bind, indent, floor) + source.newline + keep),
        (start, stop, writer.statement(rest, indent, floor)),
        _after_line(source, end_line, release),
    ]


def _pragma_bound(
    writer: _Writer, edit: Edit, code: str, value: str, indent: str, floor: int, pragma: str,
) -> str:
    """A binding whose statement carries a comment that must stay on the line of
    the code it covers (``# type: ignore[...]``): never broken by Black (which
    would move the comment to another line).  Too long, the value is wrapped in
    parentheses, its lines as they were, one step deeper (unless a string spans
    them); too long even so, it stays as it is."""
    limit = max(writer.limit, floor)
    if not too_long(code, indent, limit):
        return code
    lines = value.splitlines(True)
    if len(lines) == 1 or not multiline_string(value):
        inner = "".join(
            (indent if index == 0 else "") + (writer.unit + line if line.strip() else line)
            for index, line in enumerate(lines)
        )
        wrapped = f"{edit.handle} = ({writer.newline}{inner}{writer.newline}{indent})"
        if not too_long(wrapped, indent, limit):
            edit.notes.append(f"'{pragma}' kept on one line with the code it covers, in parentheses")
            return wrapped
    longest = max(width(line) for line in (indent + code).splitlines())
    had = f"; the statement had {floor}" if floor > writer.limit else ""
    edit.notes.append(
        f"a line left {longest} columns wide (limit {writer.limit}{had}): '{pragma}' must stay on one "
        "line with the code it covers"
    )
    return code


def _module_anchor(facts: Facts, planner: Planner) -> Tuple[int, bool]:
    """Where the module set is created: after the module's last top-level
    statement that imports (an import, or an ``if``/``try`` holding one) before
    its first function or class, so that no import comes after it (which would
    make pycodestyle's and Ruff's E402 report it), and after the docstring; or,
    when a spawn runs at import before that, or the module opens with code,
    before a statement.  (index in the module's body, after it?)"""
    body = facts.tree.body
    after = 0
    for index, statement in enumerate(body):
        if isinstance(statement, (*FUNCTIONS, ast.ClassDef)):
            break
        if isinstance(statement, (ast.Import, ast.ImportFrom)) or (index == 0 and is_docstring(statement)):
            after = index + 1
        elif isinstance(statement, (ast.If, ast.Try)) and _imports(statement):
            after = index + 1
    for index, statement in enumerate(body[:after]):
        if id(statement) in planner.module_sites:  # a spawn runs at import
            return index, False
    if after == 0:
        return 0, False
    return after - 1, True


def _imports(statement: ast.stmt) -> bool:
    """Does an ``if``/``try`` import something (at its own level, not in a
    function or class it defines)?"""
    todo: List[ast.AST] = [statement]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return True
        if not isinstance(node, (*FUNCTIONS, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def _first_line(source: Source, statement: ast.stmt) -> int:
    """The first line of a statement with the comment lines right above it
    (they belong to it), but not a shebang or coding line at the top."""
    decorators: List[ast.expr] = getattr(statement, "decorator_list", [])
    first = min([statement.lineno, *(decorator.lineno for decorator in decorators)])
    while first > 1 and source.line(first - 1).lstrip().startswith("#"):
        if first - 1 <= 2 and (source.line(first - 1).startswith("#!") or "coding" in source.line(first - 1)):
            break
        first -= 1
    return first


def _module_set_edit(facts: Facts, planner: Planner, writer: _Writer, keeper: Keeper) -> TextEdit:
    source = facts.source
    newline = source.newline
    line = writer.lines([_set_code(keeper.name, keeper.annotation)], "")
    index, after = _module_anchor(facts, planner)
    body = facts.tree.body
    if after:  # one blank line after the imports, as isort and Ruff want it
        last = body[index].end_lineno or body[index].lineno
        following = source.line(last + 1) if last < len(source.lines) else ""
        text = newline + line + (newline if following.strip() else "")
        return _after_line(source, last, text)
    if not body:
        return (len(source.text), len(source.text), line)
    anchor = body[index]
    first = _first_line(source, anchor)
    blank = 2 if isinstance(anchor, (*FUNCTIONS, ast.ClassDef)) else 1
    before = newline if first > 1 and source.line(first - 1).strip() else ""
    at = source.line_start(first)
    return (at, at, before + line + newline * blank)


def _init_set_edit(facts: Facts, writer: _Writer, keeper: Keeper) -> TextEdit:
    source = facts.source
    init = keeper.init
    assert init is not None
    own = first_param(init) or "self"
    code = _set_code(f"{own}.{keeper.name}", keeper.annotation)
    if keeper.index < len(init.body):
        anchor = init.body[keeper.index]
        indent = source.indent(anchor.lineno)
        at = source.line_start(_first_line(source, anchor))
        return (at, at, writer.lines([code], indent))
    last = init.body[-1]
    lines = writer.lines([code], source.indent(last.lineno))
    return _after_line(source, last.end_lineno or last.lineno, lines)


def _annotation(facts: Facts, planner: Planner, options: FixOptions, keeper: Keeper) -> Optional[str]:
    """A new set's annotation: a module set's uses the names imported before it
    (it is evaluated there), and is written even in a file without annotations
    (mypy checks module-level code of any file, and ``x = set()`` there is its
    error "Need type annotation"); an instance set's is not evaluated, and an
    untyped ``__init__`` gets none (its body is not type-checked)."""
    body = facts.tree.body
    if keeper.init is None:
        index, after = _module_anchor(facts, planner)
        body = body[: index + 1 if after else index]
    else:
        args = keeper.init.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        if keeper.init.returns is None and not any(a is not None and a.annotation for a in every):
            return None
    # (an __init__ with annotations is in a file with annotations)
    typing = Typing(body, facts.source.text, True, options.min_python, Taken(facts.bound_anywhere))
    return typing.annotation(keeper.future, keeper.init is None, keeper.concurrent)


def fix_source(
    data: bytes, sites: Sequence[Site], options: FixOptions = FixOptions(), tree: Optional[ast.Module] = None,
) -> FixResult:
    """Rewrite the TRF001/TRF002 findings at ``sites`` of one file.  Returns
    the new bytes and what happened to each finding; sites of other codes are
    reported as left.  ``tree``: what ``ast.parse`` gave for the same text
    (the lint's; it is only read), which the fixer then does not parse again:
    that parse is most of what a fix of a large file costs beyond its lint."""
    # Many small objects that live until the fix ends (the tree, its parents):
    # the cyclic collector would scan them again and again (superlinear on big
    # files), and they hold no cycles.  It is paused, as for the analysis.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _fix_source(data, sites, options, tree)
    except RecursionError:  # ast.parse took it, but checking the fix recurses
        raise FixError("the file is nested too deeply to fix") from None
    finally:
        if enabled:
            gc.enable()


def _fix_source(
    data: bytes, sites: Sequence[Site], options: FixOptions, tree: Optional[ast.Module],
) -> FixResult:
    source = Source(data)
    if tree is None:
        tree = ast.parse(source.text)
    facts = Facts(tree, source)
    planner = Planner(facts, options.keep)
    outcomes: List[Outcome] = []
    planned: List[Tuple[Tuple[int, int, str], Edit]] = []
    for site in sites:
        line, col_offset, end_line, end_col, code = site[:5]
        col = col_offset + 1
        if code not in FIXABLE:
            outcomes.append(Outcome(line, col, code, False, NEEDS_A_HUMAN.get(code, "not fixable")))
            continue
        if len(site) > 5 and site[5]:  # the analysis knows why it must be left
            outcomes.append(Outcome(line, col, code, False, site[5]))
            continue
        where = (line, col_offset, end_line, end_col)
        call, passed_on = facts.site(where)
        if call is None:
            why = (
                "the spawner itself is passed on as a callback: no statement to extend"
                if passed_on
                else "could not find the call in the source"
            )
            outcomes.append(Outcome(line, col, code, False, why))
            continue
        if facts.set_shadowed:  # the new set would be made by calling something else
            outcomes.append(Outcome(line, col, code, False, "the file binds the name 'set'"))
            continue
        form, detail, statement = statement_of(facts, code, call)
        if form is None or statement is None:
            outcomes.append(Outcome(line, col, code, False, detail or "not fixable"))
            continue
        if form == "hoist":
            pragma = statement_text(source, statement).bound
            if pragma is not None:  # it may cover code of both statements the fix would make
                why = f"the spawn would move off the line of '{pragma}', which may cover it"
                outcomes.append(Outcome(line, col, code, False, why))
                continue
        if id(statement) in planner.edits:
            outcomes.append(Outcome(line, col, code, False, "another fix rewrites this line"))
            continue
        keeper, receiver, why_module = planner.keeper_for(statement)
        if isinstance(facts.enclosing(statement), ast.Module):
            top = facts.top(statement)
            if not keeper.new and not planner.defined_before(keeper, top):
                outcomes.append(Outcome(line, col, code, False,
                                        f"the set {keeper.name} is created after this line runs"))
                continue
            planner.module_sites.add(id(top))
        made_by = getattr(call.func, "attr", None) or getattr(call.func, "id", None)
        if made_by == "run_coroutine_threadsafe":
            if not keeper.new and keeper.holds != "untyped":
                outcomes.append(Outcome(line, col, code, False,
                                        f"the set {keeper.name} is typed for asyncio's tasks and futures, "
                                        "and this makes a concurrent.futures.Future"))
                continue
            keeper.concurrent = True
        if made_by not in _MAKE_TASKS:
            if keeper.holds == "tasks":  # an existing set typed Task[object]
                outcomes.append(Outcome(line, col, code, False,
                                        f"the set {keeper.name} is typed for tasks, and this makes a future"))
                continue
            keeper.future = True  # ensure_future(), gather(), shield(), a helper: a Future
        handle = detail if form == "bind" else ""  # named below, with the other sites of its scope
        edit = Edit(call, statement, form, keeper, receiver, handle, why_module)
        planner.edits[id(statement)] = edit
        planned.append(((line, col, code), edit))
    if planned:
        planner.name_handles([edit for _, edit in planned])
        writer = _Writer(source, options)
        edits: List[Tagged] = []  # each with the unit it is in (verify.py)
        new = planner.new_keepers()
        for keeper in new:
            keeper.annotation = _annotation(facts, planner, options, keeper)
            if keeper.init is not None:
                edits.append((facts.unit_of(keeper.init), _init_set_edit(facts, writer, keeper)))
            else:  # between module-level statements
                edits.append((None, _module_set_edit(facts, planner, writer, keeper)))
        units: List[Tuple[ast.stmt, Edit]] = []
        for (line, col, code), edit in planned:
            unit = facts.unit_of(edit.statement)
            units.append((unit, edit))
            edits += [(unit, text_edit) for text_edit in _statement_edits(source, writer, edit)]
            detail = f"kept in {edit.receiver}"
            if edit.why_module:
                detail += f", a module set: {edit.why_module}"
            detail = "; ".join([detail, *edit.notes])
            outcomes.append(Outcome(line, col, code, True, detail))
        text = source.apply([text_edit for _, text_edit in edits])
        check(source, edits, units, new)
        data = source.encode(text)
    outcomes.sort(key=lambda o: (o.line, o.col, o.code))
    return FixResult(data, outcomes)
