"""The coroutine function of this file that a spawn runs, and what its body
says of the task that runs it.

``create_task(self._run())``, ``loop.create_task(work())``: the first argument
is a call of a coroutine function this file defines (a function of an enclosing
scope, or a method of the class, bound once), whose scope the one pass entered.
Two things of that body matter to the rules:

* it never suspends (``rules._never_suspends``, for ``run_coroutine_threadsafe``):
  its task runs to its end in its first step;
* it keeps its own task (``keeps_itself``): it stores ``asyncio.current_task()``
  where it outlives the frame (``self._stop_task = asyncio.current_task()``).
  Until its first step the loop's queue holds the task; from then on the
  attribute does, so no caller must.  Such a spawn is not reported (the
  analysis cannot prove the task lost); docs/rules/TRF001.md says so.
"""
from __future__ import annotations

import ast
from typing import Optional, Sequence, Set, Tuple

from flake8_taskref.analysis.facts import Scope, Spawn

__all__ = ["own_coroutine", "self_keepers", "keeps_itself"]

# (id of the scope that defines it, its name): the coroutine functions that keep their task.
Keepers = Set[Tuple[int, str]]
_SELF = ("self", "cls")


def _owner(func: ast.expr, scope: Scope) -> Tuple[Optional[Scope], str]:
    """The scope that defines the function ``func`` names, seen from ``scope``,
    and its name (``None`` when it is not a function of this file)."""
    if isinstance(func, ast.Name):
        current: Optional[Scope] = scope
        while current is not None:
            if current.kind != Scope.CLASS and func.id in current.async_defs:
                return current, func.id
            if func.id in current.bindings and current.kind != Scope.CLASS:
                return None, ""
            current = current.parent
        return None, ""
    own = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in _SELF
    if own and isinstance(func, ast.Attribute) and scope.cls is not None and func.attr in scope.cls.bindings:
        return scope.cls, func.attr
    return None, ""


def own_coroutine(func: ast.expr, scope: Scope, scopes: Sequence[Scope]) -> Optional[Scope]:
    """The entered scope of the coroutine function of this file that ``func``
    names in ``scope``: bound once, defined once; else None."""
    owner, name = _owner(func, scope)
    if owner is None or name not in owner.async_defs or name in owner.rebound:
        return None
    entered = [s for s in scopes if isinstance(s.node, ast.AsyncFunctionDef)
               and s.node.name == name and s.parent is owner]
    return entered[0] if len(entered) == 1 else None


def self_keepers(scopes: Sequence[Scope]) -> Keepers:
    """The coroutine functions of the file that keep their own task."""
    return {
        (id(s.parent), s.node.name) for s in scopes
        if s.keeps_itself and isinstance(s.node, ast.AsyncFunctionDef) and s.parent is not None
    }


def keeps_itself(spawn: Spawn, scope: Scope, keepers: Keepers) -> bool:
    """Is the spawn's coroutine a call of a coroutine function of this file
    that keeps its own task (``keepers``)?"""
    node = spawn.node
    if not keepers or spawn.helper is not None or not isinstance(node, ast.Call) or not node.args:
        return False
    call = node.args[0]
    if not isinstance(call, ast.Call):
        return False
    owner, name = _owner(call.func, scope)
    return owner is not None and name not in owner.rebound and (id(owner), name) in keepers
