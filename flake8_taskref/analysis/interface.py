"""What a module shows other modules, recorded in the one pass: the generic
``Recorder`` plus the names the module binds at its level to other modules'
names (imports, re-exports, ``timeout = asyncio.timeout``, ``__all__``), its
classes (their bases, the types written down for their attributes, whether
something dynamic hides their methods) and the types written down for
parameters.  ``exports.py`` makes the module's summary of it; the rules use the
types to look up methods of other modules (``summaries.py``).
"""
from __future__ import annotations

import ast
import re
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Tuple, Union

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import ClassFacts, Scope, Spawn
from flake8_taskref.analysis.lookups import is_method, local_type, values_key
from flake8_taskref.analysis.modules import External, ModuleSummary, Resolver, View
from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.scopes import FUNCTIONS, Recorder
from flake8_taskref.analysis.shortcut import HotLines

SELF_NAMES = frozenset({"self", "cls"})
# Annotations of a mapping ``M[K, V]``, whose values ``values_key`` reads.
_MAPPINGS = frozenset({
    "typing.Dict", "typing.Mapping", "typing.MutableMapping", "typing.DefaultDict", "typing.OrderedDict",
    "collections.OrderedDict", "collections.defaultdict", "collections.abc.Mapping",
    "collections.abc.MutableMapping",
})
# Annotations of a collection ``C[T]`` whose iteration gives ``T`` (``for run in self.runs``).
_SEQUENCES = frozenset({
    "typing.List", "typing.Set", "typing.FrozenSet", "typing.Deque", "typing.Sequence",
    "typing.MutableSequence", "typing.AbstractSet", "typing.MutableSet", "typing.Collection",
    "typing.Iterable", "collections.deque", "collections.abc.Sequence",
    "collections.abc.MutableSequence", "collections.abc.Set", "collections.abc.MutableSet",
    "collections.abc.Collection", "collections.abc.Iterable",
})
_BUILTIN_SEQUENCES = frozenset({"list", "set", "frozenset"})


def _elements_key(source: ast.expr) -> Optional[str]:
    """What a ``for`` loop over ``source`` binds, as ``ClassFacts.types`` keys it:
    ``self.x`` (or ``list(self.x)``, ``self.x.copy()``), ``"x*"``; ``self.x.values()``,
    ``"x[]"``; None for anything else."""
    key = "*"
    if isinstance(source, ast.Call) and not source.keywords:
        func = source.func
        if isinstance(func, ast.Name) and func.id in N.COPYING_CALLS and len(source.args) == 1:
            source = source.args[0]
        elif isinstance(func, ast.Attribute) and func.attr in ("copy", "values") and not source.args:
            source, key = func.value, "*" if func.attr == "copy" else "[]"
    if isinstance(source, ast.Attribute) and isinstance(source.value, ast.Name) and source.value.id == "self":
        return source.attr + key
    return None


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


_HEAD = re.compile(r"\s*([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*(?:\[(.*)\])?\s*\Z", re.S)


