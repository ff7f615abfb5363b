"""``--fix``: rewrite TRF001 and TRF002 sites with the keep-idiom, using LibCST.

The analysis decides *which* handles are lost (its findings are the input
here); this module only decides *how* to keep them, the way the asyncio docs
do: the task goes into a set and leaves it when done::

    task = asyncio.create_task(job())
    self._background_tasks.add(task)
    task.add_done_callback(self._background_tasks.discard)

Where the set lives:

* in a method of a class whose body defines ``__init__``: an attribute of the
  instance, reused when the class already keeps tasks this way
  (``self.X.add(t)`` and ``add_done_callback(self.X.discard)``), else
  ``self._background_tasks``, created in ``__init__`` after its leading
  attribute assignments;
* anywhere else (module level, functions, nested functions, static and class
  methods, classes without ``__init__``): a module-level set, reused the same
  way, else ``_background_tasks``, defined once after the imports.

A bare statement ``spawn(...)`` becomes ``task = spawn(...)`` plus the two
lines (a method called on the fresh handle, ``spawn(...).add_done_callback(cb)``,
is then called on ``task``); a local binding ``t = spawn(...)`` (TRF002) gets
the two lines after it.  Everything else is left as it is and reported as not
fixed, with the reason.  LibCST keeps every other byte of the file.
"""
from __future__ import annotations

import bisect
import keyword
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple, Type, TypeVar, Union

try:
    import libcst as cst
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import AddImportsVisitor
    from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider
except ImportError as exc:  # pragma: no cover - exercised by the command's test
    raise ImportError(
        "flake8-taskref: --fix and --diff need LibCST: pip install 'flake8-taskref[fix]'"
    ) from exc

__all__ = ["FIXABLE", "NEEDS_A_HUMAN", "Outcome", "FixResult", "fix_source"]

FIXABLE = ("TRF001", "TRF002")
NEEDS_A_HUMAN = {
    "TRF003": "needs a decision: cancel and await the task in 'finally', keep it in a set, "
    "or wait on both with asyncio.wait()",
    "TRF004": "needs a decision: store the task and shield the stored task",
    "TRF005": "needs a decision: cancel, await or store the 'pending' set",
    "TRF006": "needs a decision: where the collection should be pruned",
}

SET_NAME = "_background_tasks"
_STRINGS = (cst.SimpleString, cst.ConcatenatedString)  # a docstring
TASK_NAME = "task"


@dataclass(frozen=True)
class Outcome:
    """What happened to one finding."""

    line: int
    col: int  # 1-based, as reported
    code: str
    fixed: bool
    detail: str  # where the task is kept now, or why it was left


@dataclass
class FixResult:
    source: bytes
    outcomes: List[Outcome] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(outcome.fixed for outcome in self.outcomes)


# --------------------------------------------------------------------- plan
_Owner = Union["cst.ClassDef", "cst.Module"]


@dataclass
class _Keeper:
    """One set that fixed tasks go into: an instance attribute or a module name."""

    owner: _Owner
    name: str  # attribute or module-level name
    new: bool
    future: bool = False  # holds an ensure_future() result: annotate as Future
    annotation: Optional[str] = None  # of a new set, decided before the rewrite


@dataclass
class _Edit:
    spawn: "cst.Call"
    form: str  # "bare", "hoist" or "bind"
    keeper: _Keeper
    receiver: str  # expression that names the set: "self._background_tasks"
    handle: str  # the name that holds the task


