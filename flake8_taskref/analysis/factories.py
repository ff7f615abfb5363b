"""A task factory of the module that keeps every task it makes.

``loop.set_task_factory(factory)`` makes every task of that loop through
``factory``; a factory that puts the task it returns into a collection
(``self._running_tasks.add(task)``, discarded when done: Toga's ``App`` does this,
python/cpython#91887) keeps every task of the loop until it is done, wherever it
was spawned.  The analysis cannot tell which loop a spawn runs on, so a module
that installs such a factory has no finding (``rules.ModuleRules.run``).  A
factory of the module that the analysis did not enter is taken to keep its tasks
(silent: it cannot tell); one given by a caller or imported from elsewhere, the
standard library's ``eager_task_factory`` or ``None`` changes nothing."""
from __future__ import annotations

import ast
from typing import Optional, Set

from flake8_taskref.analysis.facts import FunctionNode, ModuleFacts, Scope, Use
from flake8_taskref.analysis.lookups import self_attribute


def keeps_every_task(facts: ModuleFacts) -> bool:
    """Does the module install a task factory of its own that keeps (or may keep) each task?"""
    return any(_keeping(arg, scope, facts) for arg, scope in facts.task_factories)


def _keeping(arg: ast.expr, scope: Scope, facts: ModuleFacts) -> bool:
    attr = self_attribute(arg)
    if isinstance(arg, ast.Name):
        node = _function_named(scope, arg.id)
    elif attr is not None and scope.cls is not None and attr not in scope.cls.rebound:
        node = scope.cls.defs.get(attr)
    else:
        return False
    if node is None:
        return False  # not a function of this module
    entered = next((s for s in facts.scopes if s.node is node), None)
    if entered is None:
        return True  # not entered: what it does is not known
    returned: Set[str] = {item.name for item in entered.returns if isinstance(item, Use)}
    adds = [add for add in facts.adds if add.scope is entered] + [add for _, add in entered.module_adds]
    return any(add.use is not None and add.use.name in returned and not facts.weak(add) for add in adds)


def _function_named(scope: Optional[Scope], name: str) -> Optional[FunctionNode]:
    """The function ``name`` stands for where ``scope`` reads it: defined once in a
    function around it, or at module level (class bodies are not in the way)."""
    while scope is not None:
        if scope.kind == Scope.FUNCTION and name in scope.bindings and name not in scope.declared:
            if len(scope.bindings[name]) != 1:
                return None
            return next((child.node for child in scope.children if getattr(child.node, "name", None) == name
                         and isinstance(child.node, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
        if scope.kind == Scope.MODULE:
            return None if name in scope.rebound else scope.defs.get(name)
        scope = scope.parent
    return None
