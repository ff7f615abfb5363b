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


Spot = List[Tuple[Sequence[ast.stmt], int]]  # the block and index of a cancel found (``cancels_before``)


def ends_with_cancel(
    stmt: ast.stmt, passed: Optional[List[ast.stmt]] = None, where: Optional[Spot] = None,
) -> Optional[ast.Expr]:
    """The statement ``name.cancel()`` (a local's) that ends a path through
    ``stmt``, to the statement after it: ``stmt`` itself, or the last of a
    branch of an ``if`` or ``match``, of a ``try``'s body (with no ``else``),
    ``else`` or handler (of its ``finally``, if it has one: that runs last),
    or of a ``with`` block (not ``async with``, whose exit waits); not of a
    loop, which may run again.  The statements a path runs by after the cancel
    (``cancel_before``) are added to ``passed``, and where it stands to ``where``."""
    kind = type(stmt)
    if kind is ast.Expr:
        call = stmt.value  # type: ignore[attr-defined]
        func = call.func if type(call) is ast.Call else None
        if type(func) is ast.Attribute and func.attr == "cancel" and type(func.value) is ast.Name:
            return stmt  # type: ignore[return-value]
        return None
    if kind is ast.If:
        blocks = [stmt.body, stmt.orelse]  # type: ignore[attr-defined]
    elif kind in N.TRIES:
        final = stmt.finalbody  # type: ignore[attr-defined]
        blocks = [final] if final else [
            stmt.orelse or stmt.body, *(h.body for h in stmt.handlers)]  # type: ignore[attr-defined]
    elif kind is ast.With:
        blocks = [stmt.body]  # type: ignore[attr-defined]
    elif kind.__name__ == "Match":
        blocks = [case.body for case in stmt.cases]  # type: ignore[attr-defined]
    else:
        return None
    later: Optional[Tuple[ast.Expr, List[ast.stmt], Spot]] = None
    for branch, block in enumerate(blocks):
        inner: List[ast.stmt] = []
        spot: Spot = []
        found = cancel_before(block, len(block), False, inner, spot)
        if found is not None and not (kind is ast.If and done_test(
                stmt.test, found.value.func.value.id, branch)):  # type: ignore[attr-defined]
            if inner:  # (a branch that ends in a cancel itself comes first)
                later = later or (found, inner, spot)
                continue
            if where is not None:
                where.extend(spot)
            return found  # (not under ``if task.done():``, where cancel() does nothing)
    if later is not None:
        if passed is not None:
            passed.extend(later[1])
        if where is not None:
            where.extend(later[2])
    return later[0] if later is not None else None


def waits_in(expr: Optional[ast.expr]) -> bool:
    """Does any part of ``expr`` await, yield or bind (``:=``)?  (Asked only of
    the few statements after a cancel that ``cancel_before`` found.)"""
    return expr is not None and any(isinstance(part, _WAITING) or type(part) is ast.comprehension
                                    and part.is_async for part in ast.walk(expr))


_WAITING = (ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Lambda)
_STORES = (ast.Assign, ast.AnnAssign, ast.AugAssign)
_PAST = 6  # the statements ``cancel_before`` looks past, at most
# the statements a path may end in ``name.cancel()`` through (``ends_with_cancel``), and
# those with the stores a path may run by after one (``exits`` asks ``cancels_before`` after them)
_CANCEL_ENDS = frozenset({ast.Expr, ast.If, ast.With, *N.TRIES,
                          *([ast.Match] if hasattr(ast, "Match") else [])})
AFTER_CANCEL = _CANCEL_ENDS | frozenset(_STORES)


def _passes_by(stmt: ast.stmt, ifs: bool) -> bool:
    """May a path run past ``stmt`` without waiting: a call that is not awaited
    (``log.info(...)``), a store of a value that does not wait, an ``if`` with no
    ``else`` whose test does not wait (on the path where it is false; with ``ifs``)."""
    kind = type(stmt)
    if kind is ast.Expr:
        return type(stmt.value) is ast.Call and not waits_in(stmt.value)  # type: ignore[attr-defined]
    if kind in _STORES:
        return not waits_in(stmt.value)  # type: ignore[attr-defined]
    return ifs and kind is ast.If and not stmt.orelse and (  # type: ignore[attr-defined]
        not waits_in(stmt.test))  # type: ignore[attr-defined]


def cancel_before(
    block: Sequence[ast.stmt], end: int, ifs: bool = True, passed: Optional[List[ast.stmt]] = None,
    where: Optional[Spot] = None,
) -> Optional[ast.Expr]:
    """The ``name.cancel()`` that ends a path through ``block[:end]``, past the
    statements after it that a path may run by without waiting (``_passes_by``:
    ``task.cancel(); log.info(...)``, then ``if closing: await flush()`` skipped;
    in a branch that ``ends_with_cancel`` follows, no ``if``: the cost stays linear
    in the depth).  TRF009 checks that none of them touches the task
    (``cancels._dropped_local``: they are added to ``passed``, with those of the
    branch that ends in the cancel).  At most ``_PAST`` of them, and the statements
    are looked at only when one of them may end in a cancel: a block of thousands
    of stores costs a type test per statement."""
    for at in range(end - 1, max(end - 1 - _PAST, -1), -1):
        stmt = block[at]
        if type(stmt) in _CANCEL_ENDS:
            inner: List[ast.stmt] = []
            spot: Spot = []
            found = ends_with_cancel(stmt, inner, spot)
            if found is not None:
                after = block[at + 1:end]
                if not all(_passes_by(one, ifs) for one in after):
                    return None
                if passed is not None:
                    passed.extend([*inner, *after])
                if where is not None:
                    where.extend(spot or [(block, at)])
                return found
            orelse = getattr(stmt, "orelse", None)  # (a compound statement that may wait stops the path)
            if type(stmt) is not ast.Expr and not (ifs and type(stmt) is ast.If and not orelse):
                return None
    return None


def cancels_before(block: Sequence[ast.stmt], end: int) -> List[Tuple[ast.Expr, Tuple[ast.stmt, ...]]]:
    """The cancel ``cancel_before`` finds, and the cancels before it in the
    block that holds it (``finally: reader.cancel(); writer.cancel()``, also past
    statements a path runs by, ``_passes_by``: at most ``_PAST`` statements in
    all), each with the statements its path runs by to ``end``."""
    passed: List[ast.stmt] = []
    where: Spot = []
    cancel = cancel_before(block, end, True, passed, where)
    if cancel is None:
        return []
    found = [(cancel, tuple(passed))]
    holder, at = where[0] if where else ((), 0)
    first = at
    while at and first - at < _PAST:
        before = holder[at - 1]
        if type(before) is ast.Expr and ends_with_cancel(before):
            found.append((before, (*holder[at:first + 1], *passed)))
        elif not _passes_by(before, False):
            break
        at -= 1
    return found


def local_drops(scope: Scope) -> List[Tuple[ast.Expr, Optional[ast.stmt], Frames, Tuple[ast.stmt, ...]]]:
    """Each ``local.cancel()`` that a drop of the local follows (``exits._local_drop``),
    with the drop, its context and the statements the path runs by between them;
    and the one that ends the function (no drop)."""
    body = getattr(scope.node, "body", None)  # (a lambda's is an expression)
    function = isinstance(body, list) and body and scope.kind == Scope.FUNCTION
    ends = cancels_before(body, len(body)) if function else []  # type: ignore[arg-type]
    return [*scope.local_drops, *((cancel, None, (), passed) for cancel, passed in ends)]


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
