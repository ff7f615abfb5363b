"""How a fixed file spells the type of a new task set, with the names it already
has: a fix adds no import (so it cannot break an import order, and changes
nothing but whether the task can be collected).

The annotation follows the file: none where the caller says the file (or the
``__init__``) has no annotations, which it says only of instance sets;
``set[asyncio.Task[object]]`` (``Task`` is covariant: every task fits) where
the file imports ``asyncio`` or ``Task``; ``set[asyncio.Future[Any]]`` for
the results of ``ensure_future()``, ``gather()``, ``shield()`` and helpers
(Futures; a Task is one too) where it also has ``Any``; ``set[Any]`` for the
futures of ``run_coroutine_threadsafe()`` (``concurrent.futures.Future``, which
the file may not import); ``set[object]`` where it has neither.  A file
written for Pythons before 3.9 (``typing.Dict`` and no builtin generics) gets
``Set[...]`` when it imports ``Set``, else the whole annotation quoted at
module level (not evaluated there); names imported under ``if TYPE_CHECKING:``
do not count for what runs.
"""
from __future__ import annotations

import ast
from typing import Container, List, Optional, Sequence, Set, Tuple, Union

from flake8_taskref.fix.nodes import dotted

_OLD_GENERICS = frozenset({"Dict", "List", "Set", "FrozenSet", "Tuple", "Type", "DefaultDict", "Deque"})
_BUILTIN_GENERICS = ("dict", "list", "set", "frozenset", "tuple", "type")
_Import = Union[ast.Import, ast.ImportFrom]


def _runtime_imports(body: Sequence[ast.stmt]) -> List[_Import]:
    """The imports a module runs when imported: at its top level and in its
    ``if``/``try`` blocks, not in functions, classes or ``if TYPE_CHECKING:``."""
    found: List[_Import] = []
    for statement in body:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            found.append(statement)
        elif isinstance(statement, ast.If):
            if "TYPE_CHECKING" in (dotted(statement.test) or ""):
                continue
            found += _runtime_imports(statement.body) + _runtime_imports(statement.orelse)
        elif isinstance(statement, ast.Try) or type(statement).__name__ == "TryStar":
            found += _runtime_imports(statement.body)  # type: ignore[attr-defined]
            for handler in statement.handlers:  # type: ignore[attr-defined]
                found += _runtime_imports(handler.body)
    return found


def _subscripts_builtins(text: str) -> bool:
    """Does the text subscript a builtin generic (``dict[``, not ``x.dict[`` or
    ``mydict[``)?  (``str.find`` for each, rather than one pattern with a
    look-behind, which is slow on a large file.)"""
    for name in _BUILTIN_GENERICS:
        at = text.find(name + "[")
        while at >= 0:
            before = text[at - 1: at]
            if not (before and (before.isalnum() or before in "_.")):
                return True
            at = text.find(name + "[", at + 1)
    return False


class Typing:
    """How the file spells the set's type, from the names it imports."""

    def __init__(
        self,
        body: Sequence[ast.stmt],
        text: str,
        annotated: bool,
        min_python: Optional[Tuple[int, int]] = None,
        shadowed: Container[str] = frozenset(),
    ) -> None:
        """``body``: the module's statements that run before the annotation
        (their imports are the names it may use); ``min_python``: the oldest
        Python the project supports, None when unknown; ``shadowed``: names the
        file rebinds (``object``, say), which the annotation must not use."""
        self.asyncio: Optional[str] = None  # "asyncio", an alias, or None
        self.asyncio_names: Set[str] = set()  # names imported from asyncio as they are
        self.typing_module: Optional[str] = None
        self.typing_names: Set[str] = set()
        self.postponed = False
        self.shadowed = shadowed
        for node in _runtime_imports(body):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    # ``import asyncio.base_events`` binds ``asyncio`` too (``... as be``
                    # binds the submodule)
                    module = alias.name if alias.asname else alias.name.split(".")[0]
                    bound = alias.asname or module
                    if module == "asyncio" and self.asyncio is None:
                        self.asyncio = bound
                    elif module == "typing" and self.typing_module is None:
                        self.typing_module = bound
            elif node.level == 0 and node.module is not None:
                for alias in node.names:
                    if alias.asname is not None or alias.name == "*":
                        continue
                    if node.module == "asyncio":
                        self.asyncio_names.add(alias.name)
                    elif node.module == "typing":
                        self.typing_names.add(alias.name)
                    elif node.module == "__future__" and alias.name == "annotations":
                        self.postponed = True
        # a file that binds ``object`` somewhere (a parameter, say: appdaemon's ``object:
        # "PluginBase"``, a new user's fix of the thirty-eighth trial's sweep) gets ``Any``
        # where it imports it, no annotation where it does not
        self.no_object = "object" in shadowed
        any_ = "Any" in self.typing_names or self.typing_module is not None
        self.annotated = annotated and (any_ or not self.no_object)
        builtin_generics = _subscripts_builtins(text)
        # typing.Dict/List/... and no dict[...]/list[...]: written for Pythons
        # before 3.9, where set[...] and asyncio.Task[...] fail at run time
        self.old_style = bool(self.typing_names & _OLD_GENERICS) and not builtin_generics
        # can an annotation evaluated at import subscript set and asyncio.Task?
        # (3.9 and later: the project says so, or the file already does it unquoted)
        self.generics_run = (min_python is not None and min_python >= (3, 9)) or (
            builtin_generics and not self.postponed
        )

    def annotation(self, future: bool, module_level: bool, concurrent: bool = False) -> Optional[str]:
        """The set's annotation, or None in a file without annotations.  A
        module-level annotation is evaluated at import (unless postponed).
        ``concurrent``: it holds ``run_coroutine_threadsafe()``'s futures of
        ``concurrent.futures`` (no import added for them: ``Any``, else ``object``)."""
        if not self.annotated:
            return None
        element = self._task(future) if not concurrent else self._any()
        if self.old_style:
            evaluated = module_level and not self.postponed
            # asyncio.Task[...] is not subscriptable at run time before 3.9
            inner = f'"{element}"' if evaluated and "[" in element else element
            if "Set" in self.typing_names:
                return f"Set[{inner}]"
            if self.typing_module is not None:
                return f"{self.typing_module}.Set[{inner}]"
            text = f"set[{element}]"
            return f'"{text}"' if evaluated else text
        text = f"set[{element}]"
        if module_level and not self.postponed and not self.generics_run:
            return f'"{text}"'  # evaluated at import, maybe on a Python before 3.9
        return text

    def _any(self) -> str:
        if "Any" in self.typing_names:
            return "Any"
        if self.typing_module is not None:
            return f"{self.typing_module}.Any"
        return "object"

    def _task(self, future: bool) -> str:
        kind = "Future" if future else "Task"
        if kind in self.asyncio_names:
            spelled = kind
        elif self.asyncio is not None:
            spelled = f"{self.asyncio}.{kind}"
        else:
            return self._any() if self.no_object else "object"
        if not future and not self.no_object:
            return f"{spelled}[object]"  # covariant: a Task[T] is a Task[object]
        if "Any" in self.typing_names:
            return f"{spelled}[Any]"
        if self.typing_module is not None:
            return f"{spelled}[{self.typing_module}.Any]"
        return "object"  # Future is invariant: without Any, only object holds them all
