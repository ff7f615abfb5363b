"""``--fix``: rewrite TRF001 and TRF002 sites with the keep-idiom, using LibCST.

The analysis decides *which* handles are lost (its findings are the input
here); this module only decides *how* to keep them, the way the asyncio docs
do: the task goes into a set and leaves it when done::

    task = asyncio.create_task(job())
    self._background_tasks.add(task)
    task.add_done_callback(self._background_tasks.discard)

Where the set lives (``plan.py`` decides):

* in a method of a class whose body defines ``__init__``: an attribute of the
  instance, reused when the class (or a base class in the file whose
  ``__init__`` it runs) already keeps tasks this way (``self.X.add(t)`` and
  ``add_done_callback(self.X.discard)``), else ``self._background_tasks``,
  created in ``__init__`` after its leading attribute assignments;
* anywhere else (module level, functions, nested functions, static and class
  methods, classes without ``__init__`` or with ``__slots__``): a module-level
  set, reused the same way, else ``_background_tasks``, defined once after the
  imports.  Its annotation follows the file (``annotations.py``).

A bare statement ``spawn(...)`` becomes ``name_task = spawn(...)`` plus the two
lines; a spawn inside a statement where nothing runs before it
(``spawn(...).add_done_callback(cb)``, ``print(spawn(...))``) moves to a line
of its own before it; a local binding ``t = spawn(...)`` (TRF002) gets the two
lines after it.  Everything else is left as it is and reported as not fixed,
with the reason.  LibCST keeps every other byte of the file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple, Union

try:
    import libcst as cst
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import AddImportsVisitor
    from libcst.metadata import MetadataWrapper
except ImportError as exc:  # pragma: no cover - exercised by the command's test
    raise ImportError(
        "flake8-taskref: --fix and --diff need LibCST: pip install 'flake8-taskref[fix]'"
    ) from exc

from flake8_taskref.fix.cst_nodes import STRINGS, collect, dotted, first_param, init_of  # noqa: E402
from flake8_taskref.fix.plan import Edit, Facts, Keeper, Planner, statement_of  # noqa: E402
from flake8_taskref.fix.annotations import Typing, add_name  # noqa: E402

__all__ = ["FIXABLE", "NEEDS_A_HUMAN", "Outcome", "FixResult", "fix_source"]

FIXABLE = ("TRF001", "TRF002")
NEEDS_A_HUMAN = {
    "TRF003": "needs a decision: cancel and await the task in 'finally', keep it in a set, "
    "or wait on both with asyncio.wait()",
    "TRF004": "needs a decision: store the task and shield the stored task",
    "TRF005": "needs a decision: cancel, await or store the 'pending' set",
    "TRF006": "needs a decision: where the collection should be pruned",
}


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


_IMPORT_RE = re.compile(r"^\s*(?:import|from)\s", re.M)


# ---------------------------------------------------------------- rewrite


def _statement(text: str, module: "cst.Module") -> "cst.SimpleStatementLine":
    parsed = cst.parse_statement(text + "\n", config=module.config_for_parsing)
    assert isinstance(parsed, cst.SimpleStatementLine)
    return parsed


def _set_statement(target: str, annotation: Optional[str], module: "cst.Module") -> "cst.SimpleStatementLine":
    if annotation is None:
        return _statement(f"{target} = set()", module)
    return _statement(f"{target}: {annotation} = set()", module)


def _leading_assignments(body: Sequence["cst.BaseStatement"], own: str) -> int:
    """Index after the docstring, ``super().__init__(...)`` and the plain
    ``self.x = ...`` assignments that open ``__init__``; an assignment whose value
    calls a method of the instance (which could start a task) ends them."""
    index = 0
    for index, statement in enumerate(body):
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            return index
        small = statement.body[0]
        if isinstance(small, cst.Expr) and isinstance(small.value, STRINGS):
            continue
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            func = small.value.func
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value == "__init__"
                and isinstance(func.value, cst.Call)
                and dotted(func.value.func) == "super"
            ):
                continue
            return index
        targets: List[cst.BaseExpression] = []
        if isinstance(small, cst.Assign):
            targets = [target.target for target in small.targets]
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            targets = [small.target]
        if not targets or not all(
            isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == own
            for t in targets
        ):
            return index
        if any(
            (dotted(call.func) or "").startswith(own + ".") for call in collect(small, cst.Call)
        ):
            return index
    return len(body)


def _module_insert_index(body: Sequence["cst.BaseStatement"]) -> int:
    """After the module's opening imports (and its docstring)."""
    after = 0
    for index, statement in enumerate(body):
        if isinstance(statement, cst.SimpleStatementLine):
            if any(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body):
                after = index + 1
            elif index == 0 and isinstance(statement.body[0], cst.Expr) and isinstance(
                statement.body[0].value, STRINGS
            ):
                after = 1
            continue
        if isinstance(statement, (cst.If, cst.Try)) and _IMPORT_RE.search(
            cst.Module(body=[statement]).code
        ) and not collect(statement, cst.FunctionDef) and not collect(statement, cst.ClassDef):
            after = index + 1
            continue
        break
    return after