class _Facts:
    """What the rewrite needs to know about the module, read once."""

    def __init__(self, module: "cst.Module", wrapper: "MetadataWrapper") -> None:
        self.module = module
        self.parents = wrapper.resolve(ParentNodeProvider)
        positions = wrapper.resolve(PositionProvider)
        self.calls: Dict[Tuple[int, int], cst.Call] = {}
        self.callables: Set[Tuple[int, int]] = set()  # names and attributes (a spawner passed on)
        for node, where in positions.items():
            start = (where.start.line, where.start.column)
            if isinstance(node, cst.Call):
                self.calls.setdefault(start, node)
            elif isinstance(node, (cst.Name, cst.Attribute)):
                self.callables.add(start)

    def parent(self, node: "cst.CSTNode") -> Optional["cst.CSTNode"]:
        return self.parents.get(node)

    def enclosing(self, node: "cst.CSTNode") -> "Union[cst.FunctionDef, cst.Module]":
        current = self.parent(node)
        while current is not None and not isinstance(current, (cst.FunctionDef, cst.Module)):
            current = self.parent(current)
        assert current is not None
        return current


_N = TypeVar("_N", bound="cst.CSTNode")


def _collect(
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


def _names_in(node: "cst.CSTNode") -> Set[str]:
    return {name.value for name in _collect(node, cst.Name)}


def _fresh(base: str, taken: Set[str]) -> str:
    if base not in taken:
        return base
    number = 1
    while f"{base}_{number}" in taken:
        number += 1
    return f"{base}_{number}"


def _dotted(node: "cst.BaseExpression") -> Optional[str]:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr.value}"
    return None


def _idiom_sets(root: "cst.CSTNode", prefix: str) -> List[str]:
    """Names N such that ``prefix + N`` is used with the keep-idiom under root:
    ``<prefix>N.add(...)`` and ``add_done_callback(<prefix>N.discard)``, not in a
    class nested in root (its ``self`` is another object) and, for plain names,
    not in a function that binds N itself (a local set of the same name)."""
    added: List[str] = []
    discarded: Set[str] = set()

    def named(node: "cst.BaseExpression", scopes: List["cst.FunctionDef"]) -> Optional[str]:
        text = _dotted(node)
        if text is None or not text.startswith(prefix):
            return None
        name = text[len(prefix):]
        if not prefix and any(name in _bound_names(scope) for scope in scopes):
            return None
        return name

    class _Collect(cst.CSTVisitor):
        def __init__(self) -> None:
            super().__init__()
            self.scopes: List[cst.FunctionDef] = []

        def visit_ClassDef(self, node: "cst.ClassDef") -> bool:
            return node is root

        def visit_FunctionDef(self, node: "cst.FunctionDef") -> None:
            self.scopes.append(node)

        def leave_FunctionDef(self, original_node: "cst.FunctionDef") -> None:
            self.scopes.pop()

        def visit_Call(self, call: "cst.Call") -> None:
            func = call.func
            if not isinstance(func, cst.Attribute):
                return
            if func.attr.value == "add":
                name = named(func.value, self.scopes)
                if name is not None:
                    added.append(name)
            elif func.attr.value == "add_done_callback" and call.args:
                arg = call.args[0].value
                if isinstance(arg, cst.Attribute) and arg.attr.value == "discard":
                    name = named(arg.value, self.scopes)
                    if name is not None:
                        discarded.add(name)

    root.visit(_Collect())
    return [name for name in added if name in discarded and name.isidentifier()]


def _bound_names(func: "cst.FunctionDef") -> Set[str]:
    """Names a function binds itself: parameters and assignment targets (a
    ``global`` declaration makes them the module's again)."""
    bound = {param.name.value for param in _collect(func.params, cst.Param)}
    for target in _collect(func.body, cst.AssignTarget):
        bound |= {name.value for name in _collect(target, cst.Name)}
    for node in _collect(func.body, cst.AnnAssign):
        if isinstance(node.target, cst.Name):
            bound.add(node.target.value)
    for declared in _collect(func.body, cst.Global):
        bound -= {item.name.value for item in declared.names}
    return bound


def _first_param(func: "cst.FunctionDef") -> Optional[str]:
    params = list(func.params.posonly_params) + list(func.params.params)
    return params[0].name.value if params else None


