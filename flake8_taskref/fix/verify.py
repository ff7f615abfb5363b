"""The fix checks itself: undone, it must give back the original program.

What the fix changed is parsed again: each unit of the file it edited (a
module-level statement, or a statement of a class body: ``units.py``), with its
edits, and each group of lines it inserted between module-level statements
(the new set).  The statements the fix added are taken out (the new sets,
``S.add(t)``, ``t.add_done_callback(S.discard)``, ``del t``), each binding it made is
turned back into what it replaced (``t = spawn(...)`` becomes the statement
``spawn(...)``; a hoisted binding goes back into the statement that uses
``t``).  What is left must be the original unit, node for node (``same``: what
``ast.dump`` shows, compared without making the strings):
the same expressions, in the same order, the same number of times; an
insertion must leave nothing.  Every other byte of the file is as it was, so
the file is the original program (parsing and dumping the whole file again, as
this did before issue 25, cost more than the fix of a large file).  A fix that
fails this is not written.
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Sequence, Set, Tuple

from flake8_taskref.fix.nodes import dotted, first_param
from flake8_taskref.fix.plan import Edit, Keeper
from flake8_taskref.fix.source import Edit as TextEdit
from flake8_taskref.fix.source import Source
from flake8_taskref.fix.units import first_line

# A text edit and the unit it is in (None: between module-level statements).
Tagged = Tuple[Optional[ast.stmt], TextEdit]


class FixError(Exception):
    """The fix would change more than whether the task can be collected."""


def same(first: object, second: object) -> bool:
    """Are two trees (nodes, lists of nodes) equal as ``ast.dump`` shows them:
    the same types and fields, node for node, and the same ``repr`` of each
    value (positions left out)?  ``ast.dump`` of both and a comparison of the
    strings gave the same answer at several times the cost (issue 33: the
    self-check of 16,000 sites dumped 32,000 nodes and two whole functions)."""
    stack = [(first, second)]
    pop, push, extend, node = stack.pop, stack.append, stack.extend, ast.AST
    while stack:
        one, other = pop()
        if one is other:
            continue
        if isinstance(one, node):
            if type(one) is not type(other):
                return False
            for name in one._fields:
                push((getattr(one, name, None), getattr(other, name, None)))
        elif isinstance(one, list):
            if not isinstance(other, list) or len(one) != len(other):
                return False
            extend(zip(one, other))
        elif isinstance(other, (node, list)) or repr(one) != repr(other):
            return False
    return True


def _simple_binding(statement: ast.stmt) -> Optional[Tuple[ast.Name, ast.expr]]:
    """``name = value``: (the name, the value); None for any other statement."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Name):
            return target, statement.value
    return None


class _Undo(ast.NodeTransformer):
    def __init__(self, edits: List[Edit], new: List[Keeper]) -> None:
        self.keep: Set[Tuple[str, Optional[str]]] = {(e.handle, e.receiver) for e in edits}
        # the bindings the fix made: a name (fresh in its scope) and the spawns it binds
        self.bound: Dict[str, List[ast.expr]] = {}
        # ``_ = spawn(...)`` whose ``_`` became the task's name
        self.renamed: Dict[str, List[ast.expr]] = {}
        for e in edits:
            if e.form in ("bare", "hoist", "rename"):
                (self.renamed if e.form == "rename" else self.bound).setdefault(e.handle, []).append(e.spawn)
        # the new names, each released by a ``del`` after its statement
        self.released: Set[str] = {e.handle for e in edits if e.form != "bind"}
        self.sets: Set[str] = set()
        for keeper in new:
            own = None if keeper.init is None else first_param(keeper.init) or "self"
            self.sets.add(keeper.name if own is None else f"{own}.{keeper.name}")
        self.hoisted: Dict[str, ast.expr] = {}

    def _added(self, statement: ast.stmt) -> bool:
        """A statement the fix added: a keep line, a release or a new set."""
        if isinstance(statement, ast.Delete) and len(statement.targets) == 1:
            target = statement.targets[0]
            return isinstance(target, ast.Name) and target.id in self.released
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            call = statement.value
            func = call.func
            if not isinstance(func, ast.Attribute) or len(call.args) != 1 or call.keywords:
                return False
            arg = call.args[0]
            if func.attr == "add" and isinstance(arg, ast.Name):
                return (arg.id, dotted(func.value)) in self.keep
            if func.attr == "add_done_callback" and isinstance(func.value, ast.Name):
                if isinstance(arg, ast.Attribute) and arg.attr == "discard":
                    return (func.value.id, dotted(arg.value)) in self.keep
            return False
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        else:
            return False
        new_set = isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "set"
        return new_set and dotted(target) in self.sets

    def _body(self, statements: List[ast.stmt]) -> List[ast.stmt]:
        kept = [statement for statement in statements if not self._added(statement)]
        out: List[ast.stmt] = []
        for index, statement in enumerate(kept):
            simple = _simple_binding(statement)
            if simple is not None and _made(self.renamed, *simple):
                simple[0].id = "_"
                out.append(self.visit(statement))
                continue
            if simple is not None and _made(self.bound, *simple):
                handle, value = simple[0].id, simple[1]
                following = kept[index + 1] if index + 1 < len(kept) else None
                if following is not None and any(
                    isinstance(node, ast.Name) and node.id == handle for node in ast.walk(following)
                ):
                    self.hoisted[handle] = value  # back into the statement that uses it
                else:
                    out.append(ast.Expr(value=value))  # the statement it was
                continue
            out.append(self.visit(statement))
        return out

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for name, value in ast.iter_fields(node):
            if isinstance(value, list) and value and all(isinstance(item, ast.stmt) for item in value):
                setattr(node, name, self._body(value))
            elif isinstance(value, list):
                setattr(node, name, [self.visit(i) if isinstance(i, ast.AST) else i for i in value])
            elif isinstance(value, ast.AST):
                setattr(node, name, self.visit(value))
        return node

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.hoisted:
            return self.hoisted.pop(node.id)
        return node


