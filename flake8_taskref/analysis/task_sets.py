"""TRF006 task-set-never-pruned: tasks added to a long-lived collection (an
attribute of the instance, a module-level name) that nothing removes from, read
from the facts of the one pass by the rules (``rules.py``) when TRF006 is on."""
from __future__ import annotations

import ast
from typing import Any, List, Optional, Protocol, Set, Tuple

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import (
    Binding, CollectionAdd, Group, ModuleFacts, Scope, Spawn, Use, enclosing_binder,
)
from flake8_taskref.analysis.messages import PRUNE_HINTS


class ModuleRules(Protocol):
    """What TRF006 asks of the rules (``rules.ModuleRules``)."""

    facts: ModuleFacts
    threaded: Set[int]

    def label(self, spawn: Spawn, scope: Scope) -> Optional[str]: ...

    def applicable(self, scope: Scope, name: str, use: Use) -> List[Binding]: ...

    def _spawns(self, group: Group, scope: Scope) -> List[Tuple[Spawn, str]]: ...

    def _error(self, code: str, node: ast.AST, related: Any = None, **fields: Any) -> None: ...


def _collection_kind(node: ast.AST) -> str:
    """What an add shows of its collection: ``coll[key] = t`` and ``setdefault``
    a dict, ``append`` and friends a list (or deque), anything else a set."""
    if isinstance(node, ast.Subscript):
        return "dict"
    func = getattr(node, "func", None)
    attr = func.attr if isinstance(func, ast.Attribute) else ""
    if attr in N.LIST_ADDS:
        return "list"
    return "dict" if attr in N.DICT_ADDS else "set"


def _constant_key(node: ast.AST) -> bool:
    """``coll["name"] = task``, ``coll[self.manager] = task``: an item stored
    under a constant key, or an attribute of the instance (one object per
    instance: asyncua's HA client keys its manager's task so)."""
    if not isinstance(node, ast.Subscript):
        return False
    key = node.slice
    return isinstance(key, ast.Constant) or (
        isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name) and key.value.id in ("self", "cls")
    )


# ``ast.unparse`` imports its implementation on first use on Python 3.14+
# (``_ast_unparse``): make that first use now, at import, so that the analysis
# itself never imports (tests/test_purity.py).
ast.unparse(ast.Name("key"))


def _key_text(node: ast.AST) -> str:
    """The key a dict add stores under, as written, for TRF006's hint."""
    if isinstance(node, ast.Subscript):
        return ast.unparse(node.slice)
    args = getattr(node, "args", None)
    return ast.unparse(args[0]) if args else "key"


def never_pruned(rules: ModuleRules) -> None:
    """TRF006: tasks added to a long-lived collection that nothing removes from."""
    facts = rules.facts
    module = facts.module
    rebound = {
        name
        for scope in facts.scopes
        if scope.kind == Scope.FUNCTION
        for name in scope.declared & set(scope.bindings)
    }
    # Silent where the code shows a bound: an add in a method that runs once
    # per object, a collection that the exit of a context manager reads (the
    # owner lives for one ``with`` block), or one something prunes.
    adds: List[CollectionAdd] = [
        a for a in facts.adds
        if a.key not in facts.pruned
        and a.key[1] not in facts.pruned_attrs
        and a.key not in facts.read_at_exit
        and getattr(a.scope.node, "name", None) not in N.SETUP_METHODS
    ]
    for scope in facts.scopes:
        for name, add in scope.module_adds:
            if (
                name in module.bindings
                and name not in facts.module_prunes
                and name not in rebound
                and enclosing_binder(scope, name) is None
            ):
                adds.append(add)
    # A collection written only with constant keys (``self.tasks["reconnect"] =
    # t``) holds at most one task per key: it cannot grow.
    grows = {a.key for a in facts.adds if not _constant_key(a.node)}
    bounded = {a.key for a in facts.adds} - grows
    for add in adds:
        if add.key in bounded or facts.weak(add):
            continue
        label = _added_task(rules, add)
        if label is not None:
            hint = PRUNE_HINTS[_collection_kind(add.node)]
            fix = hint.format(collection=add.text, key=_key_text(add.node))
            rules._error("TRF006", add.node, collection=add.text, fix=fix)


def _added_task(rules: ModuleRules, add: CollectionAdd) -> Optional[str]:
    """The spawn an add puts in its collection, also of a task that only runs
    ``asyncio.to_thread`` (``rules.threaded``: held by its thread, so no other
    rule counts it, but the collection grows with it all the same)."""
    if add.spawn is not None:
        label = rules.label(add.spawn, add.scope)
        return add.spawn.callee if label is None and id(add.spawn) in rules.threaded else label
    if add.use is not None and add.scope.kind == Scope.FUNCTION:
        for binding in rules.applicable(add.scope, add.use.name, add.use):
            if binding.group is not None:
                spawns = rules._spawns(binding.group, add.scope)
                if spawns:
                    return spawns[0][1]
                threaded = [s for s in binding.group.spawns if id(s) in rules.threaded]
                if threaded:
                    return threaded[0].callee
    return None