def _is_plain_method(func: "cst.FunctionDef") -> bool:
    for decorator in func.decorators:
        name = _dotted(decorator.decorator)
        if name is not None and name.rsplit(".", 1)[-1] in ("staticmethod", "classmethod"):
            return False
    return _first_param(func) is not None


def _init_of(cls: "cst.ClassDef") -> Optional["cst.FunctionDef"]:
    """The ``__init__`` that runs: the last one in the class body that is not an
    ``@overload`` stub."""
    body = cls.body
    if not isinstance(body, cst.IndentedBlock):
        return None
    found: Optional[cst.FunctionDef] = None
    for statement in body.body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == "__init__":
            stub = any(
                (_dotted(decorator.decorator) or "").rsplit(".", 1)[-1] == "overload"
                for decorator in statement.decorators
            )
            if not stub:
                found = statement
    if found is None or not _is_plain_method(found) or not isinstance(found.body, cst.IndentedBlock):
        return None
    return found


def _has_slots(cls: "cst.ClassDef") -> bool:
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


def _calls_super_init(init: "cst.FunctionDef") -> bool:
    for call in _collect(init.body, cst.Call):
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "__init__":
            return True
    return False


def _why_not(facts: _Facts, call: "cst.Call") -> str:
    """Why a spawn has no statement of its own to extend."""
    node: Optional[cst.CSTNode] = facts.parent(call)
    while node is not None:
        if isinstance(node, cst.Lambda):
            return "the spawn is inside a lambda: no statement to extend"
        if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            return "the spawn is inside a comprehension: no statement to extend"
        if isinstance(node, (cst.IfExp, cst.BooleanOperation)):
            return "the spawn runs on some paths of a conditional expression only"
        if isinstance(node, cst.Arg):
            return "the task or the spawner is passed to a call: no statement to extend"
        if isinstance(node, cst.SimpleStatementSuite):
            return "the statement shares its line with its block header"
        if isinstance(node, cst.SimpleStatementLine):
            if len(node.body) > 1:
                return "the line holds several statements"
            return "the handle is used inside a larger expression or statement"
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Module)):
            break
        node = facts.parent(node)
    return "the handle is used inside a larger expression or statement"


def _pure(node: "cst.BaseExpression") -> bool:
    """Evaluating it runs no code of the program's (a name, an attribute of one, a literal)."""
    if isinstance(node, cst.Attribute):
        return _pure(node.value)
    return isinstance(node, (cst.Name, cst.BaseNumber, cst.SimpleString))


def _hoistable(facts: _Facts, call: "cst.Call") -> Tuple[Optional["cst.Expr"], str]:
    """The expression statement a spawn can be taken out of, into a line of its
    own before it, with the same order of evaluation: on its way up, the spawn
    is only the object of an attribute, or an argument of a call whose callee
    and earlier arguments run no code (``self.check(spawn(c).done())``)."""
    node: cst.CSTNode = call
    while True:
        parent = facts.parent(node)
        if isinstance(parent, cst.Expr):
            if "\n" in cst.Module(body=[]).code_for_node(call):
                # moved to a line of its own, its inner lines would keep their old indentation
                return None, "the spawn spans several lines inside a larger statement"
            return parent, ""
        if isinstance(parent, cst.Attribute) and parent.value is node:
            node = parent
            continue
        if isinstance(parent, cst.Call) and parent.func is node:
            node = parent
            continue
        if isinstance(parent, cst.Arg) and parent.star == "":
            holder = facts.parent(parent)
            assert isinstance(holder, cst.Call)
            earlier = list(holder.args)[: list(holder.args).index(parent)]
            if not _pure(holder.func) or not all(arg.star == "" and _pure(arg.value) for arg in earlier):
                return None, "other code in the statement runs before the spawn: no statement to extend"
            node = holder
            continue
        return None, _why_not(facts, call)


