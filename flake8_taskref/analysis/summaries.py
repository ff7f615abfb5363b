"""Summaries of the file's own functions, decided after the one pass from the
facts recorded for their bodies (``functions.py`` records the calls).

For a call ``helper(x)`` or ``self.helper(x)`` whose callee the file defines (at
module level, or in the class of the calling method), once, as a plain ``def``
(``@staticmethod`` and ``@classmethod`` allowed, no other decorator), with a
body that is more than a stub, the summary says, for the parameter an argument
binds:

* ``U_KEEP``: the function may keep it: stores it, returns it, yields it,
  passes it to something unknown, lets a nested function capture it, rebinds
  the name, or the callee is not known (an imported, nested, async or redefined
  function, a method not defined in the class: precision by construction);
* ``U_FINISH``: it does not keep it but cancels or awaits it;
* ``U_HARMLESS``: it only looks at it (done callbacks, logging, ``done()``,
  ``result()``, truth tests, adding it to a weak collection).

and whether the function returns a new task nobody else keeps (every ``return``
returns a spawn, or a local holding only spawns that is kept nowhere else): then
a call of it is a spawn, named by the call (``self._spawn()``), with no
configuration.
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Protocol, Set, Tuple

from flake8_taskref.analysis.facts import (
    U_ADD,
    U_CALL,
    U_FINISH,
    U_FLOW,
    U_HARMLESS,
    U_KEEP,
    U_RESULT,
    Binding,
    CallArg,
    CallSite,
    CollectionAdd,
    FunctionNode,
    Group,
    ModuleFacts,
    Pos,
    Scope,
    Spawn,
    Use,
)

_DECORATORS = {"staticmethod": 0, "classmethod": 1}
_IN_PROGRESS = -1


class Judge(Protocol):
    """What a summary asks of the rules: spawn labels, bindings, fates."""

    def label(self, spawn: Spawn, scope: Scope) -> Optional[str]: ...

    def applicable(self, scope: Scope, name: str, use: Use) -> List[Binding]: ...

    def kept_at(self, group: Group, scope: Scope) -> List[Pos]: ...

    def captured(self, scope: Scope) -> Set[str]: ...


class Summaries:
    """The summaries of one module's functions, computed when first asked."""

    def __init__(self, facts: ModuleFacts, judge: Judge) -> None:
        self.judge = judge
        self._scopes: Dict[int, Scope] = {
            id(scope.node): scope for scope in facts.scopes if scope.kind == Scope.FUNCTION
        }
        self._params: Dict[Tuple[int, str], int] = {}
        self._spawners: Dict[int, bool] = {}
        self._facts: Optional[ModuleFacts] = facts

    def release(self) -> None:
        """Break the cycle with the judge (the rules), for reference counting."""
        self.judge = None  # type: ignore[assignment]
        self._scopes = {}
        self._facts = None

    # ----------------------------------------------------------------- callee
    def callee(self, call: CallSite) -> Optional[Tuple[Scope, List[str]]]:
        """The function scope a call reaches, and its parameters as the call's
        positional arguments bind them; None if it is not known."""
        owner = call.owner
        name = call.name
        node = owner.defs.get(name)
        if node is None or name in owner.rebound or isinstance(node, ast.AsyncFunctionDef):
            return None
        if not call.bound and _shadowed(call.scope, name):
            return None
        skip = 1 if call.bound else 0
        for decorator in node.decorator_list:
            kind = _DECORATORS.get(decorator.id) if isinstance(decorator, ast.Name) else None
            if kind is None or not call.bound:
                return None
            skip = kind
        if _stub(node):
            return None
        scope = self._scopes.get(id(node))
        if scope is None or scope.generator:
            return None
        params = [arg.arg for arg in node.args.posonlyargs + node.args.args]
        return scope, params[skip:]

    # ------------------------------------------------------------- parameters
    def argument(self, where: CallArg) -> int:
        """What the callee does to the argument: U_KEEP, U_FINISH or U_HARMLESS."""
        found = self.callee(where.call)
        if found is None:
            return U_KEEP
        scope, positional = found
        node: FunctionNode = scope.node  # type: ignore[assignment]
        if where.keyword is None:
            if where.index >= len(positional):
                return U_KEEP  # into ``*args``, or an error
            name = positional[where.index]
        else:
            names = {arg.arg for arg in node.args.args + node.args.kwonlyargs}
            if where.keyword not in names:
                return U_KEEP
            name = where.keyword
        return self.parameter(scope, name)

    def parameter(self, scope: Scope, name: str) -> int:
        key = (id(scope), name)
        found = self._params.get(key)
        if found is not None:
            return U_KEEP if found == _IN_PROGRESS else found
        self._params[key] = _IN_PROGRESS
        result = self._parameter(scope, name)
        self._params[key] = result
        return result

    def _parameter(self, scope: Scope, name: str) -> int:
        if name in scope.declared or name in self.judge.captured(scope):
            return U_KEEP
        if len(scope.bindings.get(name, ())) != 1:
            return U_KEEP  # rebound in the function
        result = U_HARMLESS
        for use in scope.uses.get(name, ()):
            kind = use.kind
            if kind == U_CALL:
                assert isinstance(use.target, CallArg)
                kind = self.argument(use.target)
            elif kind == U_ADD:
                assert isinstance(use.target, CollectionAdd) and self._facts is not None
                kind = self._facts.added(use.target)
            if kind == U_KEEP or kind == U_FLOW:
                return U_KEEP
            if kind == U_FINISH:
                result = U_FINISH
            elif kind == U_RESULT and result != U_FINISH:
                result = U_RESULT  # a finish for a threadsafe future (the caller decides)
        return result

    # --------------------------------------------------------------- spawners
    def spawner(self, call: CallSite) -> bool:
        """Does the call's callee return a new task that nothing else keeps?"""
        found = self.callee(call)
        if found is None:
            return False
        scope = found[0]
        key = id(scope)
        if key in self._spawners:
            return self._spawners[key]
        self._spawners[key] = False  # while deciding: a cycle returns no new task
        result = self._spawner(scope)
        self._spawners[key] = result
        return result

    def _spawner(self, scope: Scope) -> bool:
        returns = scope.returns
        if not returns or any(item is None for item in returns):
            return False
        at = {item.pos for item in returns if isinstance(item, Use)}
        for item in returns:
            if isinstance(item, Spawn):
                if self.judge.label(item, scope) is None:
                    return False
                continue
            assert isinstance(item, Use)
            bindings = self.judge.applicable(scope, item.name, item)
            if not bindings:
                return False
            for binding in bindings:
                group = binding.group
                if group is None or group.opaque or not group.spawns:
                    return False
                if any(self.judge.label(spawn, scope) is None for spawn in group.spawns):
                    return False
                if any(pos not in at for pos in self.judge.kept_at(group, scope)):
                    return False  # kept elsewhere too: callers may drop it
        return True


def _shadowed(scope: Optional[Scope], name: str) -> bool:
    """Is ``name``, called in ``scope``, a name of a function scope around it
    (a local or a closure variable) rather than the module's?"""
    while scope is not None and scope.kind != Scope.MODULE:
        if scope.kind == Scope.FUNCTION and (name in scope.bindings or name in scope.declared):
            return True
        scope = scope.parent
    return False


def _stub(node: FunctionNode) -> bool:
    """A body that only documents, passes or raises: a method meant to be
    overridden (``...``, ``pass``, ``raise NotImplementedError``)."""
    for stmt in node.body:
        if isinstance(stmt, ast.Pass) or isinstance(stmt, ast.Raise):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        return False
    return True
