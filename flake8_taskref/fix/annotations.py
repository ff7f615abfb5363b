"""How a fixed file spells the type of a new task set, and the imports that takes.

The annotation follows the file: none in a file without annotations; ``Set[...]``
where the file is written for Pythons before 3.9 (``typing.Dict`` and no builtin
generics), quoted at module level there; ``asyncio.Task`` bare where the file
writes it bare; names imported under ``if TYPE_CHECKING:`` do not count.
"""
from __future__ import annotations

import bisect
import re
from typing import Dict, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from flake8_taskref.fix.cst_nodes import block, collect, dotted


_OLD_GENERICS = frozenset({"Dict", "List", "Set", "FrozenSet", "Tuple", "Type", "DefaultDict", "Deque"})


_BUILTIN_GENERIC = re.compile(r"(?<![\w.])(dict|list|set|frozenset|tuple|type)\[")


def _runtime_imports(
    body: Sequence["cst.BaseStatement"],
) -> List[Union["cst.Import", "cst.ImportFrom"]]:
    """The imports a module runs when imported: at its top level and in its
    ``if``/``try`` blocks, not in functions, classes or ``if TYPE_CHECKING:``."""
    found: List[Union[cst.Import, cst.ImportFrom]] = []
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            found += [s for s in statement.body if isinstance(s, (cst.Import, cst.ImportFrom))]
        elif isinstance(statement, cst.If):
            if "TYPE_CHECKING" in (dotted(statement.test) or ""):
                continue
            found += _runtime_imports(block(statement.body))
            orelse = statement.orelse
            if isinstance(orelse, cst.If):  # elif
                found += _runtime_imports([orelse])
            elif orelse is not None:
                found += _runtime_imports(block(orelse.body))
        elif isinstance(statement, cst.Try):
            found += _runtime_imports(block(statement.body))
            for handler in statement.handlers:
                found += _runtime_imports(block(handler.body))
    return found


class Typing:
    """How the file spells the set's type, and the imports that takes."""

    def __init__(self, module: "cst.Module") -> None:
        self.module = module
        self.code = module.code
        self.asyncio: Optional[str] = None  # "asyncio", an alias, or None
        self.task_names: Set[str] = set()  # names imported from asyncio
        self.typing_module: Optional[str] = None
        self.typing_names: Set[str] = set()
        for node in _runtime_imports(module.body):
            if isinstance(node, cst.Import):
                for alias in node.names:
                    name = dotted(alias.name)
                    bound = alias.asname.name.value if alias.asname and isinstance(
                        alias.asname.name, cst.Name) else name
                    if name == "asyncio" and self.asyncio is None:
                        self.asyncio = bound
                    elif name == "typing" and self.typing_module is None:
                        self.typing_module = bound
            elif isinstance(node, cst.ImportFrom) and not node.relative and node.module is not None:
                source = dotted(node.module)
                if isinstance(node.names, cst.ImportStar):
                    continue
                for alias in node.names:
                    if alias.asname is not None:
                        continue
                    imported = dotted(alias.name)
                    if source == "asyncio" and imported is not None:
                        self.task_names.add(imported)
                    elif source == "typing" and imported is not None:
                        self.typing_names.add(imported)

        self.annotated = bool(collect(module, cst.Annotation))
        # typing.Dict/List/... and no dict[...]/list[...]: written for Pythons
        # before 3.9, where set[...] and asyncio.Task[...] fail at run time
        self.old_style = bool(self.typing_names & _OLD_GENERICS) and not _BUILTIN_GENERIC.search(self.code)
        self.postponed = "annotations" in self.future_names(module)
        self.imports: List[Tuple[str, Optional[str]]] = []
        # module -> (the top-level ``from module import ...`` to extend, names)
        self.merges: Dict[Optional[str], Tuple[cst.ImportFrom, List[str]]] = {}

    @staticmethod
    def future_names(module: "cst.Module") -> Set[str]:
        names: Set[str] = set()
        for node in collect(module, cst.ImportFrom, (cst.FunctionDef, cst.ClassDef)):
            if node.module is not None and dotted(node.module) == "__future__" and not isinstance(
                node.names, cst.ImportStar
            ):
                names.update(alias.evaluated_name for alias in node.names)
        return names

    def annotation(self, future: bool, module_level: bool = False) -> Optional[str]:
        """The set's annotation, or None in a file without annotations.  A
        module-level annotation is evaluated at import: in a file written for
        old Pythons (and without postponed annotations) its element is quoted."""
        if not self.annotated:
            return None
        kind = "Future" if future else "Task"
        if kind in self.task_names:
            element = kind
            bare_style = re.search(rf"(?<![\w.]){kind}\b(?!\s*[\[(])", self.code) is not None
        elif self.asyncio is None and self.task_names:
            # the file imports names from asyncio, not the module: one name more
            element = kind
            self.imports.append(("asyncio", kind))
            bare_style = False
        else:
            prefix = self.asyncio
            if prefix is None:
                prefix = "asyncio"
                self.imports.append(("asyncio", None))
            element = f"{prefix}.{kind}"
            bare_style = re.search(
                rf"(?<![\w.]){re.escape(prefix)}\.{kind}\b(?!\s*[\[(])", self.code) is not None
        if not bare_style:
            element = f"{element}[{self._typing_name('Any')}]"
            if self.old_style and module_level and not self.postponed:
                element = f'"{element}"'
        if self.old_style or "Set" in self.typing_names:
            container = self._typing_name("Set")
        elif self.typing_module is not None and f"{self.typing_module}.Set[" in self.code:
            container = f"{self.typing_module}.Set"
        else:
            container = "set"
        return f"{container}[{element}]"

    def plan_imports(self) -> None:
        """Names from typing (and asyncio) go into the file's first top-level
        ``from typing import`` (``from asyncio import``) when it has one; the
        rest is added as new import statements."""
        self.imports = list(dict.fromkeys(self.imports))
        for node in self.module.body:
            if not isinstance(node, cst.SimpleStatementLine):
                continue
            for small in node.body:
                if (
                    isinstance(small, cst.ImportFrom)
                    and not small.relative
                    and small.module is not None
                    and not isinstance(small.names, cst.ImportStar)
                    and all(alias.asname is None for alias in small.names)
                ):
                    source = dotted(small.module)
                    wanted = [name for src, name in self.imports if src == source and name is not None]
                    if wanted and source not in self.merges:
                        self.merges[source] = (small, wanted)
                        self.imports = [item for item in self.imports if item[0] != source]

    def _typing_name(self, name: str) -> str:
        if name in self.typing_names:
            return name
        if self.typing_module is not None:
            return f"{self.typing_module}.{name}"
        self.imports.append(("typing", name))
        return name


def add_name(node: "cst.ImportFrom", name: str) -> "cst.ImportFrom":
    """``from typing import A, C`` + B: in order when the names are sorted,
    else at the end, with the separators the statement already uses."""
    assert not isinstance(node.names, cst.ImportStar)
    names = list(node.names)
    existing = [alias.evaluated_name for alias in names]
    if name in existing:
        return node
    separator = next(
        (alias.comma for alias in names[:-1] if isinstance(alias.comma, cst.Comma)),
        cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")),
    )
    alias = cst.ImportAlias(name=cst.Name(name))
    index = bisect.bisect(existing, name) if existing == sorted(existing) else len(names)
    if index == len(names):
        names[-1], alias = names[-1].with_changes(comma=separator), alias.with_changes(comma=names[-1].comma)
        names.append(alias)
    else:
        names.insert(index, alias.with_changes(comma=separator))
    return node.with_changes(names=names)