def _statement_of(facts: _Facts, code: str, call: "cst.Call") -> Tuple[Optional[str], Optional[str]]:
    """(form, handle name) when the site can be fixed, else (None, reason)."""
    parent = facts.parent(call)
    form: Optional[str] = None
    small: Optional[cst.CSTNode] = None
    handle: Optional[str] = None
    if code == "TRF001":
        if isinstance(parent, cst.Expr) and parent.value is call:
            form, small = "bare", parent
        else:
            small, reason = _hoistable(facts, call)
            if small is None:
                return None, reason
            form = "hoist"
    elif code == "TRF002":
        if isinstance(parent, cst.Assign) and parent.value is call and len(parent.targets) == 1:
            target = parent.targets[0].target
            if isinstance(target, cst.Name):
                form, small, handle = "bind", parent, target.value
        elif isinstance(parent, cst.AnnAssign) and parent.value is call:
            if isinstance(parent.target, cst.Name):
                form, small, handle = "bind", parent, parent.target.value
        if form is None:
            if isinstance(parent, (cst.Assign, cst.AnnAssign)):
                return None, "the handle is bound to several names or unpacked"
            return None, "the handle goes into a local collection or expression; keep that alive or await it"
    if form is None or small is None:
        return None, _why_not(facts, call)
    line = facts.parent(small)
    if not isinstance(line, cst.SimpleStatementLine):
        return None, "the statement shares its line with its block header"
    if len(line.body) > 1:
        return None, "the line holds several statements"
    return form, handle