class _Rewrite(cst.CSTTransformer):
    def __init__(self, planner: Planner, typing: Typing, new: List[Keeper]) -> None:
        super().__init__()
        self.planner = planner
        self.typing = typing
        self.module = planner.facts.module
        self.module_sets = [keeper for keeper in new if isinstance(keeper.owner, cst.Module)]
        self.inits: Dict[int, Tuple[Keeper, str]] = {}
        for keeper in new:
            if isinstance(keeper.owner, cst.ClassDef):
                init = init_of(keeper.owner)
                assert init is not None
                self.inits[id(init)] = (keeper, first_param(init) or "self")

    def leave_ImportFrom(
        self, original_node: "cst.ImportFrom", updated_node: "cst.ImportFrom"
    ) -> "cst.ImportFrom":
        for target, names in self.typing.merges.values():
            if original_node is target:
                for name in names:
                    updated_node = add_name(updated_node, name)
        return updated_node

    def leave_SimpleStatementLine(
        self, original_node: "cst.SimpleStatementLine", updated_node: "cst.SimpleStatementLine"
    ) -> Union["cst.BaseStatement", "cst.FlattenSentinel[cst.BaseStatement]"]:
        edit = self.planner.edits.get(id(original_node))
        if edit is None:
            return updated_node
        handle, receiver = edit.handle, edit.receiver
        keep = [
            _statement(f"{receiver}.add({handle})", self.module),
            _statement(f"{handle}.add_done_callback({receiver}.discard)", self.module),
        ]
        if edit.form == "bind":
            return cst.FlattenSentinel([updated_node, *keep])
        bind = cst.Assign(targets=[cst.AssignTarget(target=cst.Name(handle))], value=edit.spawn)
        if edit.form == "bare":  # the line becomes the binding, comments and all
            return cst.FlattenSentinel([original_node.with_changes(body=[bind]), *keep])
        # hoist: the spawn moves to a line of its own; the statement keeps its
        # comment and uses the handle (nothing inside a simple statement was rewritten)
        first = cst.SimpleStatementLine(body=[bind], leading_lines=original_node.leading_lines)
        replaced = original_node.deep_replace(edit.spawn, cst.Name(handle))
        rest = cst.ensure_type(replaced, cst.SimpleStatementLine)
        return cst.FlattenSentinel([first, *keep, rest.with_changes(leading_lines=[])])

    def leave_FunctionDef(
        self, original_node: "cst.FunctionDef", updated_node: "cst.FunctionDef"
    ) -> "cst.FunctionDef":
        planned = self.inits.get(id(original_node))
        if planned is None:
            return updated_node
        keeper, own = planned
        block = updated_node.body
        assert isinstance(block, cst.IndentedBlock)
        statement = _set_statement(f"{own}.{keeper.name}", keeper.annotation, self.module)
        index = _leading_assignments(block.body, own)
        body = [*block.body[:index], statement, *block.body[index:]]
        return updated_node.with_changes(body=block.with_changes(body=body))

    def leave_Module(self, original_node: "cst.Module", updated_node: "cst.Module") -> "cst.Module":
        new = [
            _set_statement(keeper.name, keeper.annotation, self.module)
            for keeper in self.module_sets
        ]
        if not new:
            return updated_node
        index = _module_insert_index(original_node.body)
        for position, statement in enumerate(original_node.body):
            if id(statement) in self.planner.module_sites:  # holds a spawn run at import
                index = min(index, position)
                break
        if index > 0:
            new[0] = new[0].with_changes(leading_lines=[cst.EmptyLine()])
        body = list(updated_node.body)
        if index < len(body) and not body[index].leading_lines:
            # a blank line after the set too
            body[index] = body[index].with_changes(leading_lines=[cst.EmptyLine()])
        return updated_node.with_changes(body=[*body[:index], *new, *body[index:]])


