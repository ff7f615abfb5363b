"""Where a fixed task is kept: which set (an instance attribute or a module-level
set, reused or new), the name that holds the task, and which sites can be fixed."""
from __future__ import annotations

import keyword
from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple, Union

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

from flake8_taskref.fix.cst_nodes import (
    attribute_names,
    bound_names,
    calls_super_init,
    collect,
    dotted,
    first_param,
    fresh,
    has_slots,
    init_of,
    is_plain_method,
    module_level_names,
    names_in,
)

SET_NAME = "_background_tasks"
TASK_NAME = "task"


_Owner = Union["cst.ClassDef", "cst.Module"]


@dataclass
class Keeper:
    """One set that fixed tasks go into: an instance attribute or a module name."""

    owner: _Owner
    name: str  # attribute or module-level name
    new: bool
    future: bool = False  # holds an ensure_future() result: annotate as Future
    annotation: Optional[str] = None  # of a new set, decided before the rewrite


@dataclass
class Edit:
    spawn: "cst.Call"
    form: str  # "bare", "hoist" or "bind"
    keeper: Keeper
    receiver: str  # expression that names the set: "self._background_tasks"
    handle: str  # the name that holds the task


class Facts:
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


def _idiom_sets(root: "cst.CSTNode", prefix: str) -> List[str]:
    """Names N such that ``prefix + N`` is used with the keep-idiom under root:
    ``<prefix>N.add(...)`` and ``add_done_callback(<prefix>N.discard)``, not in a
    class nested in root (its ``self`` is another object) and, for plain names,
    not in a function that binds N itself (a local set of the same name)."""
    added: List[str] = []
    discarded: Set[str] = set()

    def named(node: "cst.BaseExpression", scopes: List["cst.FunctionDef"]) -> Optional[str]:
        text = dotted(node)
        if text is None or not text.startswith(prefix):
            return None
        name = text[len(prefix):]
        if not prefix and any(name in bound_names(scope) for scope in scopes):
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


def _why_not(facts: Facts, call: "cst.Call") -> str:
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


def _hoistable(facts: Facts, call: "cst.Call") -> Tuple[Optional["cst.Expr"], str]:
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


def statement_of(facts: Facts, code: str, call: "cst.Call") -> Tuple[Optional[str], Optional[str]]:
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


class Planner:
    """Decides, for every fixable site, the set and the names."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.module_names = names_in(facts.module)
        self.class_keepers: Dict[int, Optional[Keeper]] = {}
        self.file_attributes = attribute_names(facts.module)
        self.classes: Dict[str, List[cst.ClassDef]] = {}
        for cls in collect(facts.module, cst.ClassDef):
            self.classes.setdefault(cls.name.value, []).append(cls)
        self.module_keepers: List[Keeper] = []
        self.edits: Dict[int, Edit] = {}  # id(SimpleStatementLine) -> edit
        self.taken: Dict[int, Set[str]] = {}  # id(scope) -> names in use there
        self.module_sites: Set[int] = set()  # top-level statements holding a module-level spawn

    def keeper_for(self, line: "cst.SimpleStatementLine") -> Tuple[Keeper, str]:
        """The set a task spawned on this line goes into, and how the line names it."""
        scope = self.facts.enclosing(line)
        if isinstance(scope, cst.FunctionDef) and is_plain_method(scope):
            block = self.facts.parent(scope)
            cls = self.facts.parent(block) if block is not None else None
            if isinstance(cls, cst.ClassDef):
                keeper = self._class_keeper(cls)
                if keeper is not None:
                    return keeper, f"{first_param(scope)}.{keeper.name}"
        avoid = names_in(scope) if isinstance(scope, cst.FunctionDef) else set()
        keeper = self._module_keeper(avoid)
        return keeper, keeper.name

    def new_keepers(self) -> List[Keeper]:
        """The sets to create: new ones that some fixed site uses."""
        used = {id(edit.keeper) for edit in self.edits.values()}
        candidates = [*self.class_keepers.values(), *self.module_keepers]
        return [k for k in candidates if k is not None and k.new and id(k) in used]

    def _class_keeper(self, cls: "cst.ClassDef") -> Optional[Keeper]:
        """The instance set of a class, or None (a module set then): a class with
        ``__slots__`` or without an ``__init__`` of its own or of a base class in
        this file gets none.  A set the class, or a base class in this file whose
        ``__init__`` it runs, already keeps tasks in is reused; a new one gets a
        name no class of the file uses, so that no subclass resets a base's set."""
        key = id(cls)
        if key in self.class_keepers:
            return self.class_keepers[key]
        self.class_keepers[key] = None  # a cycle of bases ends here
        keeper: Optional[Keeper] = None
        init = init_of(cls)
        base = self._base_keeper(cls)
        if has_slots(cls):
            keeper = None
        elif init is None:
            keeper = base
        else:
            reuse = _idiom_sets(cls, f"{first_param(init)}.")
            if reuse:
                keeper = Keeper(cls, reuse[0], new=False)
            elif base is not None and calls_super_init(init):
                keeper = base
            else:
                related = self._related(cls)
                taken = self.file_attributes | {
                    keeper.name for key, keeper in self.class_keepers.items()
                    if keeper is not None and key in related
                }
                keeper = Keeper(cls, fresh(SET_NAME, taken), new=True)
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

    def _base_keeper(self, cls: "cst.ClassDef") -> Optional[Keeper]:
        """The set of the first base class defined in this file that has one."""
        for arg in cls.bases:
            if isinstance(arg.value, cst.Name):
                for other in self.classes.get(arg.value.value, ()):
                    keeper = self._class_keeper(other)
                    if keeper is not None:
                        return keeper
        return None

    def _module_keeper(self, avoid: Set[str]) -> Keeper:
        """A module-level set whose name the function does not use for anything else."""
        for keeper in self.module_keepers:
            if keeper.name not in avoid:
                return keeper
        known = {keeper.name for keeper in self.module_keepers}
        module_level = module_level_names(self.facts.module)
        reuse = [
            name for name in _idiom_sets(self.facts.module, "")
            if name in module_level and name not in avoid and name not in known
        ]
        if reuse:
            keeper = Keeper(self.facts.module, reuse[0], new=False)
        else:
            keeper = Keeper(self.facts.module, fresh(SET_NAME, self.module_names | avoid | known), new=True)
        self.module_keepers.append(keeper)
        return keeper

    def handle_for(self, line: "cst.SimpleStatementLine", call: "cst.Call") -> str:
        """A name for the task that nothing in its scope uses, after the coroutine
        it runs where that is a call (``self._watchdog()`` -> ``watchdog_task``),
        so that sites of one function get names (and types) of their own."""
        scope = self.facts.enclosing(line)
        taken = self.taken.get(id(scope))
        if taken is None:
            taken = names_in(scope) if isinstance(scope, cst.FunctionDef) else set(self.module_names)
            self.taken[id(scope)] = taken
        base = TASK_NAME
        if call.args and isinstance(call.args[0].value, cst.Call):
            called = dotted(call.args[0].value.func)
            stem = called.rsplit(".", 1)[-1].strip("_") if called is not None else ""
            if stem.isidentifier() and not keyword.iskeyword(stem):
                base = stem if stem.endswith(TASK_NAME) else f"{stem}_{TASK_NAME}"
        name = fresh(base, taken)
        taken.add(name)
        return name
