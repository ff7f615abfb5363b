"""Copies of a collection, as the scope analysis sees them: which collection an
expression copies (``list(c)``, ``c.copy()``, a comprehension of its elements),
whether a binding holds a copy, and what an object keeps whatever a wait does.
Pure functions of the tree (moved out of ``asyncio_api.py``, which uses them)."""
from __future__ import annotations

import ast
from typing import List, Optional

from flake8_taskref.analysis import names as N

__all__ = ["kept_by_owner", "copied", "assigned", "is_copy", "all_pending"]


def kept_by_owner(node: ast.expr) -> bool:
    """An attribute or an item (``self._closed``, ``*self.tasks``): an object
    keeps it whatever the pending set of a wait does."""
    if isinstance(node, ast.Starred):
        node = node.value
    return isinstance(node, (ast.Attribute, ast.Subscript))


def copied(node: ast.expr) -> ast.expr:
    """The collection a copy copies (``list(c)``, ``c.copy()``, ``c.values()``, a
    comprehension ``[t for t in c if ...]`` of its elements, the first starred
    item of a display: ``(*(t for t in c if ...), *others)``), else ``node``."""
    for _ in range(4):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            starred = next((item for item in node.elts if isinstance(item, ast.Starred)), None)
            if starred is not None:
                node = starred.value
                continue
        if isinstance(node, ast.Call) and not node.keywords:
            func = node.func
            if isinstance(func, ast.Name) and func.id in N.COPYING_CALLS and len(node.args) == 1:
                node = node.args[0]
                continue
            if isinstance(func, ast.Attribute) and func.attr in ("copy", "values") and not node.args:
                node = func.value
                continue
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)) and len(node.generators) == 1:
            comp = node.generators[0]
            if (
                not comp.is_async
                and isinstance(comp.target, ast.Name)
                and isinstance(node.elt, ast.Name)
                and node.elt.id == comp.target.id
            ):
                node = comp.iter
                continue
        break
    return node


def assigned(stmt: Optional[ast.stmt], name: str) -> Optional[ast.expr]:
    """The value ``stmt`` binds to ``name`` when it is ``name = value`` (or
    ``name: T = value``), else None."""
    if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
        return stmt.value
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
        return stmt.value
    return None


def is_copy(stmt: Optional[ast.stmt]) -> bool:
    """Does ``stmt`` bind a copy of a collection (not the collection itself)?"""
    value = getattr(stmt, "value", None)
    return isinstance(value, ast.expr) and copied(value) is not value


def all_pending(generators: List[ast.comprehension]) -> bool:
    """Does a comprehension reach every pending task of what it iterates: its
    filters, if any, test only its one target for being no ``None`` (``if t``,
    ``if t is not None``) or not done (``if not t.done()``, ``not t.cancelled()``),
    which leave out no task still pending?  (``gather(*[t for t in throttled if t
    is not None])``: crawlo's ``_throttle_tasks``, a false alarm of the
    thirty-eighth trial.)"""
    for comp in generators:
        target = comp.target
        if comp.ifs and (len(generators) > 1 or not isinstance(target, ast.Name)):
            return False  # (a filter of another generator's target leaves out whole rows)
        if not all(_tests_pending(cond, target.id) for cond in comp.ifs):  # type: ignore[attr-defined]
            return False
    return True


def _tests_pending(cond: ast.expr, name: str) -> bool:
    if isinstance(cond, ast.Name):
        return cond.id == name
    if isinstance(cond, ast.Compare) and len(cond.ops) == 1 and isinstance(cond.ops[0], _NOT_EQUAL):
        left, right = cond.left, cond.comparators[0]
        return isinstance(left, ast.Name) and left.id == name and isinstance(right, ast.Constant) and (
            right.value is None)
    if isinstance(cond, ast.UnaryOp) and isinstance(cond.op, ast.Not) and isinstance(cond.operand, ast.Call):
        func = cond.operand.func
        plain = not (cond.operand.args or cond.operand.keywords)
        return plain and isinstance(func, ast.Attribute) and func.attr in _POLLS and isinstance(
            func.value, ast.Name) and func.value.id == name
    return False


_NOT_EQUAL = (ast.IsNot, ast.NotEq)
_POLLS = ("done", "cancelled")
