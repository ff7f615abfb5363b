"""A local's task cancelled and then dropped (TRF009, ``cancels.py``): where a
path ends in ``name.cancel()`` (``ends_with_cancel``), the drops the one pass
recorded after one (``exits._local_drop``) and the one at a function's end, and
what the text shortcut enters for them.  Nothing here walks a tree: a path's
last statements are followed down the blocks that end it."""
from __future__ import annotations

import ast
from typing import List, Optional, Sequence, Set, Tuple

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import Frames, Scope
from flake8_taskref.analysis.finished import done_test
from flake8_taskref.analysis.scopes import TRY_TYPES


def ends_with_cancel(stmt: ast.stmt) -> Optional[ast.Expr]:
    """The statement ``name.cancel()`` (a local's) that ends a path through
    ``stmt``, to the statement after it: ``stmt`` itself, or the last of a
    branch of an ``if`` or ``match``, of a ``try``'s body (with no ``else``),
    ``else`` or handler (of its ``finally``, if it has one: that runs last),
    or of a ``with`` block (not ``async with``, whose exit waits); not of a
    loop, which may run again."""
    kind = type(stmt)
    if kind is ast.Expr:
        call = stmt.value  # type: ignore[attr-defined]
        func = call.func if type(call) is ast.Call else None
        if type(func) is ast.Attribute and func.attr == "cancel" and type(func.value) is ast.Name:
            return stmt  # type: ignore[return-value]
        return None
    if kind is ast.If:
        blocks = [stmt.body, stmt.orelse]  # type: ignore[attr-defined]
    elif kind in TRY_TYPES:
        final = stmt.finalbody  # type: ignore[attr-defined]
        blocks = [final] if final else [
            stmt.orelse or stmt.body, *(h.body for h in stmt.handlers)]  # type: ignore[attr-defined]
    elif kind is ast.With:
        blocks = [stmt.body]  # type: ignore[attr-defined]
    elif kind.__name__ == "Match":
        blocks = [case.body for case in stmt.cases]  # type: ignore[attr-defined]
    else:
        return None
    for branch, block in enumerate(blocks):
        found = ends_with_cancel(block[-1]) if block else None
        if found is not None and not (kind is ast.If and done_test(
                stmt.test, found.value.func.value.id, branch)):  # type: ignore[attr-defined]
            return found  # (not under ``if task.done():``, where cancel() does nothing)
    return None


def local_drops(scope: Scope) -> List[Tuple[ast.Expr, Optional[ast.stmt], Frames]]:
    """Each ``local.cancel()`` that a drop of the local follows (``exits._local_drop``),
    with the drop and its context; and the one that ends the function (no drop)."""
    body = getattr(scope.node, "body", None)  # (a lambda's is an expression)
    function = isinstance(body, list) and body and scope.kind == Scope.FUNCTION
    last = ends_with_cancel(body[-1]) if function else None  # type: ignore[index]
    return [*scope.local_drops, (last, None, ())] if last is not None else list(scope.local_drops)


def cancelled_coroutines(scopes: Sequence[Scope]) -> Set[str]:
    """What TRF009 asks about a local's task cancelled and dropped: the names of
    the coroutine functions that the spawns of its function run, and of those
    their cleanups and waits await (whether those suspend)."""
    names: Set[str] = set()
    for scope in scopes:
        if scope.groups and local_drops(scope):
            runs = [spawn.runs for group in scope.groups for spawn in group.spawns]
            names.update(N.last_name(call.func) or "" for call in runs if call is not None)
    return with_awaited(scopes, names)


def with_awaited(scopes: Sequence[Scope], names: Set[str]) -> Set[str]:
    """``names`` (coroutine functions TRF009 asks about), and the names of the
    functions their cleanups and waits await, whether those suspend (added to it)."""
    for scope in scopes if names else ():
        if getattr(scope.node, "name", None) in names:
            calls = [call for _, _, call in scope.cleanup_waits if call is not None] + scope.waits_on
            names.update(N.last_name(call.func) or "" for call in calls)
    return names
