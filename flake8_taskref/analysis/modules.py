"""What other modules need to know of a module (its *summary*), and how the
analysis of one file looks up the modules it imports.

A summary is small, made of plain values (``to_json``/``from_json``), and built
from the one pass over its module (``exports.py``).  It holds:

* its functions and methods (``FunctionInfo``): where they are defined, whether
  they are coroutine functions, whether they return a new task nobody keeps (or a
  list, tuple or set of them), what they do to each parameter (keep, finish, only
  look, wait for its result), how they are bound (a plain function, a method, a
  static or class method) and whether they are stubs;
* its classes (``ClassInfo``): their bases (dotted names, as the module imports
  them), the types written down for their attributes, the attributes that hold
  an event loop, and whether something dynamic makes their methods unknowable;
* its names bound to other modules' names (``aliases``: imports, re-exports,
  ``timeout = asyncio.timeout``; several targets where a name is bound on more
  than one branch), ``__all__``, the names bound to weak collections, and the
  names bound more than once (ambiguous).

The analysis reads other modules only through a ``View`` (a function from a
module's dotted name to its summary, None when it is not a module of the
project); ``Resolver`` answers its questions from the summaries: what a dotted
name is (following re-exports), which method a class has (through its bases, in
method resolution order), the type of an attribute.  Where an answer depends on
something it cannot see (a base class outside the project, a name bound twice),
it has none, and the analysis stays silent.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, FrozenSet, List, NamedTuple, Optional, Set, Tuple, Union

from flake8_taskref.analysis.names import NO_MODULE, TASK_SPAWNERS

# What a function does to a parameter (``FunctionInfo.fates``).
KEEPS, FINISHES, LOOKS, RESULT = "keep", "finish", "look", "result"
# What a function returns (``FunctionInfo.returns``).
RETURNS_NOTHING_KNOWN, RETURNS_TASK, RETURNS_TASKS = 0, 1, 2
# How a function is bound (``FunctionInfo.binding``): called through an instance
# (a method skips ``self``), a class method skips ``cls``, a static method or a
# module function skips nothing.
PLAIN, METHOD, CLASSMETHOD, STATICMETHOD = 0, 1, 2, 3

# Bases that define none of the methods the analysis asks about: transparent in
# a method resolution order (any other base outside the project is opaque).
TRANSPARENT_BASES: FrozenSet[str] = frozenset(
    {"object", "typing.Generic", "typing.Protocol", "typing_extensions.Protocol", "abc.ABC",
     "builtins.object"}
)
_MAX_DEPTH = 16
# Fates, from the least to the worst for the task (a callee that keeps the task
# keeps it whatever else it does).
_ORDER = {LOOKS: 0, RESULT: 1, FINISHES: 2, KEEPS: 3}
_WORSE = {rank: fate for fate, rank in _ORDER.items()}
# Backports of asyncio's names: a name bound to either on different branches (a
# version switch) stands for asyncio's.
BACKPORTS: Dict[str, str] = {
    "async_timeout.timeout": "asyncio.timeout",
    "async_timeout.timeout_at": "asyncio.timeout_at",
    "taskgroup.TaskGroup": "asyncio.TaskGroup",
    "exceptiongroup.ExceptionGroup": "builtins.ExceptionGroup",
}


# A call a function makes of another module's function, which its summary
# leaves to the reader to resolve (a summary is made from its module alone):
# (kind, first, second, third, index, keyword, bound), where kind is
#   "f": a dotted name (first), the module its import requires (second, or "");
#   "m": a method (second) of a class (first, dotted);
#   "a": a method (third) of the attribute (second) of a class (first, dotted),
#        whose class a base of that class writes down;
# and index/keyword/bound say which parameter of the callee an argument binds
# (index -1 for a call whose result is returned).
Ref = Tuple[str, str, str, str, int, str, bool]


class FunctionInfo(NamedTuple):
    """One function or method of a module.  What it does to a parameter
    (``fates``) and whether it returns a new task (``returns``) are what its
    own body shows; where the body hands a parameter to, or returns the result
    of, a function of another module, ``param_refs`` and ``returns_via`` name
    that call, and ``Resolver.fate`` / ``Resolver.returns_task`` combine them."""

    line: int
    is_async: bool = False
    returns: int = RETURNS_NOTHING_KNOWN
    # the label of the spawn it returns (for messages: "task" or "future")
    future: bool = False
    binding: int = PLAIN
    params: Tuple[str, ...] = ()  # positional parameters, ``self``/``cls`` included
    kwonly: Tuple[str, ...] = ()
    fates: Tuple[str, ...] = ()  # one per name of ``params`` + ``kwonly``
    stub: bool = False
    decorated: bool = False  # a decorator other than staticmethod/classmethod
    # (position in params + kwonly, the calls of other modules it is passed to)
    param_refs: Tuple[Tuple[int, Tuple[Ref, ...]], ...] = ()
    # calls of other modules whose results it returns: each must return a new task
    returns_via: Tuple[Ref, ...] = ()
    # a coroutine function: may it wait for something other than a queue's put
    # (``Scope.may_wait``; one that never does runs to its end in one step)?
    may_wait: bool = True
    # its body was analysed: False in a summary made in part (``ModuleSummary.partial``)
    entered: bool = True
    # a function that keeps the task it returns only when a parameter says so
    # (``if keep_ref: _tasks.add(t)``): the parameter, the truth with which it
    # keeps, the truth of its constant default (-1: none); "" for any other
    guard: Tuple[str, bool, int] = ("", False, -1)
    # parameters (positions in params + kwonly) it calls as a statement,
    # dropping what the call returns (``hook(*args)``)
    drops: Tuple[int, ...] = ()
    # its one decorator, a name of the project (dotted), or ""
    decorator: str = ""
    # a decorator whose every return is a function it defines that returns a
    # new task nobody keeps: a call of what it decorates returns a new task
    wraps: bool = False
    # ``returns``, but on some paths only: ``None`` on the others (``return
    # None``, a bare ``return``, its end): a spawn only where the call's result
    # is dropped by a statement of its own, which ``--fix`` leaves
    or_none: bool = False
    # the parameter (its position in ``params``) whose coroutine the task it
    # returns runs (``return asyncio.create_task(coro)``), or -1
    runs: int = -1
    # what it returns is ``asyncio.ensure_future(param)`` (``facts.FutureSpawn``): a new
    # task only to a call that gives ``runs`` a coroutine (``Summaries._given_coroutine``)
    ensures: bool = False
    # a coroutine function: may it suspend at all (an ``await``, ``async for`` or
    # ``async with`` in its body; ``Scope.suspends``): TRF007 asks it of ``__aenter__``
    # and ``__aexit__`` (``coroutines.quiet_entry``), where a cancellation can come
    suspends: bool = True

    def position(self, index: int, keyword: Optional[str], bound: bool) -> Optional[int]:
        """The parameter (its position in ``params`` + ``kwonly``) an argument
        binds; None for ``*args``, ``**kwargs``, or a name it does not have."""
        names = self.params + self.kwonly
        if keyword is not None:
            if keyword not in names or keyword in self.params[: self.skipped(bound)]:
                return None
            return names.index(keyword)
        position = index + self.skipped(bound)
        return position if position < len(self.params) else None

    def fate(self, index: int, keyword: Optional[str], bound: bool) -> str:
        """What the function's own body does to the argument at positional
        ``index`` (or passed as ``keyword``) of a call; ``bound``: called
        through an instance or class (``obj.m(x)``), which skips the first
        parameter of a method.  (``Resolver.fate`` adds the calls it hands the
        argument to.)"""
        position = self.position(index, keyword, bound)
        if position is None or len(self.fates) != len(self.params) + len(self.kwonly):
            return KEEPS  # into ``*args``, or an error
        return self.fates[position]

    def refs_of(self, position: int) -> Tuple[Ref, ...]:
        for at, refs in self.param_refs:
            if at == position:
                return refs
        return ()

    def skipped(self, bound: bool) -> int:
        """How many leading parameters a call does not pass: ``self`` of a method
        called through an instance, ``cls`` of a class method."""
        if self.binding == CLASSMETHOD or (self.binding == METHOD and bound):
            return 1
        return 0


class ClassInfo(NamedTuple):
    """One class of a module."""

    line: int
    bases: Tuple[str, ...] = ()  # dotted names; "" for a base that is no name we can follow
    methods: Tuple[str, ...] = ()  # names of the methods it defines (``functions["C.m"]``)
    attrs: Tuple[Tuple[str, str], ...] = ()  # (attribute, dotted name of its written-down type)
    loop_attrs: Tuple[str, ...] = ()
    dynamic: bool = False  # a metaclass, ``__getattr__``, a decorator: methods unknowable


class ModuleSummary(NamedTuple):
    """What other modules need to know of one module."""

    name: str
    path: str  # relative to its source root: ``app/utils.py``, ``app/__init__.py``
    functions: Tuple[Tuple[str, FunctionInfo], ...] = ()  # "f" and "C.m"
    classes: Tuple[Tuple[str, ClassInfo], ...] = ()
    aliases: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()  # name -> the dotted names it is bound to
    exported: Optional[Tuple[str, ...]] = None  # ``__all__``, when it is a list of strings
    weak: Tuple[str, ...] = ()
    ambiguous: Tuple[str, ...] = ()  # bound more than once, or to something we cannot follow
    package: bool = False  # an ``__init__.py``: its submodules are its attributes
    file: str = ""  # the file it was made from, as the caller named it (for related locations)
    # made in part (see ``Resolver``): only the functions that name a spawner
    # entered; what the others do, and the attributes of its classes, are in its
    # whole summary, which the view gives when asked (``WholeView``)
    partial: bool = False

    def function(self, name: str) -> Optional[FunctionInfo]:
        found: Optional[FunctionInfo] = _lookup(self.functions, name)
        return found

    def klass(self, name: str) -> Optional[ClassInfo]:
        found: Optional[ClassInfo] = _lookup(self.classes, name)
        return found

    def alias(self, name: str) -> Optional[Tuple[str, ...]]:
        found: Optional[Tuple[str, ...]] = _lookup(self.aliases, name)
        return found

    def spawner_names(self) -> Set[str]:
        """The names under which this module's functions and methods that return
        new tasks are called (the text shortcut's words for the project)."""
        return {qualname.rpartition(".")[2] for qualname, info in self.functions if info.returns}

    def to_json(self) -> List[Any]:
        return [
            self.name, self.path,
            [[name, _function_to_json(info)] for name, info in self.functions],
            [[name, [info.line, list(info.bases), list(info.methods), [list(a) for a in info.attrs],
                     list(info.loop_attrs), info.dynamic]] for name, info in self.classes],
            [[name, list(targets)] for name, targets in self.aliases],
            None if self.exported is None else list(self.exported),
            list(self.weak), list(self.ambiguous), self.package, self.file, self.partial,
        ]

    @classmethod
    def from_json(cls, data: List[Any]) -> "ModuleSummary":
        name, path, functions, classes, aliases, exported, weak, ambiguous, package, file, partial = data
        return cls(
            name, path,
            tuple((fname, _function_from_json(info)) for fname, info in functions),
            tuple(
                (cname, ClassInfo(line, tuple(bases), tuple(methods), tuple((a, t) for a, t in attrs),
                                  tuple(loops), bool(dynamic)))
                for cname, (line, bases, methods, attrs, loops, dynamic) in classes
            ),
            tuple((aname, tuple(targets)) for aname, targets in aliases),
            None if exported is None else tuple(exported),
            tuple(weak), tuple(ambiguous), bool(package), str(file), bool(partial),
        )


def _function_from_json(data: List[Any]) -> FunctionInfo:
    (line, is_async, returns, future, binding, params, kwonly, fates, stub, decorated, param_refs, via,
     wait, entered, guard, drops, decorator, wraps, or_none, runs, ensures, suspends) = data
    return FunctionInfo(int(line), bool(is_async), int(returns), bool(future), int(binding),
                        tuple(params), tuple(kwonly), tuple(fates), bool(stub), bool(decorated),
                        tuple((int(at), tuple(_ref(ref) for ref in refs)) for at, refs in param_refs),
                        tuple(_ref(ref) for ref in via), bool(wait), bool(entered),
                        (str(guard[0]), bool(guard[1]), int(guard[2])), tuple(int(at) for at in drops),
                        str(decorator), bool(wraps), bool(or_none), int(runs), bool(ensures), bool(suspends))


def _ref(data: Any) -> Ref:
    kind, first, second, third, index, keyword, bound = data
    return (str(kind), str(first), str(second), str(third), int(index), str(keyword), bool(bound))


def _function_to_json(info: FunctionInfo) -> List[Any]:
    return [info.line, info.is_async, info.returns, info.future, info.binding, list(info.params),
            list(info.kwonly), list(info.fates), info.stub, info.decorated,
            [[at, [list(ref) for ref in refs]] for at, refs in info.param_refs],
            [list(ref) for ref in info.returns_via], info.may_wait, info.entered, list(info.guard),
            list(info.drops), info.decorator, info.wraps, info.or_none, info.runs, info.ensures,
            info.suspends]


# The names of the last few long tables ``_lookup`` was asked of, by the table's
# id (the table kept beside, so that an id is never taken for another table's):
# a lookup in a module of thousands of functions was a scan of them all, which
# made the check of one long file grow with its square.
_INDEXES: Dict[int, Tuple[Tuple[Tuple[str, Any], ...], Dict[str, Any]]] = {}
_SCANNED = 32  # (a table shorter than this is scanned)


def _lookup(pairs: Tuple[Tuple[str, Any], ...], name: str) -> Any:
    if len(pairs) < _SCANNED:
        for key, value in pairs:
            if key == name:
                return value
        return None
    entry = _INDEXES.get(id(pairs))
    if entry is None or entry[0] is not pairs:
        index: Dict[str, Any] = {}
        for key, value in pairs:
            index.setdefault(key, value)  # (the first, as the scan finds)
        if len(_INDEXES) >= 16:
            _INDEXES.clear()
        entry = _INDEXES[id(pairs)] = (pairs, index)
    return entry[1].get(name)


# A module's summary by its dotted name; None for a module outside the project
# (or one that cannot be read or parsed).
View = Callable[[str], Optional[ModuleSummary]]


class Function(NamedTuple):
    """A resolved function: where it is defined and what it does."""

    module: ModuleSummary
    qualname: str
    info: FunctionInfo

    @property
    def where(self) -> str:
        """``app/utils.py:12``, for messages."""
        return f"{self.module.path}:{self.info.line}"


class Class(NamedTuple):
    module: ModuleSummary
    name: str
    info: ClassInfo

    @property
    def dotted(self) -> str:
        return f"{self.module.name}.{self.name}"


class External(NamedTuple):
    """A name outside the project that a project name stands for
    (``timeout = asyncio.timeout``): the canonical dotted name."""

    dotted: str


Target = Union[Function, Class, External, ModuleSummary]


class Resolver:
    """Answers the analysis's questions about other modules from their summaries
    (see the module docstring), caching each answer for the one file."""

    def __init__(self, view: View, own_name: Optional[str] = None) -> None:
        self._view = view
        # the module being analysed: never asked of the view (its summary is
        # the one being made), known once its classes are recorded (``own``)
        self._own_name = own_name
        self._own_made: Optional[ModuleSummary] = None
        self._own_make: Optional[Callable[[], ModuleSummary]] = None
        self._own_full: Optional[Callable[[], ModuleSummary]] = None
        self._modules: Dict[str, Optional[ModuleSummary]] = {}
        self._wholes: Dict[str, Optional[ModuleSummary]] = {}
        self._resolved: Dict[Tuple[str, Optional[str]], Optional[Target]] = {}
        self._mros: Dict[str, Optional[List[Class]]] = {}
        # answers of returns_task and fate, and those being made (a cycle of
        # calls: an answer made while it used one still being made is not kept)
        self._answers: Dict[Tuple[Any, ...], Any] = {}
        self._active: List[Tuple[Any, ...]] = []
        self._taint: List[Set[Tuple[Any, ...]]] = []
        # what was asked of the view: (module name, summary or None), in order
        self.consulted: Dict[str, Optional[ModuleSummary]] = {}

    def is_own(self, module: ModuleSummary) -> bool:
        """Is ``module`` the summary of the module being analysed?"""
        return module is self._own_made or module.name == (self._own_name or NO_MODULE)

    def set_own(
        self, own: Union[ModuleSummary, Callable[[], ModuleSummary], None],
        full: Optional[Callable[[], ModuleSummary]] = None,
    ) -> None:
        """The summary of the module being analysed, as far as it is known (or
        what makes it, when first asked: its classes and functions); ``full``:
        makes its whole summary (what its functions return and do to their
        parameters), asked only when another module's function leads back
        into one of this module's (a cycle of imports).  None: forget them."""
        self._own_made = own if isinstance(own, ModuleSummary) else None
        self._own_make = own if callable(own) else None
        self._own_full = full
        self._resolved.clear()
        self._mros.clear()
        self._answers.clear()

    @property
    def own_name(self) -> Optional[str]:
        """The dotted name of the module being analysed."""
        return self._own_name

    def _own_summary(self) -> Optional[ModuleSummary]:
        if self._own_made is None and self._own_make is not None:
            make, self._own_make = self._own_make, None
            self._own_made = make()
        return self._own_made

    def _complete(self, function: Function, always: bool = False) -> Optional[Function]:
        """``function`` as the whole summary of its module has it: if it is one
        of the module being analysed (whose first summary knows its signature
        only), or of a module the view gave in part, where its body was not
        entered (or ``always``: what its body does to its parameters is known
        from the whole summary only).  None: no whole summary can be had.  What a
        summary in part says of the functions it entered (whether they return
        new tasks) is final only if it was made with every project word its
        module names: the view makes it so (``ProjectView._made``)."""
        module = function.module
        if module.partial:
            if not always and function.info.entered:
                return function
            whole = self._whole(module)
            info = whole.function(function.qualname) if whole is not None else None
            return None if whole is None or info is None else Function(whole, function.qualname, info)
        if module.name != self._own_name or self._own_full is None:
            return function
        full, self._own_full = self._own_full, None
        self._own_made = made = full()
        self._resolved.clear()
        info = made.function(function.qualname)
        return function if info is None else Function(made, function.qualname, info)

    def whole_function(self, function: Function) -> Optional[Function]:
        """``function`` with all its body says (``may_wait``), see ``_complete``."""
        return self._complete(function)

    def _whole(self, module: ModuleSummary) -> Optional[ModuleSummary]:
        """The whole summary of a module the view gave in part (its ``whole``),
        asked once; None when the view has none to give (nothing known)."""
        if not module.partial:
            return module
        name = module.name
        if name not in self._wholes:
            whole: Optional[Callable[[str], Optional[ModuleSummary]]] = getattr(self._view, "whole", None)
            found = whole(name) if whole is not None else None
            self._wholes[name] = None if found is None or found.partial else found
        return self._wholes[name]

    def _whole_class(self, klass: Class) -> Optional[Class]:
        """``klass`` with the attributes its whole module summary gives it."""
        if not klass.module.partial:
            return klass
        whole = self._whole(klass.module)
        info = whole.klass(klass.name) if whole is not None else None
        return None if whole is None or info is None else Class(whole, klass.name, info)

    def module(self, name: str) -> Optional[ModuleSummary]:
        if name == self._own_name:
            return self._own_summary()
        if name not in self._modules:
            found = self._view(name)
            self._modules[name] = found
            self.consulted[name] = found
        return self._modules[name]

    # -------------------------------------------------------------- names
    def resolve(self, dotted: str, module: Optional[str] = None) -> Optional[Target]:
        """What ``dotted`` (``app.util.spawn``, ``app.Service.start``) names: a
        function, a class, a module of the project, or a name outside it.
        ``module``: the part of ``dotted`` an import requires to be a module
        (``from app.util import spawn``: ``app.util``), if known."""
        key = (dotted, module)
        if key not in self._resolved:
            self._resolved[key] = None  # a cycle of re-exports resolves to nothing
            if module is not None and dotted.startswith(module + "."):
                found = self.module(module)
                rest = dotted[len(module) + 1:].split(".")
                self._resolved[key] = External(dotted) if found is None else self._member(found, rest, 0)
            else:
                self._resolved[key] = self._resolve(dotted, 0)
        return self._resolved[key]

    def _resolve(self, dotted: str, depth: int) -> Optional[Target]:
        if depth > _MAX_DEPTH:
            return None
        parts = dotted.split(".")
        # the longest prefix that is a module of the project
        for cut in range(len(parts), 0, -1):
            module = self.module(".".join(parts[:cut]))
            if module is not None:
                return self._member(module, parts[cut:], depth)
        return External(dotted) if len(parts) > 1 else None

    def _member(self, module: ModuleSummary, path: List[str], depth: int) -> Optional[Target]:
        if not path:
            return module
        first, rest = path[0], path[1:]
        if first in module.ambiguous:
            return None
        info = module.function(first)
        if info is not None:
            return Function(module, first, info) if not rest else None
        klass = module.klass(first)
        if klass is not None:
            found = Class(module, first, klass)
            if not rest:
                return found
            if len(rest) == 1:
                return self.method(found, rest[0])
            return None
        targets = module.alias(first)
        if targets:
            answers = [self._resolve(".".join([target, *rest]), depth + 1) for target in targets]
            if len(answers) > 1:
                # a version switch between an asyncio name and its backport
                answers = [External(BACKPORTS.get(a.dotted, a.dotted)) if isinstance(a, External) else a
                           for a in answers]
            first_answer = answers[0]
            if first_answer is not None and all(answer == first_answer for answer in answers[1:]):
                return first_answer
            if all(isinstance(answer, External) and answer.dotted in TASK_SPAWNERS for answer in answers):
                return first_answer  # a switch between asyncio's spawners (create_task, ensure_future)
            return None
        stars = module.alias("*") if not first.startswith("_") and depth <= _MAX_DEPTH else None
        for star in reversed(stars or ()):  # ``from .helpers import *``: the last one binds a name
            source = self.module(star)
            if source is None:
                return None  # a module we cannot see may bind it
            if source.exported is not None and first not in source.exported:
                continue
            starred = self._member(source, path, depth + 1)
            if starred is not None:
                return starred
        if module.package:  # ``app.sub`` where ``app/__init__.py`` does not bind ``sub``
            sub = self.module(f"{module.name}.{first}")
            if sub is not None:
                return self._member(sub, rest, depth + 1)
        return None

    def function(self, dotted: str, module: Optional[str] = None) -> Optional[Function]:
        target = self.resolve(dotted, module)
        return target if isinstance(target, Function) else None

    def klass(self, dotted: str) -> Optional[Class]:
        target = self.resolve(dotted)
        return target if isinstance(target, Class) else None

    def spawner_alias(self, dotted: str, module: Optional[str] = None) -> Optional[str]:
        """The asyncio spawner a project name is bound to (``create_task =
        asyncio.create_task`` in a compatibility module), if any."""
        found = self.canonical(dotted, module)
        return found if found in TASK_SPAWNERS else None

    def canonical(self, dotted: str, module: Optional[str] = None) -> Optional[str]:
        """The name outside the project that ``dotted`` stands for, if any
        (``app._compat.timeout`` -> ``asyncio.timeout``)."""
        target = self.resolve(dotted, module)
        return target.dotted if isinstance(target, External) else None

    # ------------------------------------------------------------ classes
    def mro(self, klass: Class) -> Optional[List[Class]]:
        """The method resolution order of a class of the project, as far as it
        matters: its classes of the project, in C3 order; None when a base we
        cannot see comes before any class that could be asked about, or the
        order is inconsistent (precision: then nothing is known)."""
        key = klass.dotted
        if key not in self._mros:
            self._mros[key] = None  # a cycle of bases: nothing known
            self._mros[key] = self._mro(klass, 0)
        return self._mros[key]

    def _loose_mro(self, klass: Class) -> Optional[List[Class]]:
        """The class and its bases in the project, depth first, each once (see
        ``method``'s ``loose``)."""
        order: List[Class] = []
        stack = [(klass, 0)]
        seen: Set[str] = set()
        while stack:
            current, level = stack.pop()
            if current.dotted in seen or level > _MAX_DEPTH:
                continue
            seen.add(current.dotted)
            order.append(current)
            found = [self.klass(base) for base in current.info.bases
                     if base and base not in TRANSPARENT_BASES]
            stack.extend((base, level + 1) for base in reversed(found) if base is not None)
        return order

    def _mro(self, klass: Class, depth: int) -> Optional[List[Class]]:
        if klass.info.dynamic or depth > _MAX_DEPTH:
            return None
        sequences: List[List[Class]] = []
        bases: List[Class] = []
        for base in klass.info.bases:
            if base in TRANSPARENT_BASES:
                continue
            found = self.klass(base) if base else None
            if found is None:
                return None  # a base outside the project may define anything
            base_mro = self.mro(found)
            if base_mro is None:
                return None
            sequences.append(list(base_mro))
            bases.append(found)
        sequences.append(bases)
        result = [klass]
        while any(sequences):
            for sequence in sequences:
                if not sequence:
                    continue
                head = sequence[0]
                if not any(head.dotted in (c.dotted for c in other[1:]) for other in sequences):
                    break
            else:
                return None  # no consistent order: Python refuses the class too
            result.append(head)
            sequences = [[c for c in sequence if c.dotted != head.dotted] for sequence in sequences]
        return result

    def method(self, klass: Class, name: str, loose: bool = False) -> Optional[Function]:
        """The method ``name`` that instances of ``klass`` find.  ``loose``: the
        project's own classes in a method resolution order where the bases
        outside the project, and what a class decorator, a metaclass or
        ``__getattr__`` may do, are left out: for a question whose wrong answer
        only silences a finding (does this coroutine never wait?)."""
        order = self.mro(klass) if not loose else self._loose_mro(klass)
        if order is None:
            return None
        for owner in order:
            if name in owner.info.methods:
                info = owner.module.function(f"{owner.name}.{name}")
                return None if info is None else Function(owner.module, f"{owner.name}.{name}", info)
            whole = self._whole_class(owner)
            if whole is None or name in {attr for attr, _ in whole.info.attrs}:
                return None  # an attribute of that name: not a method we know
        return None

    def attr_type(self, klass: Class, attr: str, loose: bool = False) -> Optional[Class]:
        """The class written down for an attribute of the class (or a base;
        ``loose``: see ``method``)."""
        order = self.mro(klass) if not loose else self._loose_mro(klass)
        if order is None:
            return None
        for owner in order:
            whole = self._whole_class(owner)
            if whole is None:
                return None
            for name, dotted in whole.info.attrs:
                if name == attr:
                    return self.klass(dotted)
            if attr in owner.info.methods:
                return None
        return None

    # ------------------------------------------------------ what calls do
    def ref_target(self, ref: Ref) -> Optional[Function]:
        """The function a summary's call of another module reaches."""
        kind, first, second, third = ref[0], ref[1], ref[2], ref[3]
        if kind == "f":
            return self.function(first, second or None)
        klass = self.klass(first)
        if klass is None:
            return None
        if kind == "m":
            return self.method(klass, second)
        attr_class = self.attr_type(klass, second)  # "a"
        return self.method(attr_class, third) if attr_class is not None else None

    def returns_task(self, function: Function, awaited: bool = False, or_none: bool = False) -> bool:
        """Does a call of ``function`` return a new task (or a collection of
        them) that nobody else keeps: its own returns, and the results of the
        calls of other modules it returns, each a new task too?  ``awaited``:
        does ``await`` of the call (a coroutine function's) return one;
        ``or_none``: a new task or ``None`` will do (``FunctionInfo.or_none``)."""
        key = ("returns", function.module.name, function.qualname, awaited, or_none)
        if key in self._answers:
            return bool(self._answers[key])
        # a decorated function: its decorator decides (a summary in part says
        # which it is, and whether it is a stub: its body is not needed)
        whole = function if function.info.decorator else self._complete(function)
        if whole is None:
            return False
        return bool(self._solve(key, lambda: self._returns_task(whole, awaited, or_none), False))

    def _returns_task(self, function: Function, awaited: bool = False, or_none: bool = False) -> bool:
        info = function.info
        if info.decorator:
            if awaited:
                return False
            if info.stub:
                return False
            wrapper = self.function(info.decorator)
            if wrapper is None or wrapper.module.partial and not wrapper.info.entered:
                return False  # a decorator that names no spawner (the part enters the others)
            whole = self._complete(wrapper)
            return whole is not None and whole.info.wraps and not whole.info.decorated
        if not info.returns or info.is_async != awaited or info.stub or info.decorated:
            return False
        if info.or_none and not or_none:
            return False
        for ref in info.returns_via:
            target = self.ref_target(ref)
            if target is None or not self.returns_task(target) or target.info.guard[0]:
                return False  # (a helper that keeps on a parameter: given what, not known)
        return True

    def returns_list(self, function: Function) -> bool:
        """Does a call of ``function`` (one that ``returns_task``) return a
        list, tuple or set of new tasks: its own returns, or the results of the
        calls of other modules it returns (``return spawn_all(coros)``)?"""
        whole = function if function.info.returns == RETURNS_TASKS else self._complete(function)
        if whole is None or whole.info.returns == RETURNS_TASKS:
            return whole is not None
        key = ("list", function.module.name, function.qualname)
        return bool(self._solve(key, lambda: any(
            target is not None and self.returns_list(target)
            for target in map(self.ref_target, whole.info.returns_via)), False))

    def drops_result(self, function: Function, index: int, keyword: Optional[str], bound: bool) -> bool:
        """Does ``function`` call its argument at ``index`` (or ``keyword``), a
        callable, as a statement, dropping what it returns?"""
        whole = self._complete(function, always=True)
        if whole is None:
            return False
        position = whole.info.position(index, keyword, bound)
        return position is not None and position in whole.info.drops

    def fate(self, function: Function, index: int, keyword: Optional[str], bound: bool) -> str:
        """What a call of ``function`` does to its argument at ``index`` (or
        ``keyword``): its own body's fate of the parameter, and the fates of
        the calls of other modules it hands it to (the worst wins: keeps,
        finishes, waits for its result, only looks)."""
        whole = self._complete(function, always=True)
        if whole is None:
            return KEEPS
        function = whole
        info = function.info
        if info.is_async or info.stub or info.decorated:
            return KEEPS
        position = info.position(index, keyword, bound)
        if position is None or len(info.fates) != len(info.params) + len(info.kwonly):
            return KEEPS
        key = ("fate", function.module.name, function.qualname, position)
        return str(self._solve(key, lambda: self._fate(function, position), LOOKS))

    def _fate(self, function: Function, position: int) -> str:
        result = function.info.fates[position]
        for ref in function.info.refs_of(position):
            if result == KEEPS:
                break
            target = self.ref_target(ref)
            other = KEEPS if target is None else self.fate(target, ref[4], ref[5] or None, ref[6])
            result = _WORSE[max(_ORDER[result], _ORDER[other])]
        return result

    def _solve(self, key: Tuple[Any, ...], make: Callable[[], Any], bottom: Any) -> Any:
        """An answer, made once; one asked again while it is being made (a
        cycle) is ``bottom`` (no task returned, only looks) for that making,
        whose answers are then not kept, but the first one's (the cycle's
        entry, which saw all of it), so that no answer depends on the order
        of the questions."""
        if key in self._answers:
            return self._answers[key]
        if key in self._active:
            self._taint[-1].add(key)
            return bottom
        self._active.append(key)
        self._taint.append(set())
        try:
            answer = make()
        finally:
            self._active.pop()
            taint = self._taint.pop()
        taint.discard(key)
        if taint:
            if self._taint:
                self._taint[-1].update(taint)
            return answer
        self._answers[key] = answer
        return answer

    def loop_attr(self, klass: Class, attr: str) -> bool:
        """Does a base of the class (in the project) make ``attr`` an event loop?"""
        order = self.mro(klass)
        if order is None:
            return False
        for owner in order:
            whole = self._whole_class(owner)
            if whole is None:
                return False
            if attr in whole.info.loop_attrs:
                return True
        return False
