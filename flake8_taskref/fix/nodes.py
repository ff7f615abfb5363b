"""Small helpers over ``ast`` nodes for the fixer: names, and what a class or a
function looks like (its ``__init__``, slots, first parameter)."""
from __future__ import annotations

import ast
from typing import Container, Dict, List, Optional, Set, Union

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
Function = Union[ast.FunctionDef, ast.AsyncFunctionDef]


def dotted(node: ast.AST) -> Optional[str]:
    """``a.b.c`` for a name or an attribute chain of names, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def last_name(node: ast.AST) -> str:
    """The last name of a (called) dotted name: ``dataclass`` for
    ``dataclasses.dataclass(slots=True)``."""
    if isinstance(node, ast.Call):
        node = node.func
    name = dotted(node)
    return "" if name is None else name.rsplit(".", 1)[-1]


def fresh(base: str, taken: Container[str], numbers: Optional[Dict[str, int]] = None) -> str:
    """``base``, else ``base_1``, ``base_2``, ...: the first not taken.  With
    ``numbers`` (where the names taken only grow, and each one returned is
    taken at once), the count goes on from where it stopped for the same base
    instead of starting again at 1: n names of one base cost n questions, not
    n * n / 2 (8,000 sites of one function took 50 s; issue 33)."""
    if base not in taken:
        return base
    number = 1 if numbers is None else numbers.get(base, 1)
    while f"{base}_{number}" in taken:
        number += 1
    if numbers is not None:
        numbers[base] = number + 1
    return f"{base}_{number}"


def bound_names(node: ast.AST) -> List[str]:
    """The names a node binds other than by assignment to a name: parameters,
    defined and imported names, global and nonlocal declarations, exception
    and match-pattern names."""
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.alias):
        return [(node.asname or node.name).split(".")[0]]
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return list(node.names)
    if isinstance(node, ast.ExceptHandler):
        return [node.name] if node.name else []
    if type(node).__name__.startswith("Match"):  # match patterns: MatchAs, MatchStar, MatchMapping
        return [value for value in (getattr(node, "name", None), getattr(node, "rest", None)) if value]
    return []


def identifiers(root: ast.AST) -> Set[str]:
    """Every identifier written under root: names, attribute names, keyword
    names and every name bound (a new name must be none of them)."""
    found: Set[str] = set()
    for node in ast.walk(root):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg:
            found.add(node.arg)
        else:
            found.update(bound_names(node))
    return found


def first_param(func: Function) -> Optional[str]:
    params = func.args.posonlyargs + func.args.args
    return params[0].arg if params else None


# Methods that Python calls without an instance, or on one being finalised.
_NOT_ON_A_LIVE_INSTANCE = frozenset({"__new__", "__init_subclass__", "__class_getitem__", "__del__"})


def is_plain_method(func: Function) -> bool:
    """A method that gets a live instance: not a static or class method (nor
    ``__new__``, ``__init_subclass__``, ``__class_getitem__``, which are), nor
    ``__del__`` (its object is being finalised: a set on it keeps nothing)."""
    if func.name in _NOT_ON_A_LIVE_INSTANCE:
        return False
    for decorator in func.decorator_list:
        if last_name(decorator) in ("staticmethod", "classmethod"):
            return False
    return first_param(func) is not None


def init_of(cls: ast.ClassDef) -> Optional[ast.FunctionDef]:
    """The ``__init__`` that runs: the last one in the class body that is not an
    ``@overload`` stub, if it is a plain method."""
    found: Optional[ast.FunctionDef] = None
    for statement in cls.body:
        if isinstance(statement, ast.FunctionDef) and statement.name == "__init__":
            if not any(last_name(d) == "overload" for d in statement.decorator_list):
                found = statement
    if found is None or not is_plain_method(found):
        return None
    return found


def has_slots(cls: ast.ClassDef) -> bool:
    """Does the class body set ``__slots__`` (its instances may have no __dict__)?"""
    for statement in cls.body:
        targets = []
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, ast.AnnAssign):
            targets = [statement.target]
        if any(isinstance(t, ast.Name) and t.id == "__slots__" for t in targets):
            return True
    return False


def is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )
