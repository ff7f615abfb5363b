"""Which sites can be fixed, and where each task is kept (read from ``ast``).

A fix changes one thing, whether the task can be collected: the program
evaluates the same expressions, in the same order, the same number of times.
So a spawn is fixed only where it can be bound to a name of its own without
moving anything else: a statement of its own (``spawn(...)`` becomes ``name =
spawn(...)``), the first thing its statement evaluates (``spawn(...).x(...)``,
``f(spawn(...))`` with ``f`` a plain name and nothing but plain names and
literals before it; the spawn moves to a line before), or a local binding
(``t = spawn(...)``, ``(t := spawn(...))``).

The set: by default a module-level set (``--fix-keep module``), which keeps
the task until it is done whatever the lifetime of any object; with
``--fix-keep instance`` a set on the instance whose method spawns
(``classes.py`` decides where a class can hold one).  An existing set is
reused only when nothing but the keep idiom touches it (``S.add(t)``,
``t.add_done_callback(S.discard)``, its creation ``S = set()``): a collection
the program also iterates, awaits, cancels, clears, measures or passes on has
readers that a new task must not meet.  It is reused only when its name speaks of
tasks (``_billing_retries`` is not a home for a streaming task) and its type, if it
has one, takes any task (``Task[object]``) or any future (``Future[Any]``):
``set[asyncio.Task[None]]`` would make a type checker fail on a task of another
result type.
"""
from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Set, Tuple, Union

from flake8_taskref.fix.classes import Classes, place_in_init
from flake8_taskref.fix.naming import Word, handle_names
from flake8_taskref.fix.nodes import (
    FUNCTIONS,
    Function,
    dotted,
    first_param,
    bound_names,
    fresh,
    identifiers,
    init_of,
    is_plain_method,
)
from flake8_taskref.fix.source import Source
from flake8_taskref.fix.units import Units

SET_NAME = "_background_tasks"
# An instance set's name is private to the class that creates it (Python mangles
# it to _Class__background_tasks): no base or subclass, in this file or another,
# can meet it, or reset it with a set of its own.
INSTANCE_SET_NAME = "__background_tasks"

Owner = Union[ast.ClassDef, ast.Module]
Span = Tuple[int, int, int, int]  # line, col_offset, end line, end col_offset (as ast)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


@dataclass
class Keeper:
    """One set that fixed tasks go into: an instance attribute or a module name."""

    owner: Owner
    name: str  # attribute or module-level name
    new: bool
    future: bool = False  # holds an ensure_future() result: annotate as Future
    # holds a run_coroutine_threadsafe() result, a concurrent.futures.Future:
    # annotate with Any (or object), which takes it beside asyncio's
    concurrent: bool = False
    # an existing set typed Task[object] holds "tasks" only, one typed
    # Future[Any] "any" of asyncio's, one without a type "untyped": anything
    holds: str = "any"
    annotation: Optional[str] = None  # of a new set, decided before the rewrite
    init: Optional[ast.FunctionDef] = None  # instance sets: the __init__ that creates it
    index: int = 0  # ... before this statement of its body


@dataclass
class Edit:
    spawn: ast.Call
    statement: ast.stmt
    form: str  # "bare", "hoist", "bind" or "rename" (``_ = spawn(...)``, ``_`` never read)
    keeper: Keeper
    receiver: str  # the expression that names the set: "self._background_tasks"
    handle: str  # the name that holds the task
    why_module: str = ""  # with --fix-keep instance: why the module set was used
    notes: List[str] = field(default_factory=list)  # what else the rewrite did, for the site's note


def span(node: ast.AST) -> Span:
    return (
        getattr(node, "lineno", 0), getattr(node, "col_offset", 0),
        getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0,
    )


def _empty_set(value: Optional[ast.expr]) -> bool:
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "set"
        and not value.args
        and not value.keywords
    )


