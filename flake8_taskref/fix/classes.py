"""``--fix-keep instance``: can a class hold a task set of its own, and where in
its ``__init__`` is the set created?

The set is created in the class that spawns (never in a base), in its own
``__init__``, after the base initialiser's call and after any guard before it
(a base that refuses attributes until its own ``__init__`` ran then accepts
it), and before the ``__init__`` calls a method of the instance or hands the
instance to anything (which could spawn).  Where no such place exists, or the
class visibly refuses new attributes (``__slots__``, slotted or frozen
dataclasses and attrs classes, ``NamedTuple``, ``Enum``, ``Protocol``,
``TypedDict``, pydantic and msgspec models, a ``__setattr__`` of its own or of
a base in the file, a metaclass, a base made by a call), the task goes into
the module set and the note says why.
"""
from __future__ import annotations

import ast
from typing import Dict, FrozenSet, Iterable, List, Optional, Tuple

from flake8_taskref.fix.nodes import dotted, first_param, has_slots, init_of, is_docstring, last_name

# Bases (by their last name) whose instances take no new attribute, or not
# before a validation that a new attribute would fail.
_REFUSING_BASES = frozenset({
    "NamedTuple", "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum", "Protocol",
    "TypedDict", "BaseModel", "RootModel", "Struct", "BaseSettings",
})
# attrs' modern decorators make slotted classes; these take slots=/frozen= flags.
_SLOTTING_DECORATORS = frozenset({"define", "frozen", "mutable"})
_DATACLASS_DECORATORS = frozenset({"dataclass", "s", "attrs"})
_ATTRIBUTE_HOOKS = frozenset({"__setattr__", "__getattribute__", "__delattr__"})


def _keyword_true(call: ast.Call, name: str) -> bool:
    return any(
        keyword.arg == name and isinstance(keyword.value, ast.Constant) and keyword.value.value is True
        for keyword in call.keywords
    )


def _defines(cls: ast.ClassDef, names: FrozenSet[str]) -> bool:
    return any(
        isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name in names for s in cls.body
    )


