"""A task factory of the module that keeps every task it makes.

``loop.set_task_factory(factory)`` makes every task of that loop through
``factory``; a factory that puts the task it returns into a strong collection
(``self._running_tasks.add(task)``, discarded when done: Toga's ``App`` does this,
python/cpython#91887) keeps every task of the loop until it is done, wherever it
was spawned.  The analysis cannot tell which loop a spawn runs on, so a module
whose every ``set_task_factory`` call installs such a factory on a loop has no
finding but TRF006's (``rules.ModuleRules.run``; when each such call names its
factory, every function of the module is entered, so that the shortcut sees what
the whole analysis does: ``functions._enter_factories``).  Only what the module shows counts: the factory is a
plain function of the module that it entered, named where the call reads it and
bound to nothing else, undecorated; its body adds the task it returns (bound
before the add, not after), at its top level and before its one ``return``, to a
module name or a class attribute bound once to a new strong collection (a set,
a list, a dict) and never stored otherwise.  Anything else changes nothing:
``eager_task_factory``, ``None`` or any other factory installed anywhere in the
module (a reset, a restore), a lambda, a
factory given by a caller or imported, a method, one that keeps nothing, keeps
only on some paths or in a weak or unknown collection."""
from __future__ import annotations

import ast
from typing import Callable, Optional

from flake8_taskref.analysis.facts import CollectionAdd, ModuleFacts, Scope, Use
from flake8_taskref.analysis.lookups import declared_inside

# the rules' test of a receiver: is it an event loop (``ModuleRules.loop_receiver``)?
IsLoop = Callable[[ast.expr, Scope], bool]


def keeps_every_task(facts: ModuleFacts, is_loop: IsLoop) -> bool:
    """Does the module install, on an event loop, a task factory of its own that keeps each task?"""
    installed = facts.task_factories
    return bool(installed) and all(  # (another factory installed, a reset or a restore: the tasks after it)
        is_loop(receiver, scope) and _keeping(arg, scope, facts) for receiver, arg, scope in installed)


def _keeping(arg: ast.expr, scope: Scope, facts: ModuleFacts) -> bool:
    node = _function_named(scope, arg.id, facts) if isinstance(arg, ast.Name) else None
    if node is None or node.decorator_list:
        return False
    entered = next((s for s in facts.scopes if s.node is node), None)
    if entered is None or entered.generator or len(entered.returns) != 1:
        return False
    returned = entered.returns[0]
    if not isinstance(returned, Use):
        return False  # (one ``return task``)
    name, end = returned.name, returned.pos
    adds = [add for add in facts.adds if add.scope is entered] + [add for _, add in entered.module_adds]
    return any(
        add.use is not None and add.use.name == name and not add.use.frames and add.use.pos < end
        and all(b.pos < add.use.pos for b in entered.bindings.get(name, ()))  # (the very task returned)
        and _strong(add, facts) for add in adds)


def _function_named(scope: Scope, name: str, facts: ModuleFacts) -> Optional[ast.FunctionDef]:
    """The plain function ``name`` stands for where ``scope`` reads it: defined once,
    and bound to nothing else, in a function around it or at module level."""
    current: Optional[Scope] = scope
    while current is not None:
        if (current.kind != Scope.CLASS or current is scope) and name in current.imports.aliases:
            return None  # (an import binds it; ``global``/``nonlocal``: below)
        if current.kind == Scope.CLASS and current is scope and name in current.bindings:
            return None  # (read in a class body: its own binding)
        if current.kind == Scope.FUNCTION and name in current.bindings:
            if len(current.bindings[name]) != 1 or declared_inside(current, name):
                return None
            return next((child.node for child in current.children if isinstance(child.node, ast.FunctionDef)
                         and child.node.name == name), None)
        if current.kind == Scope.MODULE:
            node = current.defs.get(name)
            if name not in current.bindings or name in current.rebound or facts.bound_by_global(name):
                return None
            return node if isinstance(node, ast.FunctionDef) else None
        current = current.parent
    return None


def _strong(add: CollectionAdd, facts: ModuleFacts) -> bool:
    """Is ``add``'s collection a module name or a class attribute bound once, and
    only, to a new strong collection?"""
    owner, name = add.key
    if owner:
        holder = next((s for s in facts.scopes if id(s) == owner), None)
        if holder is None or facts.attr_stores.get(add.key, 0) or facts.attr_stores.get((0, name), 0):
            return False
    else:
        holder = facts.module
        if facts.bound_by_global(name):
            return False
    return name in holder.bindings and name not in holder.rebound and (id(holder), name) in facts.strong_names