def _unquoted(node: Optional[ast.expr]) -> Optional[ast.expr]:
    """A string annotation (``"set[X]"``) as the expression it spells; None if it
    does not parse; anything else as it is."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return ast.parse(node.value.strip(), mode="eval").body
        except SyntaxError:
            return None
    return node


def _type_argument(annotation: ast.expr) -> Optional[ast.expr]:
    """``set[X]`` (any spelling of a set, quoted or not) -> ``X``, unquoted."""
    outer = _unquoted(annotation)
    return _unquoted(outer.slice) if isinstance(outer, ast.Subscript) else None


def holds(name: str, made: ast.stmt) -> Optional[str]:
    """What the existing set ``name`` (created by ``made``) may be given: "any"
    task or future of asyncio's, "tasks" only, anything ("untyped"), or None:
    not reused (its name does not speak
    of tasks, or its type is narrower than any task)."""
    if "task" not in name.lower():
        return None
    if not isinstance(made, ast.AnnAssign):
        return "untyped"
    item = _type_argument(made.annotation)
    if not isinstance(item, ast.Subscript):
        return None
    kind = (dotted(item.value) or "").rsplit(".", 1)[-1]
    argument = dotted(item.slice) if isinstance(item.slice, (ast.Name, ast.Attribute)) else None
    if kind == "Future" and argument in ("Any", "typing.Any", "t.Any"):
        return "any"
    if kind == "Task" and argument in ("object", "Any", "typing.Any", "t.Any"):
        return "tasks"
    return None


class Facts:
    """What the plan needs to know about the module, read from the units
    (``units.py``) that span the lines it asks about: each unit is walked once,
    and what it holds is recorded (parents, calls, how names are used)."""

    def __init__(self, tree: ast.Module, source: Source) -> None:
        self.tree = tree
        self.source = source
        self.units = Units(tree, source)
        self.parents: Dict[int, ast.AST] = {}
        self.calls: Dict[Span, ast.Call] = {}
        self.callables: Set[Span] = set()  # names and attributes (a spawner passed on)
        # how each occurrence of a name, and of an attribute name, is used: for the
        # keep idiom ("add", "discard", "define") or otherwise ("other")
        self.name_uses: Dict[str, Set[str]] = {}
        self.attribute_uses: Dict[str, Set[str]] = {}
        self.definitions: Dict[str, List[ast.stmt]] = {}  # "S" or ".S" -> S = set()
        self.written: Set[str] = set()  # every identifier written in the units walked
        self.bound: Set[str] = set()  # every name bound in them, in any scope
        self.classes: List[ast.ClassDef] = []  # the classes in them
        self._set_bindings: List[ast.AST] = []  # the nodes that bind the name "set"
        self._walked: Set[int] = set()
        self._words: Set[str] = set()

    # ------------------------------------------------------------ walking
    def walk_line(self, line: int) -> None:
        """Walk the units that span ``line``."""
        for unit, owner in self.units.at(line):
            if id(unit) not in self._walked:
                self._walked.add(id(unit))
                self.parents[id(unit)] = owner
                self._walk(unit)

    def walk_word(self, word: str) -> None:
        """Walk every unit where ``word`` may be an identifier: what the facts
        then say about that name is what a walk of the whole file would."""
        if word not in self._words:
            self._words.add(word)
            for line in sorted(self.units.lines_of(word)):
                self.walk_line(line)

    def _walk(self, unit: ast.stmt) -> None:
        stack: List[ast.AST] = [unit]
        while stack:
            node = stack.pop()
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
                if node is unit and isinstance(unit, ast.ClassDef) and isinstance(child, ast.stmt):
                    continue  # the statements of a class body are units of their own
                stack.append(child)
            if isinstance(node, ast.Call):
                self.calls[span(node)] = node
            elif isinstance(node, ast.Name):
                self.callables.add(span(node))
                self.name_uses.setdefault(node.id, set()).add(self._use(node))
                if not isinstance(node.ctx, ast.Load):
                    self.bound.add(node.id)
                    if node.id == "set":
                        self._set_bindings.append(node)
            elif isinstance(node, ast.Attribute):
                self.callables.add(span(node))
                self.attribute_uses.setdefault(node.attr, set()).add(self._use(node))
            else:
                if isinstance(node, ast.ClassDef):
                    self.classes.append(node)
                for name in bound_names(node):  # parameters, imports, definitions, ...
                    self.name_uses.setdefault(name, set()).add("other")
                    self.bound.add(name)
                    if name == "set":
                        self._set_bindings.append(node)
                if isinstance(node, ast.keyword) and node.arg:
                    self.written.add(node.arg)

    # ----------------------------------------------------------- questions
    def site(self, where: Span) -> Tuple[Optional[ast.Call], bool]:
        """The call at a finding's position, or (None, whether a spawner passed on is there)."""
        self.walk_line(where[0])
        return self.calls.get(where), where in self.callables

    def written_anywhere(self, name: str) -> bool:
        """Is ``name`` an identifier anywhere in the file (a name, an attribute,
        a keyword, a parameter, an import, a definition)?"""
        self.walk_word(name)
        return name in self.name_uses or name in self.attribute_uses or name in self.written

    def bound_anywhere(self, name: str) -> bool:
        """Does the file bind ``name`` anywhere, in any scope?"""
        self.walk_word(name)
        return name in self.bound

    def attribute_anywhere(self, name: str) -> bool:
        self.walk_word(name)
        return name in self.attribute_uses

    def all_classes(self) -> List[ast.ClassDef]:
        self.walk_word("class")
        return self.classes

    def set_candidates(self, attribute: bool) -> List[str]:
        """The names (attribute names) created as an empty set somewhere
        (``S = set()``, ``self.S = set()``) whose name speaks of tasks: the sets
        that may be reused, each with every use of its name walked."""
        self.walk_word("set")
        names = sorted(
            key[1:] if attribute else key for key in self.definitions
            if key.startswith(".") == attribute and "task" in key.lower()
        )
        for name in names:
            self.walk_word(name)
        return names

    @property
    def set_shadowed(self) -> bool:
        """Does a binding of "set" change what ``set()`` calls where a fix writes
        it (at module level, or in an ``__init__``)?  A method or class attribute
        named ``set`` does not: a class body's names are not seen from its
        methods, nor from the module."""
        self.walk_word("set")
        return any(self._shadows_set(node) for node in self._set_bindings)

    def parent(self, node: ast.AST) -> Optional[ast.AST]:
        return self.parents.get(id(node))

    def _shadows_set(self, binding: ast.AST) -> bool:
        if isinstance(binding, (ast.Global, ast.Nonlocal)):
            return True  # a module-level (or an enclosing function's) "set"
        scope = self.parent(binding)
        if isinstance(binding, ast.arg):
            scope = self.parent(scope) if scope is not None else None  # arguments -> function
        # (comprehensions are not taken as scopes: a walrus in one binds outside it)
        while scope is not None and not isinstance(scope, (ast.Module, ast.ClassDef, ast.Lambda, *FUNCTIONS)):
            scope = self.parent(scope)
        if isinstance(scope, (ast.ClassDef, ast.Lambda)):
            return False
        if isinstance(scope, FUNCTIONS):
            return scope.name == "__init__"  # where the instance form writes set()
        return True  # the module

    def _use(self, node: Union[ast.Name, ast.Attribute]) -> str:
        """How this occurrence of a set's name is used: ``S.add(x)``,
        ``x.add_done_callback(S.discard)``, ``S = set()``, or anything else."""
        parent = self.parent(node)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            holder = self.parent(parent)
            if not isinstance(holder, ast.Call) or holder.keywords or len(holder.args) != 1:
                return "other"
            if parent.attr == "add" and holder.func is parent and not isinstance(holder.args[0], ast.Starred):
                return "add"
            if (
                parent.attr == "discard"
                and holder.args[0] is parent
                and isinstance(holder.func, ast.Attribute)
                and holder.func.attr == "add_done_callback"
            ):
                return "discard"
            return "other"
        defined = (
            isinstance(parent, ast.Assign) and len(parent.targets) == 1 and parent.targets[0] is node
        ) or (isinstance(parent, ast.AnnAssign) and parent.target is node)
        if defined and _empty_set(parent.value):  # type: ignore[union-attr]
            key = node.id if isinstance(node, ast.Name) else "." + node.attr
            self.definitions.setdefault(key, []).append(parent)  # type: ignore[arg-type]
            return "define"
        return "other"

    def dedicated(self, name: str, attribute: bool) -> Optional[ast.stmt]:
        """The one statement that creates the set ``name`` (``S = set()``, or
        ``self.S = set()``), if nothing but the keep idiom and that statement
        touches the name anywhere in the file."""
        self.walk_word(name)
        uses = (self.attribute_uses if attribute else self.name_uses).get(name, set())
        if not uses <= {"add", "discard", "define"}:
            return None
        if attribute and name in self.name_uses or not attribute and name in self.attribute_uses:
            return None  # the same name as a plain name and as an attribute: be safe
        made = self.definitions.get("." + name if attribute else name, [])
        return made[0] if len(made) == 1 else None

    def unit_of(self, node: ast.AST) -> ast.stmt:
        """The unit (``units.py``) that holds ``node``: its module-level
        statement, or the statement of a class body (of a class that is a unit's)."""
        chain = [node]
        while not isinstance(chain[-1], ast.Module):
            parent = self.parent(chain[-1])
            assert parent is not None, "a node of a unit not walked"
            chain.append(parent)
        index = len(chain) - 2
        while index > 0 and isinstance(chain[index], ast.ClassDef) and isinstance(chain[index - 1], ast.stmt):
            index -= 1
        unit = chain[index]
        assert isinstance(unit, ast.stmt)
        return unit

    def enclosing(self, node: ast.AST) -> Union[Function, ast.Module]:
        """The function (or the module) whose frame runs ``node``."""
        current = self.parent(node)
        while current is not None and not isinstance(current, (*FUNCTIONS, ast.Module)):
            current = self.parent(current)
        assert current is not None
        return current

    def statement(self, node: ast.AST) -> ast.stmt:
        current: Optional[ast.AST] = node
        while current is not None and not isinstance(current, ast.stmt):
            current = self.parent(current)
        assert current is not None
        return current

    def top(self, statement: ast.stmt) -> ast.stmt:
        """The module-level statement that holds ``statement``."""
        current: ast.AST = statement
        while not isinstance(self.parent(current), ast.Module):
            parent = self.parent(current)
            assert parent is not None
            current = parent
        assert isinstance(current, ast.stmt)
        return current


