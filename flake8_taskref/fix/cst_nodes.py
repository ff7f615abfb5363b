"""Small helpers over LibCST nodes for the fixer: finding nodes, names, and
what a class or function looks like (its ``__init__``, slots, bound names)."""
from __future__ import annotations

from typing import List, Optional, Sequence, Set, Tuple, Type, TypeVar

import libcst as cst

STRINGS = (cst.SimpleString, cst.ConcatenatedString)  # a docstring


_N = TypeVar("_N", bound="cst.CSTNode")


def collect(
    root: "cst.CSTNode", kind: Type[_N], stop: Tuple[Type["cst.CSTNode"], ...] = ()
) -> List[_N]:
    """Every node of ``kind`` under root (not looking inside ``stop`` nodes)."""
    found: List[_N] = []

    class _Collect(cst.CSTVisitor):
        def on_visit(self, node: "cst.CSTNode") -> bool:
            if isinstance(node, kind):
                found.append(node)
            return node is root or not isinstance(node, stop)

    root.visit(_Collect())
    return found


def names_in(node: "cst.CSTNode") -> Set[str]:
    return {name.value for name in collect(node, cst.Name)}


def fresh(base: str, taken: Set[str]) -> str:
    if base not in taken:
        return base
    number = 1
    while f"{base}_{number}" in taken:
        number += 1
    return f"{base}_{number}"


def dotted(node: "cst.BaseExpression") -> Optional[str]:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        inner = dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr.value}"
    return None


def bound_names(func: "cst.FunctionDef") -> Set[str]:
    """Names a function binds itself: parameters and assignment targets (a
    ``global`` declaration makes them the module's again)."""
    bound = {param.name.value for param in collect(func.params, cst.Param)}
    for target in collect(func.body, cst.AssignTarget):
        bound |= {name.value for name in collect(target, cst.Name)}
    for node in collect(func.body, cst.AnnAssign):
        if isinstance(node.target, cst.Name):
            bound.add(node.target.value)
    for declared in collect(func.body, cst.Global):
        bound -= {item.name.value for item in declared.names}
    return bound


def first_param(func: "cst.FunctionDef") -> Optional[str]:
    params = list(func.params.posonly_params) + list(func.params.params)
    return params[0].name.value if params else None


def is_plain_method(func: "cst.FunctionDef") -> bool:
    for decorator in func.decorators:
        name = dotted(decorator.decorator)
        if name is not None and name.rsplit(".", 1)[-1] in ("staticmethod", "classmethod"):
            return False
    return first_param(func) is not None


def init_of(cls: "cst.ClassDef") -> Optional["cst.FunctionDef"]:
    """The ``__init__`` that runs: the last one in the class body that is not an
    ``@overload`` stub."""
    body = cls.body
    if not isinstance(body, cst.IndentedBlock):
        return None
    found: Optional[cst.FunctionDef] = None
    for statement in body.body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == "__init__":
            stub = any(
                (dotted(decorator.decorator) or "").rsplit(".", 1)[-1] == "overload"
                for decorator in statement.decorators
            )
            if not stub:
                found = statement
    if found is None or not is_plain_method(found) or not isinstance(found.body, cst.IndentedBlock):
        return None
    return found


def has_slots(cls: "cst.ClassDef") -> bool:
    """Does the class body set ``__slots__`` (its instances may have no __dict__)?"""
    body = cls.body
    if not isinstance(body, cst.IndentedBlock):
        return False
    for statement in body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                targets: List[cst.BaseExpression] = []
                if isinstance(small, cst.Assign):
                    targets = [target.target for target in small.targets]
                elif isinstance(small, cst.AnnAssign):
                    targets = [small.target]
                if any(isinstance(t, cst.Name) and t.value == "__slots__" for t in targets):
                    return True
    return False


def calls_super_init(init: "cst.FunctionDef") -> bool:
    for call in collect(init.body, cst.Call):
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "__init__":
            return True
    return False


def module_level_names(module: "cst.Module") -> Set[str]:
    found: Set[str] = set()
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        if isinstance(target.target, cst.Name):
                            found.add(target.target.value)
                elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    found.add(small.target.value)
    return found


def attribute_names(node: "cst.CSTNode") -> Set[str]:
    return {attribute.attr.value for attribute in collect(node, cst.Attribute)}


def block(suite: "cst.BaseSuite") -> Sequence["cst.BaseStatement"]:
    return suite.body if isinstance(suite, cst.IndentedBlock) else []