def _made(bindings: Dict[str, List[ast.expr]], name: ast.Name, value: ast.expr) -> bool:
    """Is ``name = value`` one of these bindings the fix made?"""
    return any(same(value, spawn) for spawn in bindings.get(name.id, ()))


def check(
    source: Source, tagged: Sequence[Tagged], planned: Sequence[Tuple[ast.stmt, Edit]], new: List[Keeper],
) -> None:
    """Raise FixError unless each edited unit, undone, is the original unit,
    and each insertion between module-level statements, undone, is nothing.
    ``planned``: each site's edit with the unit it is in."""
    units: Dict[int, Tuple[ast.stmt, List[TextEdit]]] = {}
    for unit, text_edit in tagged:
        if unit is None:  # lines between module-level statements
            _same(_parse(text_edit[2]), [], [], new)
        else:
            units.setdefault(id(unit), (unit, []))[1].append(text_edit)
    edits: Dict[int, List[Edit]] = {}
    for unit, edit in planned:
        edits.setdefault(id(unit), []).append(edit)
    for unit, unit_edits in units.values():
        start = source.line_start(first_line(unit))
        end = source.line_end(unit.end_lineno or unit.lineno)
        if len(source.indent(first_line(unit))) != unit.col_offset:  # ``a = 1; def f(): ...``
            raise FixError("the edited statement shares its first line with another")
        text = _apply(source.text, start, end, unit_edits)
        _same(_parse(text), [unit], edits.get(id(unit), []), new)


def _apply(text: str, start: int, end: int, edits: List[TextEdit]) -> str:
    """``text[start:end]`` with ``edits`` (offsets in ``text``, within it) made."""
    pieces: List[str] = []
    done = start
    ordered = sorted(enumerate(edits), key=lambda item: (item[1][0], item[1][1], item[0]))
    for _, (at, stop, piece) in ordered:
        if not start <= at <= stop <= end or at < done:
            raise FixError("an edit is outside its statement")
        pieces += [text[done:at], piece]
        done = stop
    pieces.append(text[done:end])
    return "".join(pieces)


def _parse(text: str) -> List[ast.stmt]:
    """The statements of whole lines of a body, at their own indentation."""
    indented = text[:1] in (" ", "\t", "\f")
    try:
        tree = ast.parse("if 1:\n" + text if indented else text)
    except SyntaxError as exc:
        raise FixError(f"the fixed file does not parse: {exc}") from None
    if indented:
        wrapper = tree.body[0]
        assert isinstance(wrapper, ast.If)
        return wrapper.body
    return tree.body


def _same(fixed: List[ast.stmt], original: List[ast.stmt], edits: List[Edit], new: List[Keeper]) -> None:
    undone = _Undo(edits, new)._body(fixed)
    if not same(undone, original):
        raise FixError("undone, the fix does not give back the original program")