# ------------------------------------------------------------------ forms
def _why_not(facts: Facts, call: ast.Call) -> str:
    """Why a spawn has no statement of its own to extend."""
    node: ast.AST = call
    parent = facts.parent(node)
    while parent is not None and not isinstance(parent, ast.stmt):
        if isinstance(parent, ast.Lambda):
            return "the spawn is inside a lambda: no statement to extend"
        if isinstance(parent, _COMPREHENSIONS) or isinstance(parent, ast.comprehension):
            return "the spawn is inside a comprehension: no statement to extend"
        if isinstance(parent, ast.BoolOp) and isinstance(parent.op, ast.And) and parent.values[0] is node:
            return "the 'and' the spawn starts drops its task (a task is true): no statement to extend"
        if isinstance(parent, (ast.IfExp, ast.BoolOp)):
            return "the spawn runs on some paths of a conditional expression only"
        if isinstance(parent, ast.keyword) or (
            isinstance(parent, ast.Call) and any(arg is node for arg in parent.args)
        ):
            return "the task or the spawner is passed to a call: no statement to extend"
        node, parent = parent, facts.parent(parent)
    if isinstance(parent, ast.Assign) and any(isinstance(t, ast.Attribute) for t in parent.targets):
        return ("the task is stored in an attribute that its own coroutine clears: keep it in a set "
                "as well, or clear the attribute as the coroutine's last step")
    return "the handle is used inside a larger expression or statement"