class Classes:
    """The classes of one file, by name (for same-file bases)."""

    def __init__(self, classes: Iterable[ast.ClassDef]) -> None:
        self.by_name: Dict[str, List[ast.ClassDef]] = {}
        for node in classes:
            self.by_name.setdefault(node.name, []).append(node)

    def bases_in_file(self, cls: ast.ClassDef) -> List[ast.ClassDef]:
        """cls's ancestors defined in this file (by name), nearest first."""
        seen: List[ast.ClassDef] = []
        todo = [cls]
        while todo:
            current = todo.pop(0)
            for base_expr in current.bases:
                for base in self.by_name.get(dotted(base_expr) or "", ()):
                    if base is not cls and all(base is not other for other in seen):
                        seen.append(base)
                        todo.append(base)
        return seen

    def refusal(self, cls: ast.ClassDef) -> Optional[str]:
        """Why instances of cls may take no new attribute, or None."""
        if any(keyword.arg == "metaclass" for keyword in cls.keywords):
            return "the class has a metaclass"
        for decorator in cls.decorator_list:
            name = last_name(decorator)
            if name in _SLOTTING_DECORATORS:
                return f"the class is made by @{name} (slotted or frozen)"
            if name in _DATACLASS_DECORATORS and isinstance(decorator, ast.Call) and (
                _keyword_true(decorator, "slots") or _keyword_true(decorator, "frozen")
            ):
                return f"the class is a slotted or frozen @{name}"
        for current in [cls, *self.bases_in_file(cls)]:
            whose = "the class" if current is cls else f"its base {current.name}"
            if has_slots(current):
                return f"{whose} has __slots__"
            if _defines(current, _ATTRIBUTE_HOOKS):
                return f"{whose} controls its attributes with __setattr__"
            for base in current.bases:
                if isinstance(base, ast.Call):
                    return "a base of the class is made by a call"
                if last_name(base) in _REFUSING_BASES:
                    return f"the class derives from {last_name(base)}"
        return None

    def subclass_skips_init(self, cls: ast.ClassDef) -> Optional[str]:
        """A subclass in this file whose own ``__init__`` does not call an
        initialiser (``super().__init__`` or ``Base.__init__``): its instances
        never run cls's ``__init__``."""
        for classes in self.by_name.values():
            for other in classes:
                if other is cls or all(base is not cls for base in self.bases_in_file(other)):
                    continue
                init = init_of(other)
                if init is not None and not any(
                    isinstance(node, ast.Attribute) and node.attr == "__init__" for node in ast.walk(init)
                ):
                    return other.name
        return None

    def makes_instances_without_init(self, cls: ast.ClassDef) -> bool:
        """Does the class's code build instances without ``__init__``
        (``cls.__new__(cls)`` in an alternative constructor)?"""
        outside_new = [s for s in cls.body if not (isinstance(s, ast.FunctionDef) and s.name == "__new__")]
        return any(
            isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "__new__"
            for statement in outside_new
            for node in ast.walk(statement)
        )

    def base_init_calls_override(self, cls: ast.ClassDef) -> bool:
        """Does a base's ``__init__`` in this file call a method that cls
        overrides (which would run before cls's set exists)?"""
        own = {s.name for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for base in self.bases_in_file(cls):
            init = init_of(base)
            if init is None:
                continue
            me = first_param(init) or "self"
            for node in ast.walk(init):
                if isinstance(node, ast.Call):
                    name = dotted(node.func) or ""
                    if name.startswith(me + ".") and name[len(me) + 1:] in own:
                        return True
        return False


def _hands_out(statement: ast.stmt, own: str) -> bool:
    """Does the statement call a method of the instance, or pass the instance
    to a call (either could spawn before the set exists)?"""
    for node in ast.walk(statement):
        if isinstance(node, ast.Call):
            if (dotted(node.func) or "").startswith(own + "."):
                return True
            values = [*node.args, *(keyword.value for keyword in node.keywords)]
            if any(isinstance(value, ast.Name) and value.id == own for value in values):
                return True
    return False


def _base_init(statement: ast.stmt, own: str) -> bool:
    """``super().__init__(...)``, ``super(C, self).__init__(...)`` or
    ``Base.__init__(self, ...)`` as a statement of its own."""
    if not isinstance(statement, ast.Expr):
        return False
    value = statement.value
    if isinstance(value, ast.Await):
        value = value.value
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return False
    if value.func.attr != "__init__":
        return False
    receiver = value.func.value
    if isinstance(receiver, ast.Call) and dotted(receiver.func) == "super":
        return True
    return bool(value.args) and isinstance(value.args[0], ast.Name) and value.args[0].id == own


def _guard(statement: ast.stmt) -> bool:
    """``if ...: raise`` or ``assert ...``: a check before anything else (one that
    returns would leave an instance without the set)."""
    if isinstance(statement, ast.Assert):
        return True
    return (
        isinstance(statement, ast.If) and not statement.orelse and isinstance(statement.body[-1], ast.Raise)
    )


def place_in_init(init: ast.FunctionDef) -> Tuple[Optional[int], str]:
    """Where in ``init``'s body the set is created (the index of the statement
    it goes before; the body's length: at the end), or why nowhere."""
    own = first_param(init) or "self"
    body = init.body
    base_calls = [index for index, statement in enumerate(body) if _base_init(statement, own)]
    all_calls = [
        node for node in ast.walk(init)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "__init__"
    ]
    if len(all_calls) > len(base_calls) or len(base_calls) > 1:
        return None, "its __init__ calls an initialiser inside a block or more than once"
    if base_calls:
        index = base_calls[0] + 1
    else:
        index = 0
        while index < len(body) and (is_docstring(body[index]) or _guard(body[index])):
            index += 1
    for statement in body[:index]:
        if not _base_init(statement, own) and _hands_out(statement, own):
            return None, "its __init__ calls a method of the instance before the base initialiser"
        if any(isinstance(node, ast.Return) for node in ast.walk(statement)):
            return None, "its __init__ can return before the set is created"
    return index, ""
