"""TRF009: a task of ``self.attr`` cancelled and dropped while its coroutine waits again.

``self.attr = asyncio.create_task(self.run())`` in one method, and in another
``self.attr.cancel()`` followed at once by ``self.attr = None`` (or any store,
or ``del``): ``cancel()`` only asks, and the loop's queue holds the task until
its next step delivers the ``CancelledError``.  If ``run`` then waits again
while it handles the cancellation (an ``await`` in a ``finally``, or in a
handler of ``CancelledError``, ``BaseException`` or a bare ``except``), nothing
holds the task while it waits: the attribute was its last strong reference.

Only that shape is followed, and only where each part is known:

* ``run`` is a coroutine method of the class, defined once (``own_coroutine``),
  that does not keep its own task;
* its wait is a statement in the ``finally`` or such a handler of a ``try``
  whose body suspends, in no ``if`` or loop inside that cleanup (it runs on
  every cancellation that lands in the body), and awaits a call that may
  suspend (``coroutines.suspends_at``: not one known never to);
* the cancel and the drop are two statements in a row, in a method of the same
  class, on ``self``; a method that binds a local to ``self.attr`` (``task =
  self.attr``, which it may await) stays silent, as does an attribute handed on
  where the task is stored (``Scope.handed``).

The one pass records the parts (``exits.py``); nothing here walks a tree.
"""
from __future__ import annotations

import ast
from typing import Any, Iterator, Optional, Set, Tuple

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.coroutines import Keepers, own_coroutine, suspends_at
from flake8_taskref.analysis.facts import BRANCH, LOOP, TRY, TRY_FINALLY, TRY_HANDLERS, Scope
from flake8_taskref.analysis.scopes import end_of, pos_of


def dropped_after_cancel(rules: Any, scope: Scope, keepers: Keepers) -> None:
    """TRF009 at each drop of a task ``scope`` stores in ``self.attr``."""
    cls = scope.cls
    if cls is None:
        return
    for attr, spawn in scope.self_stores:
        node = spawn.node
        coro = node.args[0] if spawn.helper is None and isinstance(node, ast.Call) and node.args else None
        if not isinstance(coro, ast.Call) or not isinstance(coro.func, ast.Attribute) or attr in scope.handed:
            continue
        method = own_coroutine(coro.func, scope)
        if method is None or (id(method.parent), coro.func.attr) in keepers:
            continue
        wait = _cleanup_wait(rules, method)
        if wait is None:
            continue
        for where, cancel, drop in _drops(cls, attr, method):
            if id(drop) not in rules._reported:
                rules._reported.add(id(drop))
                rules._error(
                    "TRF009", drop, attr=attr, cancel=cancel.lineno, coroutine=coro.func.attr, wait=wait,
                )


def _cleanup_wait(rules: Any, method: Scope) -> Optional[int]:
    """The line of the first wait of ``method``'s cleanup that runs whenever a
    cancellation lands in its ``try`` body, if there is one."""
    for pos, frames, call in method.cleanup_waits:
        if call is None:
            continue  # an ``async with`` or ``async for``, ``await fut``: not known to suspend
        for at, (kind, attempt, part) in enumerate(frames):
            if kind != TRY or id(attempt) not in method.waiting_tries:
                continue
            if part == TRY_HANDLERS and not any(
                pos_of(handler) <= pos <= end_of(handler) and N.catches(handler, N.CANCEL_EXCEPTIONS, False)
                for handler in getattr(attempt, "handlers", ())
            ):
                continue
            if part in (TRY_FINALLY, TRY_HANDLERS) and not any(
                frame[0] in (BRANCH, LOOP) for frame in frames[at + 1:]
            ):
                if suspends_at(call, method, rules.facts, rules.summaries, rules.resolver):
                    return pos[0]
                break
    return None


def _drops(cls: Scope, attr: str, method: Scope) -> Iterator[Tuple[Scope, ast.Expr, ast.stmt]]:
    """``self.attr.cancel()`` then a drop of ``self.attr``, in the class's
    functions other than ``method`` and those in it; not in one that binds a
    local to ``self.attr``."""
    stack = [child for child in cls.children if child is not method]
    while stack:
        scope = stack.pop()
        stack.extend(scope.children)
        for dropped, cancel, drop in scope.cancel_drops:
            if dropped == attr and not _aliased(scope, attr):
                yield scope, cancel, drop


def _aliased(scope: Scope, attr: str) -> bool:
    """Does the function bind a local to ``self.attr`` (``task = self.attr``,
    ``task, self.attr = self.attr, None``)?"""
    seen: Set[int] = set()
    for bindings in scope.bindings.values():
        for binding in bindings:
            stmt = binding.stmt
            if stmt is None or id(stmt) in seen:
                continue
            seen.add(id(stmt))
            value = binding.value or getattr(stmt, "value", None)
            values = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]
            if any(
                isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.value.id == "self"
                and v.attr == attr for v in values
            ):
                return True
    return False