def _inert(node: ast.expr) -> bool:
    """Evaluating it runs no code of the program's: a plain name or a literal
    (an attribute may be a property; a call or an f-string runs code)."""
    return isinstance(node, (ast.Name, ast.Constant))


def _hoistable(facts: Facts, call: ast.Call) -> Tuple[Optional[ast.Expr], str]:
    """The expression statement a spawn can be taken out of, into a line of its
    own before it, with the same order of evaluation: on its way up, the spawn
    is only the object of an attribute, or an argument of a call whose callee
    and earlier arguments are plain names or literals."""
    node: ast.AST = call
    while True:
        parent = facts.parent(node)
        if isinstance(parent, ast.Expr):
            if call.lineno != call.end_lineno:
                # moved to a line of its own, its inner lines would keep their old indentation
                return None, "the spawn spans several lines inside a larger statement"
            return parent, ""
        if isinstance(parent, ast.Attribute) and parent.value is node:
            node = parent
            continue
        if isinstance(parent, ast.Call) and parent.func is node:
            node = parent
            continue
        holder: Optional[ast.AST] = None
        if isinstance(parent, ast.Call) and any(arg is node for arg in parent.args):
            holder = parent
        elif isinstance(parent, ast.keyword) and parent.arg is not None:
            holder = facts.parent(parent)
        if isinstance(holder, ast.Call):
            at = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
            earlier = [arg for arg in holder.args if (arg.lineno, arg.col_offset) < at]
            earlier += [
                k.value for k in holder.keywords if (k.value.lineno, k.value.col_offset) < at or k.arg is None
            ]
            if not _inert(holder.func) or not all(_inert(value) for value in earlier):
                return None, "other code in the statement runs before the spawn: no statement to extend"
            node = holder
            continue
        return None, _why_not(facts, call)