class _Planner:
    """Decides, for every fixable site, the set and the names."""

    def __init__(self, facts: _Facts) -> None:
        self.facts = facts
        self.module_names = _names_in(facts.module)
        self.class_keepers: Dict[int, Optional[_Keeper]] = {}
        self.file_attributes = _attribute_names(facts.module)
        self.classes: Dict[str, List[cst.ClassDef]] = {}
        for cls in _collect(facts.module, cst.ClassDef):
            self.classes.setdefault(cls.name.value, []).append(cls)
        self.module_keepers: List[_Keeper] = []
        self.edits: Dict[int, _Edit] = {}  # id(SimpleStatementLine) -> edit
        self.taken: Dict[int, Set[str]] = {}  # id(scope) -> names in use there
        self.module_sites: Set[int] = set()  # top-level statements holding a module-level spawn

    def keeper_for(self, line: "cst.SimpleStatementLine") -> Tuple[_Keeper, str]:
        """The set a task spawned on this line goes into, and how the line names it."""
        scope = self.facts.enclosing(line)
        if isinstance(scope, cst.FunctionDef) and _is_plain_method(scope):
            block = self.facts.parent(scope)
            cls = self.facts.parent(block) if block is not None else None
            if isinstance(cls, cst.ClassDef):
                keeper = self._class_keeper(cls)
                if keeper is not None:
                    return keeper, f"{_first_param(scope)}.{keeper.name}"
        avoid = _names_in(scope) if isinstance(scope, cst.FunctionDef) else set()
        keeper = self._module_keeper(avoid)
        return keeper, keeper.name

    def new_keepers(self) -> List[_Keeper]:
        """The sets to create: new ones that some fixed site uses."""
        used = {id(edit.keeper) for edit in self.edits.values()}
        candidates = [*self.class_keepers.values(), *self.module_keepers]
        return [k for k in candidates if k is not None and k.new and id(k) in used]

    def _class_keeper(self, cls: "cst.ClassDef") -> Optional[_Keeper]:
        """The instance set of a class, or None (a module set then): a class with
        ``__slots__`` or without an ``__init__`` of its own or of a base class in
        this file gets none.  A set the class, or a base class in this file whose
        ``__init__`` it runs, already keeps tasks in is reused; a new one gets a
        name no class of the file uses, so that no subclass resets a base's set."""
        key = id(cls)
        if key in self.class_keepers:
            return self.class_keepers[key]
        self.class_keepers[key] = None  # a cycle of bases ends here
        keeper: Optional[_Keeper] = None
        init = _init_of(cls)
        base = self._base_keeper(cls)
        if _has_slots(cls):
            keeper = None
        elif init is None:
            keeper = base
        else:
            reuse = _idiom_sets(cls, f"{_first_param(init)}.")
            if reuse:
                keeper = _Keeper(cls, reuse[0], new=False)
            elif base is not None and _calls_super_init(init):
                keeper = base
            else:
                related = self._related(cls)
                taken = self.file_attributes | {
                    keeper.name for key, keeper in self.class_keepers.items()
                    if keeper is not None and key in related
                }
                keeper = _Keeper(cls, _fresh(SET_NAME, taken), new=True)
        self.class_keepers[key] = keeper
        return keeper

    def _related(self, cls: "cst.ClassDef") -> Set[int]:
        """The classes of this file that cls inherits from or that inherit from it."""
        parents: Dict[int, List[cst.ClassDef]] = {}
        for classes in self.classes.values():
            for other in classes:
                parents[id(other)] = [
                    base for arg in other.bases if isinstance(arg.value, cst.Name)
                    for base in self.classes.get(arg.value.value, ())
                ]

        def up(start: "cst.ClassDef") -> Set[int]:
            seen: Set[int] = set()
            todo = [start]
            while todo:
                for base in parents.get(id(todo.pop()), ()):
                    if id(base) not in seen:
                        seen.add(id(base))
                        todo.append(base)
            return seen

        related = up(cls)
        for classes in self.classes.values():
            for other in classes:
                if id(cls) in up(other):
                    related.add(id(other))
        return related

    def _base_keeper(self, cls: "cst.ClassDef") -> Optional[_Keeper]:
        """The set of the first base class defined in this file that has one."""
        for arg in cls.bases:
            if isinstance(arg.value, cst.Name):
                for other in self.classes.get(arg.value.value, ()):
                    keeper = self._class_keeper(other)
                    if keeper is not None:
                        return keeper
        return None

    def _module_keeper(self, avoid: Set[str]) -> _Keeper:
        """A module-level set whose name the function does not use for anything else."""
        for keeper in self.module_keepers:
            if keeper.name not in avoid:
                return keeper
        known = {keeper.name for keeper in self.module_keepers}
        module_level = _module_level_names(self.facts.module)
        reuse = [
            name for name in _idiom_sets(self.facts.module, "")
            if name in module_level and name not in avoid and name not in known
        ]
        if reuse:
            keeper = _Keeper(self.facts.module, reuse[0], new=False)
        else:
            keeper = _Keeper(self.facts.module, _fresh(SET_NAME, self.module_names | avoid | known), new=True)
        self.module_keepers.append(keeper)
        return keeper

    def handle_for(self, line: "cst.SimpleStatementLine", call: "cst.Call") -> str:
        """A name for the task that nothing in its scope uses, after the coroutine
        it runs where that is a call (``self._watchdog()`` -> ``watchdog_task``),
        so that sites of one function get names (and types) of their own."""
        scope = self.facts.enclosing(line)
        taken = self.taken.get(id(scope))
        if taken is None:
            taken = _names_in(scope) if isinstance(scope, cst.FunctionDef) else set(self.module_names)
            self.taken[id(scope)] = taken
        base = TASK_NAME
        if call.args and isinstance(call.args[0].value, cst.Call):
            called = _dotted(call.args[0].value.func)
            stem = called.rsplit(".", 1)[-1].strip("_") if called is not None else ""
            if stem.isidentifier() and not keyword.iskeyword(stem):
                base = stem if stem.endswith(TASK_NAME) else f"{stem}_{TASK_NAME}"
        name = _fresh(base, taken)
        taken.add(name)
        return name


def _module_level_names(module: "cst.Module") -> Set[str]:
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


