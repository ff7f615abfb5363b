"""Where the code shows a task is done: the branch of a test that is taken only
once it is (``if task.done():``, ``if task in done:`` of the set of finished
tasks that ``asyncio.wait()`` returns).  The rules ask it of the statement
context recorded with a site; nothing here walks a tree."""
from __future__ import annotations

import ast

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import BRANCH, Frames, Scope


def done_test(test: ast.expr, name: str, branch: int) -> bool:
    """Is branch ``branch`` of ``if test`` taken only when ``name`` is done?"""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    inner = test.operand if isinstance(test, ast.UnaryOp) and negated else test
    return (
        isinstance(inner, ast.Call)
        and isinstance(inner.func, ast.Attribute)
        and inner.func.attr == "done"
        and isinstance(inner.func.value, ast.Name)
        and inner.func.value.id == name
        and branch == (1 if negated else 0)
    )


def done_where(frames: Frames, name: str, scope: Scope) -> bool:
    """Is the place whose context is ``frames`` in a branch taken only once the
    task ``name`` holds is done: ``if name.done():`` (or the ``else`` of ``if
    not name.done():``), or ``if name in done:`` where ``done`` is bound only
    as the first of the two sets an awaited ``asyncio.wait()`` returns (``done,
    pending = await asyncio.wait(...)``)?"""
    for kind, node, branch in frames:
        if kind != BRANCH or not isinstance(node, ast.If):
            continue
        test = node.test
        if done_test(test, name, branch) or branch == 0 and _in_done_set(test, name, scope):
            return True
    return False


def _in_done_set(test: ast.expr, name: str, scope: Scope) -> bool:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In)):
        return False
    left, right = test.left, test.comparators[0]
    if not (isinstance(left, ast.Name) and left.id == name and isinstance(right, ast.Name)):
        return False
    bindings = scope.bindings.get(right.id, ())
    return bool(bindings) and all(_done_set(binding.stmt, right.id, scope) for binding in bindings)


def _done_set(statement: object, name: str, scope: Scope) -> bool:
    """Is ``statement`` ``name, pending = await asyncio.wait(...)``?"""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return False
    target, value = statement.targets[0], statement.value
    call = value.value if isinstance(value, ast.Await) else None
    return (
        isinstance(target, ast.Tuple) and len(target.elts) == 2
        and isinstance(target.elts[0], ast.Name) and target.elts[0].id == name
        and isinstance(call, ast.Call) and scope.imports.resolve(call.func) == N.WAIT
    )