def _alone(facts: Facts, statement: ast.stmt) -> str:
    """Why the statement does not have its lines to itself, or ""."""
    source = facts.source
    first = source.line(statement.lineno)
    before = first.encode("utf-8")[: statement.col_offset].decode("utf-8", "ignore")
    after = source.line(statement.end_lineno or statement.lineno).encode("utf-8")[
        statement.end_col_offset or 0:
    ].decode("utf-8", "ignore")
    if before.strip():
        if before.rstrip().endswith(";"):
            return "the line holds several statements"
        return "the statement shares its line with its block header"
    if after.lstrip().startswith(";"):
        return "the line holds several statements"
    return ""


def _throwaway(facts: Facts, target: ast.Name) -> bool:
    """Is ``target`` the name ``_`` in a function that never reads it (nor
    declares it global or nonlocal, nor reads it from a nested function)?  Then
    the task may get a real name: ``_`` holds nothing anyone uses."""
    if target.id != "_":
        return False
    function = facts.enclosing(target)
    if not isinstance(function, FUNCTIONS):
        return False  # a module's ``_`` is an attribute others may read
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == "_" and not isinstance(node.ctx, ast.Store):
            return False
        if isinstance(node, (ast.Global, ast.Nonlocal)) and "_" in node.names:
            return False
    return True