def _attribute_names(node: "cst.CSTNode") -> Set[str]:
    return {attribute.attr.value for attribute in _collect(node, cst.Attribute)}


# ------------------------------------------------------------ annotations
_IMPORT_RE = re.compile(r"^\s*(?:import|from)\s", re.M)


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
            if "TYPE_CHECKING" in (_dotted(statement.test) or ""):
                continue
            found += _runtime_imports(_block(statement.body))
            orelse = statement.orelse
            if isinstance(orelse, cst.If):  # elif
                found += _runtime_imports([orelse])
            elif orelse is not None:
                found += _runtime_imports(_block(orelse.body))
        elif isinstance(statement, cst.Try):
            found += _runtime_imports(_block(statement.body))
            for handler in statement.handlers:
                found += _runtime_imports(_block(handler.body))
    return found


def _block(suite: "cst.BaseSuite") -> Sequence["cst.BaseStatement"]:
    return suite.body if isinstance(suite, cst.IndentedBlock) else []


class _Typing:
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
                    name = _dotted(alias.name)
                    bound = alias.asname.name.value if alias.asname and isinstance(
                        alias.asname.name, cst.Name) else name
                    if name == "asyncio" and self.asyncio is None:
                        self.asyncio = bound
                    elif name == "typing" and self.typing_module is None:
                        self.typing_module = bound
            elif isinstance(node, cst.ImportFrom) and not node.relative and node.module is not None:
                source = _dotted(node.module)
                if isinstance(node.names, cst.ImportStar):
                    continue
                for alias in node.names:
                    if alias.asname is not None:
                        continue
                    imported = _dotted(alias.name)
                    if source == "asyncio" and imported is not None:
                        self.task_names.add(imported)
                    elif source == "typing" and imported is not None:
                        self.typing_names.add(imported)

        self.annotated = bool(_collect(module, cst.Annotation))
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
        for node in _collect(module, cst.ImportFrom, (cst.FunctionDef, cst.ClassDef)):
            if node.module is not None and _dotted(node.module) == "__future__" and not isinstance(
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
                    source = _dotted(small.module)
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


# ---------------------------------------------------------------- rewrite
def _add_name(node: "cst.ImportFrom", name: str) -> "cst.ImportFrom":
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


def _statement(text: str, module: "cst.Module") -> "cst.SimpleStatementLine":
    parsed = cst.parse_statement(text + "\n", config=module.config_for_parsing)
    assert isinstance(parsed, cst.SimpleStatementLine)
    return parsed


def _set_statement(target: str, annotation: Optional[str], module: "cst.Module") -> "cst.SimpleStatementLine":
    if annotation is None:
        return _statement(f"{target} = set()", module)
    return _statement(f"{target}: {annotation} = set()", module)


def _leading_assignments(body: Sequence["cst.BaseStatement"], own: str) -> int:
    """Index after the docstring, ``super().__init__(...)`` and the plain
    ``self.x = ...`` assignments that open ``__init__``; an assignment whose value
    calls a method of the instance (which could start a task) ends them."""
    index = 0
    for index, statement in enumerate(body):
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            return index
        small = statement.body[0]
        if isinstance(small, cst.Expr) and isinstance(small.value, _STRINGS):
            continue
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            func = small.value.func
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value == "__init__"
                and isinstance(func.value, cst.Call)
                and _dotted(func.value.func) == "super"
            ):
                continue
            return index
        targets: List[cst.BaseExpression] = []
        if isinstance(small, cst.Assign):
            targets = [target.target for target in small.targets]
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            targets = [small.target]
        if not targets or not all(
            isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == own
            for t in targets
        ):
            return index
        if any(
            (_dotted(call.func) or "").startswith(own + ".") for call in _collect(small, cst.Call)
        ):
            return index
    return len(body)