def _split(text: str, separator: str) -> List[str]:
    """``text`` split at ``separator`` outside brackets."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts


def _annotation(text: str, depth: int) -> Optional[ast.expr]:
    """The expression of a string annotation, as far as a type name goes:
    dotted names, subscripts, ``X | None`` (read without compiling the text:
    the analysis compiles nothing)."""
    if depth > 8:
        return None
    union = [part for part in _split(text, "|") if part.strip() != "None"]
    if len(union) != 1:
        return None
    match = _HEAD.match(union[0])
    if match is None:
        return None
    names = [name.strip() for name in match.group(1).split(".")]
    node: ast.expr = ast.Name(names[0], ast.Load())
    for name in names[1:]:
        node = ast.Attribute(node, name, ast.Load())
    inner = match.group(2)
    if inner is None:
        return node
    items: List[ast.expr] = []
    for item in _split(inner, ","):
        found = _annotation(item, depth + 1) if item.strip() != "None" else ast.Constant(None)
        items.append(ast.Name("object", ast.Load()) if found is None else found)
    index = items[0] if len(items) == 1 else ast.Tuple(items, ast.Load())
    return ast.Subscript(node, index, ast.Load())


def _rebinds_itself(stmt: Optional[ast.stmt], name: str) -> bool:
    """``Worker = Worker`` (a class body that names the module's class so that
    a subclass may override it): the name still stands for what it did."""
    return (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Name) and stmt.value.id == name)


def _class_binds(node: ast.ClassDef, name: str) -> bool:
    """Does a class body, which binds ``name``, bind it to something of its own
    (a nested class or function, an assignment but ``name = name``, an import,
    a binding under an ``if`` or a loop), not only to what it was?"""
    itself = False
    for stmt in node.body:
        if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
            return True
        if isinstance(stmt, (ast.Import, ast.ImportFrom)) and any(
            (alias.asname or alias.name.partition(".")[0]) == name for alias in stmt.names
        ):
            return True
        targets = stmt.targets if isinstance(stmt, ast.Assign) else (
            [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and (
                not isinstance(stmt, ast.AnnAssign) or stmt.value is not None) else [])
        if any(isinstance(target, ast.Name) and target.id == name for target in targets):
            if not _rebinds_itself(stmt, name):
                return True
            itself = True
    return not itself


def _no_modules(name: str) -> Optional[ModuleSummary]:
    """The view of a file analysed alone: no other module is known."""
    return None


class InterfaceRecorder(Recorder):
    """``Recorder`` with what the module shows other modules."""

    def __init__(
        self, options: Options, hot: Optional[HotLines] = None, filename: Optional[str] = None,
        view: Optional[View] = None,
    ) -> None:
        super().__init__(options, hot, filename)
        # The other modules of the project, through their summaries (none when
        # the caller gives no view: the file's own classes only).
        self.resolver = Resolver(view or _no_modules, self.module_name or N.NO_MODULE)
        self.facts.resolver = self.resolver
        # ``name = imported.name`` at module level: what each assignment of the
        # name resolves to through the imports (None: not an imported name)
        self._assigned: Dict[str, List[Optional[str]]] = {}
        # ``spawn = loop.create_task`` (a name of a module or function scope
        # bound to a loop method that spawns): (id of the scope, name) -> the
        # method; None once the name is bound so twice
        self._bound_spawners: Dict[Tuple[int, str], Optional[ast.Attribute]] = {}
        # (id of the function scope, name) of the locals whose class the function
        # makes (``_note_local_type``)
        self._local_types: Set[Tuple[int, str]] = set()
        # ``self.create_task = self.loop.create_task`` in a method: (id of the
        # class scope, attribute) -> the loop's attribute every store of it names
        # (None once stored otherwise); the calls ``self.create_task(...)`` seen
        # (``_spawner_attr``), with their own receiver; attributes so named
        # stored through another receiver (no class can be told)
        self._spawner_attrs: Dict[Tuple[int, str], Optional[ast.Attribute]] = {}
        self._self_spawns: Dict[Tuple[int, str], List[Tuple[Spawn, ast.expr]]] = {}
        self._spawner_attrs_elsewhere: Set[str] = set()

    def _qualname(self, node: ast.expr) -> Optional[str]:
        """The canonical dotted name ``node`` refers to through the file's imports.
        (The pass reads no other module: what another module binds a name to,
        ``timeout = asyncio.timeout``, the rules look up at the end.  But for
        asyncio reached through a module of the project that imports it,
        ``facade.asyncio.get_running_loop()``, so that tests can patch it: that
        module's summary says what its ``asyncio`` is.)"""
        found = self.scope.imports.resolve(node)
        if found is not None and ".asyncio." in found and not found.startswith("asyncio."):
            target = self.resolver.resolve(found)
            if isinstance(target, External) and target.dotted.startswith("asyncio."):
                return N.canonical(target.dotted)
        return found

    def _maybe(self, qualname: Optional[str], names: FrozenSet[str]) -> bool:
        """Can ``qualname``, a name of the project, stand for an asyncio name
        whose last part is one of ``names`` (``from ._compat import timeout``)?
        The rules decide (``TimeoutSite.module``)."""
        return (
            qualname is not None
            and qualname.rpartition(".")[2] in names
            and qualname.partition(".")[0] not in N.STDLIB
        )

    # ------------------------------------------------ names of the module
    def _note_import(self, node: Union[ast.Import, ast.ImportFrom]) -> None:
        """An import at module level binds names other modules may import
        from this one (a re-export); in a function, the names it binds have no class known."""
        if isinstance(node, ast.ImportFrom) and any(alias.name == "asyncio" for alias in node.names):
            self._asyncio_from(node)
        if self.scope.kind != Scope.MODULE:
            for alias in node.names if self.scope.kind == Scope.FUNCTION else ():
                self._untyped(alias.asname or alias.name.partition(".")[0])
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self._module_alias(alias.asname, alias.name)
                else:
                    top = alias.name.split(".", 1)[0]
                    self._module_alias(top, top)
            return
        module = N.absolute_module(self.package, node.level, node.module)
        if module:
            for alias in node.names:
                if alias.name != "*":
                    self._module_alias(alias.asname or alias.name, f"{module}.{alias.name}")
                elif module != "asyncio":
                    # ``from .helpers import *``: under the name ``*``, the
                    # modules whose public names this one re-exports
                    self.facts.aliases.setdefault("*", []).append(module)

    def _asyncio_from(self, node: ast.ImportFrom) -> None:
        """``from app.optional import asyncio``, where that module of the project
        imports asyncio (splitio's loaders, a miss of the thirty-sixth trial's
        sweep): the name stands for asyncio in this file, for every question (a
        loop getter, a spawner, a timeout), as ``_qualname`` reads
        ``facade.asyncio.get_running_loop()``."""
        module = N.absolute_module(self.package, node.level, node.module)
        if not module or module.partition(".")[0] in N.STDLIB:
            return
        summary = self.resolver.module(module)
        if summary is None or "asyncio" in summary.ambiguous or summary.alias("asyncio") != ("asyncio",):
            return  # (``import asyncio`` there, and nothing else bound under the name: not a shim's module)
        for alias in node.names:
            if alias.name == "asyncio":
                self.scope.imports.bind(alias.asname or alias.name, "asyncio")

    def _module_alias(self, name: str, dotted: str) -> None:
        """A name of the module bound to another module's name (an import, a
        re-export, ``timeout = asyncio.timeout``); a name bound so on several
        branches (a version switch) keeps every target."""
        self.facts.aliases.setdefault(name, []).append(N.canonical(dotted))

    def _note_module_binding(self, targets: Sequence[ast.expr], value: ast.expr) -> bool:
        """``name = other.name`` at module level (an alias, True), and
        ``__all__ = [...]``."""
        if self.scope.kind != Scope.MODULE or len(targets) != 1 or not isinstance(targets[0], ast.Name):
            return False
        name = targets[0].id
        if name == "__all__" and isinstance(value, (ast.List, ast.Tuple)):
            items = [elt.value for elt in value.elts if isinstance(elt, ast.Constant)]
            if len(items) == len(value.elts) and all(isinstance(item, str) for item in items):
                self.facts.exported = [str(item) for item in items]
            return False
        dotted = self.type_name(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
        if dotted is None:
            return False
        self._module_alias(name, dotted)
        self._assigned.setdefault(name, []).append(self.scope.imports.resolve(value))
        return True

    def _module_done(self) -> None:
        """A module-level alias of an imported name (``create_task =
        asyncio.create_task``, also on the branches of a ``try`` or a version
        switch) is that name in the file's functions, as an import would be,
        when the module binds the name in no other way, and every assignment
        binds the same name or each binds a spawner (``asyncio.create_task`` on
        one branch, ``asyncio.ensure_future`` on the other)."""
        module = self.scope
        if self.hot is not None and self._bound_spawners:
            self.hot.add_words([
                name for (scope, name), method in self._bound_spawners.items()
                if scope == id(module) and method is not None and name not in module.rebound
            ])
        if not self._assigned:
            return
        spawners = N.TASK_SPAWNERS | self.options.spawners
        found = []
        for name, targets in self._assigned.items():
            first = targets[0]
            if first is None or name in self.facts.other_bound or None in targets:
                continue
            if all(target == first for target in targets) or all(target in spawners for target in targets):
                self.scope.imports.bind(name, first)
                found.append((name, first))
        if found and self.hot is not None:
            self.hot.add_aliases(found)

    def type_name(self, node: ast.expr) -> Optional[str]:
        """The dotted name a class or annotation expression stands for: an
        imported name, a class of this module, ``Optional[T]``, ``T | None``,
        ``C[Any]`` (its class), a string holding a dotted name; None otherwise."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            # a string annotation ("Connection[Any]"): the expression it holds
            expression = _annotation(node.value, 0)
            if expression is None:
                return None
            node = expression
        if isinstance(node, ast.Subscript):
            container = self.type_name(node.value)
            inner = node.slice
            if container in ("typing.Optional", "typing_extensions.Optional"):
                return self.type_name(inner)
            if container in ("typing.Union", "typing_extensions.Union") and isinstance(inner, ast.Tuple):
                kept = [elt for elt in inner.elts if not _is_none(elt)]
                return self.type_name(kept[0]) if len(kept) == 1 else None
            return container
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            if _is_none(node.right):
                return self.type_name(node.left)
            if _is_none(node.left):
                return self.type_name(node.right)
            return None
        found = self.scope.imports.resolve(node)
        if found is not None:
            return found
        if isinstance(node, ast.Name) and node.id in self.facts.classes and not self._bound_inside(node.id):
            # (not a nested class of that name: ``class Hub: class Station: ...``)
            return f"{self.facts.name or N.NO_MODULE}.{node.id}"
        return None

    def _bound_inside(self, name: str) -> bool:
        """Is ``name`` bound in this class body or in a function around this
        place, as Python looks names up (a function does not see the names of
        the class bodies around it), so that it is not the module's name of
        that spelling?  (``global`` and ``nonlocal`` look further out.)"""
        scope: Optional[Scope] = self.scope
        first = True
        while scope is not None and scope.kind != Scope.MODULE:
            bindings = scope.bindings.get(name) if first or scope.kind == Scope.FUNCTION else None
            if bindings is not None and name not in scope.declared and (
                _class_binds(scope.node, name) if isinstance(scope.node, ast.ClassDef)
                else not (bindings and all(_rebinds_itself(binding.stmt, name) for binding in bindings))
            ):
                return True
            scope, first = scope.parent, False
        return False

    # ------------------------------------------------------------ classes
    def _note_class(self, node: ast.ClassDef, scope: Scope) -> None:
        klass = scope.klass
        assert klass is not None
        klass.bases = [self.type_name(expr) or "" for expr in node.bases]
        klass.dynamic = bool(node.keywords) or any(
            self.type_name(decorator.func if isinstance(decorator, ast.Call) else decorator)
            not in N.PLAIN_CLASS_DECORATORS
            for decorator in node.decorator_list
        )
        if self.scope.kind == Scope.MODULE:
            self.facts.classes[node.name] = scope

    def _note_function(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> None:
        klass = self.scope.klass
        if klass is not None and node.name in N.DYNAMIC_METHODS:
            klass.dynamic = True  # attributes made up at run time

    def _note_spawner_attrs(self, targets: Sequence[ast.expr], value: ast.expr) -> None:
        """Stores of attributes named as a loop's spawning method: in a method,
        ``self.create_task = self.loop.create_task`` makes ``self.create_task(...)``
        a call of the loop's (irc3's bots, a miss of the seventeenth trial of issue
        32), when every store of it in the class names the same loop attribute,
        and no class of the file binds the name, and no other store of an
        attribute so named is seen (through another receiver, ``cls``, an
        unpacking, ``setattr``)."""
        for target in targets:
            if isinstance(target, (ast.Tuple, ast.List, ast.Starred)):
                for part in ast.walk(target):  # (an unpacking: its value is not told)
                    if isinstance(part, ast.Attribute) and part.attr in N.LOOP_SPAWN_METHODS:
                        self._spawner_elsewhere(part.attr)
            elif isinstance(target, ast.Attribute) and target.attr in N.LOOP_SPAWN_METHODS:
                self._note_spawner_attr(target, value)

    def _note_setattr(self, node: ast.Call) -> None:
        """``setattr(x, "create_task", f)`` (or a name not spelled out) is a store
        too (``_note_spawner_attrs``)."""
        if not (isinstance(node.func, ast.Name) and node.func.id == "setattr"):
            return
        name = node.args[1] if len(node.args) > 1 else None
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            stores = self.facts.attr_stores  # (a store of the attribute: ``coroutines._exact``)
            stores[(0, name.value)] = stores.get((0, name.value), 0) + 1
            if name.value in N.LOOP_SPAWN_METHODS:
                self._spawner_elsewhere(name.value)
        else:
            for attr in N.LOOP_SPAWN_METHODS:
                self._spawner_elsewhere(attr)

    def _spawner_elsewhere(self, attr: str) -> None:
        self._spawner_attrs_elsewhere.add(attr)
        for key in [key for key in self._self_spawns if key[1] == attr]:
            self._spawner_attr(key)

    def _note_spawner_attr(self, target: ast.Attribute, value: ast.expr) -> None:
        attr = target.attr
        own = isinstance(target.value, ast.Name) and target.value.id == "self"
        klass = self.scope.cls if own and self._class_of(target) is not None else None
        if klass is None:
            self._spawner_elsewhere(attr)
            return
        loop = value.value if isinstance(value, ast.Attribute) and value.attr == attr else None
        owner = loop.value if isinstance(loop, ast.Attribute) else None
        if not (isinstance(loop, ast.Attribute) and isinstance(owner, ast.Name) and owner.id == "self"):
            self._spawner_elsewhere(attr)  # (a subclass's store is a store of the base's too)
            return
        key = (id(klass), attr)
        known = self._spawner_attrs.get(key, loop)
        same = known is not None and N.dotted_text(known) == N.dotted_text(loop)
        self._spawner_attrs[key] = known if same else None
        self._spawner_attr(key)

    def _self_spawn(self, spawn: Spawn, receiver: ast.Name) -> None:
        """``self.create_task(...)`` in a method (or a local bound to
        ``self.create_task``): its receiver is the loop attribute the class
        stores there, if it does (``_note_spawner_attr``), decided as stores come."""
        scope = self.scope
        if receiver.id != "self" or scope.cls is None or scope.parent is not scope.cls:
            return
        key = (id(scope.cls), spawn.callee)
        self._self_spawns.setdefault(key, []).append((spawn, receiver))
        self._spawner_attr(key)

    def _spawner_attr(self, key: Tuple[int, str]) -> None:
        attr = key[1]
        loop = None if attr in self._spawner_attrs_elsewhere else self._spawner_attrs.get(key)
        if loop is not None and any(attr in s.bindings for s in self.facts.scopes if s.kind == Scope.CLASS):
            loop = None  # a method of that name (of this class, a base, a subclass) when not stored
        if loop is not None and loop.attr not in self.options.loop_names:
            self.facts.receiver_attrs.add(loop.attr)
        for spawn, own in self._self_spawns.get(key, ()):
            spawn.receiver = own if loop is None else loop

    def _class_of(self, target: ast.expr) -> Optional[ClassFacts]:
        """The class whose attribute ``target`` is: a name in a class body, or
        ``self.x`` in one of its methods."""
        scope = self.scope
        if isinstance(target, ast.Name) and scope.kind == Scope.CLASS:
            return scope.klass
        if (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id in SELF_NAMES
            and scope.kind == Scope.FUNCTION
            and scope.cls is not None
        ):
            return scope.cls.klass
        return None

    # -------------------------------------------------------------- types
    def _note_annotation(self, target: ast.expr, annotation: ast.expr) -> None:
        """``x: T`` in a class body, ``self.x: T`` in a method, a local ``x: T``
        in a function (``player: Player | None = self.get_player(key)``: used
        only while the function binds the name once, as a parameter's)."""
        scope = self.scope
        if isinstance(target, ast.Name) and scope.kind == Scope.FUNCTION:
            dotted = self.type_name(annotation)
            if dotted is not None:
                self._note_local(scope, target.id, dotted)
            return
        klass = self._class_of(target)
        if klass is not None:
            attr = target.id if isinstance(target, ast.Name) else getattr(target, "attr", "")
            klass.note_type(attr, self.type_name(annotation))
            klass.note_type(attr + "[]", self._values_type(annotation))
            klass.note_type(attr + "*", self._elements_type(annotation))

    def _values_type(self, node: ast.expr) -> Optional[str]:
        """The type of a mapping's values, ``V`` of ``dict[K, V]`` (``Dict``,
        ``Mapping``, ``defaultdict``...; not in a string annotation)."""
        if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple)
                and len(node.slice.elts) == 2):
            return None
        container = node.value
        builtin = (isinstance(container, ast.Name) and container.id == "dict"
                   and not self.scope.imports.resolve(container))
        if not builtin and self.type_name(container) not in _MAPPINGS:
            return None
        return self.type_name(node.slice.elts[1])

    def _elements_type(self, node: ast.expr) -> Optional[str]:
        """The type of a collection's elements, ``T`` of ``list[T]`` (``set``,
        ``Sequence``, ``deque``...; not in a string annotation): what ``for x in
        self.x`` binds."""
        if not isinstance(node, ast.Subscript) or isinstance(node.slice, ast.Tuple):
            return None
        container = node.value
        builtin = (isinstance(container, ast.Name) and container.id in _BUILTIN_SEQUENCES
                   and not self.scope.imports.resolve(container))
        if not builtin and self.type_name(container) not in _SEQUENCES:
            return None
        return self.type_name(node.slice)

    def _for(self, node: ast.stmt) -> None:
        """``for run in self.runs`` (or ``list(self.runs)``, ``self.stations.values()``):
        the loop variable's class, that of the elements written down for the
        attribute (asked at the end, as ``station = self.stations[host]``)."""
        target, source = node.target, node.iter  # type: ignore[attr-defined]
        scope = self.scope
        if isinstance(target, ast.Name) and scope.kind == Scope.FUNCTION and isinstance(
            scope.node, FUNCTIONS
        ) and is_method(scope.node, scope) and len(scope.bindings.get("self", ())) <= 1:  # (its own self)
            key = _elements_key(source)
            if key is not None:
                self._note_local(scope, target.id, key)
        super()._for(node)

    def _note_parameter(self, name: str, annotation: ast.expr) -> None:
        scope = self.scope
        # (read where the function is defined: ``def use(conn: conn)``, a class body's names)
        self.scope = scope.parent or scope
        try:
            dotted = self.type_name(annotation)
        finally:
            self.scope = scope
        if dotted is not None:
            scope.types[name] = dotted

    def _note_bound_spawner(self, target: ast.Name, value: ast.Attribute) -> None:
        """``spawn = <receiver>.create_task``: noted for the calls of ``spawn``."""
        key = (id(self.scope), target.id)
        self._bound_spawners[key] = None if key in self._bound_spawners else value

    def _bound_spawner(self, func: ast.Name) -> Optional[ast.Attribute]:
        """The loop method a called name is bound to (``spawn = loop.create_task``)
        in the scope that binds it, if that scope binds it once, so, and only so
        (whether the receiver is a loop is decided at the end, as for a call of
        the method)."""
        if not self._bound_spawners:
            return None
        name = func.id
        scope: Optional[Scope] = self.scope
        while scope is not None:
            if scope.kind != Scope.CLASS and (name in scope.bindings or name in scope.declared):
                bound = scope.bindings.get(name)
                if scope.kind == Scope.MODULE:
                    once = name not in scope.rebound
                else:
                    once = bound is not None and len(bound) == 1
                return self._bound_spawners.get((id(scope), name)) if once else None
            scope = scope.parent
        return None

    def _untyped(self, name: str) -> None:
        """A local bound otherwise than the pass counts (an import in the function,
        ``x += y``): no class is known for it, whatever else binds it (``local_type``)."""
        if self.scope.kind == Scope.FUNCTION:
            self.scope.types[name] = ""

    def _note_local_type(self, target: ast.Name, value: ast.expr) -> None:
        """``impl = SomeClass(...)`` in a function, ``impl = cls(...)`` in a
        classmethod, or ``station = self.stations[host]`` (or ``.get(host)``)
        of a mapping whose values' type is written down: the local's class
        (used only while the function binds the name once; a class of the
        standard library, or one whose name is not in CapWords, is not looked
        up)."""
        scope = self.scope
        if scope.kind != Scope.FUNCTION:
            return
        key = values_key(value)
        if key is not None:  # ``station = self.stations.get(host)``: its class asked later (``local_type``)
            if scope.cls is not None:
                self._note_local(scope, target.id, key)
            return
        if not isinstance(value, ast.Call):
            return
        func = value.func
        if not isinstance(func, (ast.Name, ast.Attribute)):
            return
        called = func.id if isinstance(func, ast.Name) else func.attr
        if not called[:1].isupper() and called != "cls":
            return  # by its name no class (classes are written in CapWords)
        if isinstance(func, ast.Name) and func.id == "cls":
            node = scope.node
            cls_scope = scope.cls
            if not (
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and cls_scope is not None
                and isinstance(cls_scope.node, ast.ClassDef) and node.args.args
                and node.args.args[0].arg == "cls"
                and any(isinstance(d, ast.Name) and d.id == "classmethod" for d in node.decorator_list)
            ):
                return
            func = ast.Name(cls_scope.node.name, ast.Load())
            if self.facts.classes.get(func.id) is not cls_scope:
                return  # a nested class, or one defined twice
        dotted = self.type_name(func)
        if dotted is not None and dotted.partition(".")[0] not in N.STDLIB:
            self._note_local(scope, target.id, dotted)

    def _note_local(self, scope: Scope, name: str, dotted: str) -> None:
        """A local's class, or the key of the attribute whose values or elements it is
        (``"stations[]"``, ``"runs*"``), unless a first binding said one already."""
        if name not in scope.types:
            scope.types[name] = dotted
            self._local_types.add((id(scope), name))

    def _note_attr_type(self, target: ast.expr, value: ast.expr) -> None:
        """``self.x = param`` where the parameter's type is written down, or
        ``self.x = SomeClass(...)``: the attribute's type (two that disagree
        make it unknown; other values say nothing of it)."""
        klass = self._class_of(target)
        if klass is None or not isinstance(target, ast.Attribute):
            return
        klass.assigned.add(target.attr)
        if isinstance(value, ast.Name) and value.id in self.scope.types:
            if not self.scope.types[value.id].endswith(("[]", "*")):  # (elements: known only at the end)
                klass.note_type(target.attr, local_type(self.scope, value.id))
        elif isinstance(value, ast.Call):
            func = value.func.value if isinstance(value.func, ast.Subscript) else value.func  # (``Cls[T]()``)
            dotted = self.type_name(func) if isinstance(func, (ast.Name, ast.Attribute)) else None
            if dotted is not None:
                klass.note_type(target.attr, dotted)