def statement_of(facts: Facts, code: str, call: ast.Call) -> Tuple[Optional[str], str, Optional[ast.stmt]]:
    """(form, handle name, statement) when the site can be fixed, else (None,
    reason, None)."""
    parent = facts.parent(call)
    form: Optional[str] = None
    statement: Optional[ast.stmt] = None
    handle = ""
    if code == "TRF001":
        if isinstance(parent, ast.Expr):
            form, statement = "bare", parent
        else:
            statement, reason = _hoistable(facts, call)
            if statement is None:
                return None, reason, None
            form = "hoist"
    elif code == "TRF002":
        targets = parent.targets if isinstance(parent, ast.Assign) else []
        if (
            len(targets) == 1
            and isinstance(targets[0], ast.Name)
            and targets[0].col_offset == parent.col_offset  # type: ignore[union-attr]
            and targets[0].lineno == parent.lineno  # type: ignore[union-attr]
            and _throwaway(facts, targets[0])
        ):
            form, statement = "rename", parent  # type: ignore[assignment]
        elif len(targets) == 1 and isinstance(targets[0], ast.Name):
            form, statement, handle = "bind", parent, targets[0].id  # type: ignore[assignment]
        elif isinstance(parent, ast.AnnAssign) and isinstance(parent.target, ast.Name):
            form, statement, handle = "bind", parent, parent.target.id
        elif isinstance(parent, ast.NamedExpr) and isinstance(facts.parent(parent), ast.Expr):
            statement = facts.statement(parent)
            form, handle = "bind", parent.target.id
        elif isinstance(parent, (ast.Assign, ast.AnnAssign)):
            return None, "the handle is bound to several names or unpacked", None
        else:
            why = "the handle goes into a local collection or expression; keep that alive or await it"
            return None, why, None
    if form is None or statement is None:
        return None, _why_not(facts, call), None
    why = _alone(facts, statement)
    if why:
        return None, why, None
    return form, handle, statement


# ------------------------------------------------------------------- sets
class Taken:
    """Names in use: those given, and those a question to the facts finds
    (``Facts.written_anywhere``: asked only of the names a fix would write)."""

    def __init__(self, anywhere: Optional[Callable[[str], bool]], names: Iterable[str] = ()) -> None:
        self.anywhere = anywhere
        self.names: Set[str] = set(names)
        self.numbers: Dict[str, int] = {}  # fresh()'s next counter by base: names are only added

    def __contains__(self, name: object) -> bool:
        if name in self.names:
            return True
        return self.anywhere is not None and isinstance(name, str) and self.anywhere(name)

    def add(self, name: str) -> None:
        self.names.add(name)


@dataclass
class _Given:
    """A handle's name given in a scope, and the branches of each site it names."""

    name: str
    paths: List[Dict[int, int]] = field(default_factory=list)
    under: Set[int] = field(default_factory=set)  # the ifs and matches it is registered under


# Names looked at for a site that could share one (bounds the cost on
# pathological files: many sites in one branch)
_SHARE_TRIES = 8


def _exclusive(one: Dict[int, int], other: Dict[int, int]) -> bool:
    """Are two sites in different branches of one ``if`` or ``match``?"""
    return any(key in other and other[key] != branch for key, branch in one.items())


def _shared(given: Dict[Tuple[str, int], List[_Given]], base: str, path: Dict[int, int]) -> Optional[_Given]:
    """A name of this word whose every site is in a branch that excludes the
    site of ``path`` (``if``/``elif``/``else``): one name serves them all.  Each
    is released after its statement, and none is read elsewhere."""
    tries = 0
    for choice in path:
        for candidate in given.get((base, choice), ()):
            if all(_exclusive(path, other) for other in candidate.paths):
                return candidate
            tries += 1
            if tries >= _SHARE_TRIES:
                return None
    return None