def _module_insert_index(body: Sequence["cst.BaseStatement"]) -> int:
    """After the module's opening imports (and its docstring)."""
    after = 0
    for index, statement in enumerate(body):
        if isinstance(statement, cst.SimpleStatementLine):
            if any(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body):
                after = index + 1
            elif index == 0 and isinstance(statement.body[0], cst.Expr) and isinstance(
                statement.body[0].value, _STRINGS
            ):
                after = 1
            continue
        if isinstance(statement, (cst.If, cst.Try)) and _IMPORT_RE.search(
            cst.Module(body=[statement]).code
        ) and not _collect(statement, cst.FunctionDef) and not _collect(statement, cst.ClassDef):
            after = index + 1
            continue
        break
    return after


class _Rewrite(cst.CSTTransformer):
    def __init__(self, planner: _Planner, typing: _Typing) -> None:
        super().__init__()
        self.planner = planner
        self.typing = typing
        self.module = planner.facts.module
        self.inits: Dict[int, Tuple[_Keeper, str]] = {}
        for keeper in planner.new_keepers():
            if isinstance(keeper.owner, cst.ClassDef):
                init = _init_of(keeper.owner)
                assert init is not None
                self.inits[id(init)] = (keeper, _first_param(init) or "self")

    def leave_ImportFrom(
        self, original_node: "cst.ImportFrom", updated_node: "cst.ImportFrom"
    ) -> "cst.ImportFrom":
        for target, names in self.typing.merges.values():
            if original_node is target:
                for name in names:
                    updated_node = _add_name(updated_node, name)
        return updated_node

    def leave_SimpleStatementLine(
        self, original_node: "cst.SimpleStatementLine", updated_node: "cst.SimpleStatementLine"
    ) -> Union["cst.BaseStatement", "cst.FlattenSentinel[cst.BaseStatement]"]:
        edit = self.planner.edits.get(id(original_node))
        if edit is None:
            return updated_node
        handle, receiver = edit.handle, edit.receiver
        keep = [
            _statement(f"{receiver}.add({handle})", self.module),
            _statement(f"{handle}.add_done_callback({receiver}.discard)", self.module),
        ]
        if edit.form == "bind":
            return cst.FlattenSentinel([updated_node, *keep])
        bind = cst.Assign(targets=[cst.AssignTarget(target=cst.Name(handle))], value=edit.spawn)
        if edit.form == "bare":  # the line becomes the binding, comments and all
            return cst.FlattenSentinel([original_node.with_changes(body=[bind]), *keep])
        # hoist: the spawn moves to a line of its own; the statement keeps its
        # comment and uses the handle (nothing inside a simple statement was rewritten)
        first = cst.SimpleStatementLine(body=[bind], leading_lines=original_node.leading_lines)
        replaced = original_node.deep_replace(edit.spawn, cst.Name(handle))
        rest = cst.ensure_type(replaced, cst.SimpleStatementLine)
        return cst.FlattenSentinel([first, *keep, rest.with_changes(leading_lines=[])])

    def leave_FunctionDef(
        self, original_node: "cst.FunctionDef", updated_node: "cst.FunctionDef"
    ) -> "cst.FunctionDef":
        planned = self.inits.get(id(original_node))
        if planned is None:
            return updated_node
        keeper, own = planned
        block = updated_node.body
        assert isinstance(block, cst.IndentedBlock)
        statement = _set_statement(f"{own}.{keeper.name}", keeper.annotation, self.module)
        index = _leading_assignments(block.body, own)
        body = [*block.body[:index], statement, *block.body[index:]]
        return updated_node.with_changes(body=block.with_changes(body=body))

    def leave_Module(self, original_node: "cst.Module", updated_node: "cst.Module") -> "cst.Module":
        new = [
            _set_statement(keeper.name, keeper.annotation, self.module)
            for keeper in self.planner.new_keepers()
            if isinstance(keeper.owner, cst.Module)
        ]
        if not new:
            return updated_node
        index = _module_insert_index(original_node.body)
        for position, statement in enumerate(original_node.body):
            if id(statement) in self.planner.module_sites:  # holds a spawn run at import
                index = min(index, position)
                break
        if index > 0:
            new[0] = new[0].with_changes(leading_lines=[cst.EmptyLine()])
        body = list(updated_node.body)
        if index < len(body) and not body[index].leading_lines:
            # a blank line after the set too
            body[index] = body[index].with_changes(leading_lines=[cst.EmptyLine()])
        return updated_node.with_changes(body=[*body[:index], *new, *body[index:]])