def fix_source(data: bytes, sites: Sequence[Tuple[int, int, int, str]]) -> FixResult:
    """Rewrite the findings ``(line, col_offset, char_offset, code)`` of one file:
    the column as ast counts it (UTF-8 bytes from 0, for messages) and as LibCST
    does (characters from 0, to find the call).  Returns the new bytes and what
    happened to each finding; sites of other codes are reported as left."""
    module = cst.parse_module(data)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    facts = Facts(module, wrapper)
    planner = Planner(facts)
    outcomes: List[Outcome] = []
    planned: List[Tuple[Tuple[int, int, str], Edit]] = []
    for line, col_offset, char_offset, code in sites:
        col = col_offset + 1
        if code not in FIXABLE:
            outcomes.append(Outcome(line, col, code, False, NEEDS_A_HUMAN.get(code, "not fixable")))
            continue
        start = (line, char_offset)
        call = facts.calls.get(start)
        if call is None:
            why = (
                "the spawner itself is passed on as a callback: no statement to extend"
                if start in facts.callables
                else "could not find the call in the source"
            )
            outcomes.append(Outcome(line, col, code, False, why))
            continue
        form, detail = statement_of(facts, code, call)
        if form is None:
            outcomes.append(Outcome(line, col, code, False, detail or "not fixable"))
            continue
        small = facts.parent(call)
        while not isinstance(small, cst.SimpleStatementLine):
            assert small is not None
            small = facts.parent(small)
        if id(small) in planner.edits:
            outcomes.append(Outcome(line, col, code, False, "another fix rewrites this line"))
            continue
        keeper, receiver = planner.keeper_for(small)
        if isinstance(facts.enclosing(small), cst.Module):
            top: cst.CSTNode = small
            while not isinstance(facts.parent(top), cst.Module):
                parent = facts.parent(top)
                assert parent is not None
                top = parent
            planner.module_sites.add(id(top))
        if _callee_name(call) == "ensure_future":
            keeper.future = True
        handle = detail if form == "bind" and detail is not None else planner.handle_for(small, call)
        edit = Edit(call, form, keeper, receiver, handle)
        planner.edits[id(small)] = edit
        planned.append(((line, col, code), edit))
    typing = Typing(module)
    new = planner.new_keepers()
    for keeper in new:
        keeper.annotation = typing.annotation(keeper.future, isinstance(keeper.owner, cst.Module))
    typing.plan_imports()
    new_module = module.visit(_Rewrite(planner, typing, new))
    if typing.imports:
        context = CodemodContext()
        for source, name in typing.imports:
            if name is None:
                AddImportsVisitor.add_needed_import(context, source)
            else:
                AddImportsVisitor.add_needed_import(context, source, name)
        new_module = AddImportsVisitor(context).transform_module(new_module)
    for (line, col, code), edit in planned:
        outcomes.append(Outcome(line, col, code, True, f"kept in {edit.receiver}"))
    outcomes.sort(key=lambda o: (o.line, o.col, o.code))
    return FixResult(new_module.bytes if planned else data, outcomes)


def _callee_name(call: "cst.Call") -> Optional[str]:
    name = dotted(call.func)
    return None if name is None else name.rsplit(".", 1)[-1]