class Planner:
    """Decides, for every fixable site, the set and the names."""

    def __init__(self, facts: Facts, keep: str) -> None:
        self.facts = facts
        self.keep = keep
        self._classes: Optional[Classes] = None
        self.class_keepers: Dict[int, Tuple[Optional[Keeper], str]] = {}
        self.module_keeper: Optional[Keeper] = None
        self.taken_attributes = Taken(facts.attribute_anywhere)
        self.edits: Dict[int, Edit] = {}  # id(statement) -> edit
        self.taken: Dict[int, Taken] = {}  # id(scope) -> names in use there
        self.module_sites: Set[int] = set()  # top-level statements holding a module-level spawn

    @property
    def classes(self) -> Classes:
        """The classes of the file (only the instance form asks)."""
        if self._classes is None:
            self._classes = Classes(self.facts.all_classes())
        return self._classes

    def keeper_for(self, statement: ast.stmt) -> Tuple[Keeper, str, str]:
        """The set a task spawned by this statement goes into, how the statement
        names it, and (instance form) why the module set was used instead."""
        why = ""
        if self.keep == "instance":
            scope = self.facts.enclosing(statement)
            cls = self.facts.parent(scope)
            if isinstance(scope, FUNCTIONS) and isinstance(cls, ast.ClassDef) and is_plain_method(scope):
                keeper, why = self._class_keeper(cls)
                if keeper is not None and self._before_the_set(statement, scope, keeper):
                    keeper, why = None, "the spawn in __init__ runs before the set is created"
                if keeper is not None:
                    return keeper, f"{first_param(scope)}.{keeper.name}", ""
            else:
                why = "the spawn is not in a method that gets the instance"
        keeper = self._module_keeper()
        return keeper, keeper.name, why

    def _before_the_set(self, statement: ast.stmt, method: Function, keeper: Keeper) -> bool:
        """Does ``statement``, in ``__init__``, run before the set is created there?"""
        if method.name != "__init__":
            return False
        top: ast.AST = statement
        while self.facts.parent(top) is not method:
            parent = self.facts.parent(top)
            if parent is None:
                return False
            top = parent
        position = next(index for index, item in enumerate(method.body) if item is top)
        if keeper.new:
            return keeper.init is method and position < keeper.index
        made = self.facts.dedicated(keeper.name, attribute=True)
        created = [index for index, item in enumerate(method.body) if item is made]
        return not created or position <= created[0]

    def new_keepers(self) -> List[Keeper]:
        """The sets to create: new ones that some fixed site uses."""
        used = {id(edit.keeper) for edit in self.edits.values()}
        candidates = [keeper for keeper, _ in self.class_keepers.values()] + [self.module_keeper]
        return [k for k in candidates if k is not None and k.new and id(k) in used]

    def _class_keeper(self, cls: ast.ClassDef) -> Tuple[Optional[Keeper], str]:
        """The instance set of cls, or (None, why not)."""
        if id(cls) not in self.class_keepers:
            self.class_keepers[id(cls)] = self._make_class_keeper(cls)
        return self.class_keepers[id(cls)]

    def _make_class_keeper(self, cls: ast.ClassDef) -> Tuple[Optional[Keeper], str]:
        refusal = self.classes.refusal(cls)
        if refusal is not None:
            return None, refusal
        init = init_of(cls)
        if init is None:
            return None, "the class has no __init__ of its own"
        if self.classes.base_init_calls_override(cls):
            return None, "a base's __init__ calls a method this class overrides"
        skipping = self.classes.subclass_skips_init(cls)
        if skipping is not None:
            return None, f"its subclass {skipping} does not run its __init__"
        if self.classes.makes_instances_without_init(cls):
            return None, "the class makes instances without __init__ (cls.__new__)"
        for name in self.facts.set_candidates(attribute=True):
            made = self.facts.dedicated(name, attribute=True)
            if made is not None and any(statement is made for statement in init.body):
                kind = holds(name, made)
                if kind is not None:
                    return Keeper(cls, name, new=False, holds=kind), ""
        index, why = place_in_init(init)
        if index is None:
            return None, why
        name = fresh(INSTANCE_SET_NAME, self.taken_attributes)
        return Keeper(cls, name, new=True, init=init, index=index), ""

    def _module_keeper(self) -> Keeper:
        """The module set: one that only the keep idiom touches, else a new one
        with a name nothing in the file uses."""
        if self.module_keeper is None:
            for name in self.facts.set_candidates(attribute=False):
                made = self.facts.dedicated(name, attribute=False)
                top = made is not None and self.facts.parent(made) is self.facts.tree
                kind = holds(name, made) if made is not None and top else None
                if made is not None and kind is not None:
                    self.module_keeper = Keeper(self.facts.tree, name, new=False, holds=kind)
                    break
            else:
                name = fresh(SET_NAME, Taken(self.facts.written_anywhere))
                self.module_keeper = Keeper(self.facts.tree, name, new=True)
        return self.module_keeper

    def defined_before(self, keeper: Keeper, top: ast.stmt) -> bool:
        """Is the existing module set created by a top-level statement before ``top``?"""
        made = self.facts.dedicated(keeper.name, attribute=False)
        for statement in self.facts.tree.body:
            if statement is made:
                return True
            if statement is top:
                return False
        return False

    def name_handles(self, edits: List[Edit]) -> None:
        """Name the handles of the edits that bind a new one (``naming.py``): a
        name nothing in its scope uses, after what is spawned; where sites of
        one scope get the same word from methods of different objects, each
        is named with its object too."""
        by_scope: Dict[int, List[Tuple[Edit, Word]]] = {}
        scopes: Dict[int, Union[Function, ast.Module]] = {}
        for edit in edits:
            if edit.form == "bind":
                continue
            scope = self.facts.enclosing(edit.statement)
            scopes[id(scope)] = scope
            by_scope.setdefault(id(scope), []).append((edit, handle_names(edit.spawn)))
        for key, named in by_scope.items():
            taken = self._taken(scopes[key])
            words = Counter(word.word for _, word in named)
            qualified = Counter(word.qualified for _, word in named)
            # the names given, by word and by the ``if`` (or ``match``) whose branch holds a site named so
            given: Dict[Tuple[str, int], List[_Given]] = {}
            for edit, word in named:
                base = word.word
                if words[base] > 1 and word.qualified is not None and qualified[word.qualified] < words[base]:
                    base = word.qualified
                path = self._branches(edit.statement, scopes[key])
                shared = _shared(given, base, path)
                if shared is None:
                    shared = _Given(fresh(base, taken, taken.numbers))
                    taken.add(shared.name)
                shared.paths.append(path)
                for choice in path:
                    if choice not in shared.under:
                        shared.under.add(choice)
                        given.setdefault((base, choice), []).append(shared)
                edit.handle = shared.name

    def _branches(self, statement: ast.stmt, scope: ast.AST) -> Dict[int, int]:
        """The branches a statement is in, up to its scope: for each ``if``, 0
        (its body) or 1 (its ``else``, an ``elif`` included), for each
        ``match``, its case; two statements with different branches of one
        ``if`` or ``match`` never both run in one pass through it."""
        path: Dict[int, int] = {}
        child: ast.AST = statement
        node = self.facts.parent(statement)
        while node is not None and node is not scope:
            if isinstance(node, ast.If) and isinstance(child, ast.stmt):
                first = node.orelse[0] if node.orelse else None
                at = (child.lineno, child.col_offset)
                path[id(node)] = int(first is not None and at >= (first.lineno, first.col_offset))
            elif type(node).__name__ == "match_case":
                match = self.facts.parent(node)
                if match is not None:
                    path[id(match)] = id(node)
            child, node = node, self.facts.parent(node)
        return path

    def _taken(self, scope: Union[Function, ast.Module]) -> Taken:
        """The names in use where a new handle is bound."""
        taken = self.taken.get(id(scope))
        if taken is None:
            if isinstance(scope, FUNCTIONS):
                taken = Taken(None, identifiers(scope))
            else:
                taken = Taken(self.facts.written_anywhere)
            for keeper, _ in self.class_keepers.values():
                if keeper is not None:
                    taken.add(keeper.name)
            if self.module_keeper is not None:
                taken.add(self.module_keeper.name)
            self.taken[id(scope)] = taken
        return taken