def _char_col(line_text: str, byte_col: int) -> int:
    """ast's (and flake8's) columns count UTF-8 bytes; LibCST's count characters."""
    return len(line_text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


def fix_source(data: bytes, sites: Sequence[Tuple[int, int, str]]) -> FixResult:
    """Rewrite the findings ``(line, col_offset, code)`` of one file (the
    column as ast counts it: UTF-8 bytes from 0).  Returns the new bytes and what
    happened to each finding; sites of other codes are reported as left."""
    module = cst.parse_module(data)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    facts = _Facts(module, wrapper)
    lines = re.split(r"\r\n|\r|\n", module.code)
    planner = _Planner(facts)
    outcomes: List[Outcome] = []
    planned: List[Tuple[Tuple[int, int, str], _Edit]] = []
    for line, col_offset, code in sites:
        col = col_offset + 1
        if code not in FIXABLE:
            outcomes.append(Outcome(line, col, code, False, NEEDS_A_HUMAN.get(code, "not fixable")))
            continue
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        start = (line, _char_col(text, col_offset))
        call = facts.calls.get(start)
        if call is None:
            why = (
                "the spawner itself is passed on as a callback: no statement to extend"
                if start in facts.callables
                else "could not find the call in the source"
            )
            outcomes.append(Outcome(line, col, code, False, why))
            continue
        form, detail = _statement_of(facts, code, call)
        if form is None:
            outcomes.append(Outcome(line, col, code, False, detail or "not fixable"))
            continue
        small = facts.parent(call)
        while not isinstance(small, cst.SimpleStatementLine):
            assert small is not None
            small = facts.parent(small)
        if id(small) in planner.edits:
            outcomes.append(Outcome(line, col, code, False, "another fix rewrites this line"))
            continue
        keeper, receiver = planner.keeper_for(small)
        if isinstance(facts.enclosing(small), cst.Module):
            top: cst.CSTNode = small
            while not isinstance(facts.parent(top), cst.Module):
                parent = facts.parent(top)
                assert parent is not None
                top = parent
            planner.module_sites.add(id(top))
        if _callee_name(call) == "ensure_future":
            keeper.future = True
        handle = detail if form == "bind" and detail is not None else planner.handle_for(small, call)
        edit = _Edit(call, form, keeper, receiver, handle)
        planner.edits[id(small)] = edit
        planned.append(((line, col, code), edit))
    typing = _Typing(module)
    for keeper in planner.new_keepers():
        keeper.annotation = typing.annotation(keeper.future, isinstance(keeper.owner, cst.Module))
    typing.plan_imports()
    new_module = module.visit(_Rewrite(planner, typing))
    if typing.imports:
        context = CodemodContext()
        for source, name in typing.imports:
            if name is None:
                AddImportsVisitor.add_needed_import(context, source)
            else:
                AddImportsVisitor.add_needed_import(context, source, name)
        new_module = AddImportsVisitor(context).transform_module(new_module)
    for (line, col, code), edit in planned:
        outcomes.append(Outcome(line, col, code, True, f"kept in {edit.receiver}"))
    outcomes.sort(key=lambda o: (o.line, o.col, o.code))
    return FixResult(new_module.bytes if planned else data, outcomes)


def _callee_name(call: "cst.Call") -> Optional[str]:
    name = _dotted(call.func)
    return None if name is None else name.rsplit(".", 1)[-1]
