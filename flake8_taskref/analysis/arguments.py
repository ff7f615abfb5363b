"""What the arguments of a call tell a function's summary (issue 32), apart
from the tasks they carry: whether a helper that keeps the task it returns only
when a parameter says so (``if keep_ref: _tasks.add(t)``) is told to keep it,
whether a function calls a callable parameter and drops what it returns
(``hook(*args)``), and whether a call of a project name bound to asyncio's
spawner (``create_task = asyncio.create_task`` in a compatibility module) makes
a new task.  Pure functions of the facts of one function and one call."""
from __future__ import annotations

import ast
from typing import List, Optional, Set, Tuple

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import (
    BRANCH, U_HARMLESS, U_RESULT, CallSite, Group, Pos, Scope,
)
from flake8_taskref.analysis.lookups import is_method


def guard_of_keeping(scope: Scope, group: Group, positions: List[Pos]) -> Optional[Tuple[str, bool]]:
    """The parameter on which a function keeps the task it returns, and with
    which truth value: every place in ``positions`` is a use of the group's name
    on one branch of ``if param:`` (or ``if not param:``), the same for all,
    where ``param`` is a parameter the function never binds again."""
    node = scope.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    uses = {use.pos: use for use in scope.uses.get(group.name, ())}
    found: Set[Tuple[str, bool]] = set()
    for pos in positions:
        use = uses.get(pos)
        if use is None:
            return None
        branches = [(frame[1], frame[2]) for frame in use.frames if frame[0] == BRANCH]
        guard: Optional[Tuple[str, bool]] = None
        for branch, index in branches:
            if not isinstance(branch, ast.If):
                continue
            test, truth = branch.test, index == 0
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                test, truth = test.operand, not truth
            if isinstance(test, ast.Name):
                guard = (test.id, truth)
                break
        if guard is None:
            return None
        found.add(guard)
    if len(found) != 1:
        return None
    name, truth = next(iter(found))
    if name not in N.parameter_names(node):
        return None
    if len(scope.bindings.get(name, ())) != 1 or name in scope.declared:
        return None
    return name, truth


def unkept_by_call(call: CallSite, scope: Scope, guard: Tuple[str, bool]) -> bool:
    """Does the call of a function of this file leave the task it returns
    unkept (``unkept_by``)?"""
    node = scope.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    args = node.args
    positional = [arg.arg for arg in args.posonlyargs + args.args]
    if is_method(node, scope):
        positional = positional[1:]
    full = (guard[0], guard[1], default_truth(node, guard[0]))
    return unkept_by(call.node, full, positional, [arg.arg for arg in args.kwonlyargs])


# asyncio's spawners by their own names: a project name so called may be bound
# to one (the index's words hold only the names that differ from theirs)
SPAWNER_NAMES = frozenset(name.rpartition(".")[2] for name in N.TASK_SPAWNERS)


def spawns_through_alias(call: CallSite, spawner: Optional[str]) -> bool:
    """Does a call of a project name bound to asyncio's ``spawner`` make a new
    task (``ensure_future`` of a call that returns no future)?"""
    if spawner is None:
        return False
    if spawner != "asyncio.ensure_future":
        return True
    args = call.node.args
    return bool(args) and isinstance(args[0], ast.Call) and not (
        isinstance(args[0].func, ast.Attribute) and args[0].func.attr in N.FUTURE_METHODS
    )


def calls_and_drops(scope: Scope, name: str) -> bool:
    """Does the function call its parameter ``name`` (bound only as the
    parameter) as a statement, dropping what the call returns?"""
    return (
        name in scope.dropped_calls and len(scope.bindings.get(name, ())) == 1 and name not in scope.declared
    )


def default_truth(node: ast.AST, name: str) -> int:
    """The truth of the constant default of parameter ``name`` (1 or 0); -1
    when it has none, or one that is not a constant."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return -1
    args = node.args
    positional = args.posonlyargs + args.args
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
    pairs += [(arg, default) for arg, default in zip(args.kwonlyargs, args.kw_defaults)
              if default is not None]
    for arg, default in pairs:
        if arg.arg == name:
            return int(bool(default.value)) if isinstance(default, ast.Constant) else -1
    return -1


def unkept_by(node: ast.Call, guard: Tuple[str, bool, int], positional: List[str], kwonly: List[str]) -> bool:
    """Does a call (``positional``: the names its positional arguments bind,
    ``self`` left out) give the guarding parameter a value of the truth that
    does not keep the task: a constant, or nothing and a constant default?"""
    name, keeps, default = guard
    if name not in positional and name not in kwonly:
        return False
    if any(isinstance(arg, ast.Starred) for arg in node.args):
        return False
    value: Optional[ast.expr] = None
    for keyword in node.keywords:
        if keyword.arg is None:
            return False  # **kwargs: not known
        if keyword.arg == name:
            value = keyword.value
    if value is None and name in positional and positional.index(name) < len(node.args):
        value = node.args[positional.index(name)]
    if value is None:
        return default != -1 and bool(default) != keeps
    return isinstance(value, ast.Constant) and bool(value.value) != keeps


def only_looks(fate: int, label: str) -> bool:
    """Does a callee that does ``fate`` to a new task from ``label`` only look
    at it (``result()`` waits for a threadsafe future, see ``U_RESULT``)?"""
    return fate == U_HARMLESS or (fate == U_RESULT and label != N.THREADSAFE)
