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
# Backports of asyncio's names: a name bound to either on different branches (a
# version switch) stands for asyncio's.
BACKPORTS: Dict[str, str] = {
    "async_timeout.timeout": "asyncio.timeout",
    "async_timeout.timeout_at": "asyncio.timeout_at",
    "taskgroup.TaskGroup": "asyncio.TaskGroup",
    "exceptiongroup.ExceptionGroup": "builtins.ExceptionGroup",
}


class FunctionInfo(NamedTuple):
    """One function or method of a module."""

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

    def fate(self, index: int, keyword: Optional[str], bound: bool) -> str:
        """What the function does to the argument at positional ``index`` (or
        passed as ``keyword``) of a call; ``bound``: called through an instance
        or class (``obj.m(x)``), which skips the first parameter of a method."""
        names = self.params + self.kwonly
        if len(self.fates) != len(names):
            return KEEPS
        if keyword is not None:
            if keyword not in names or keyword in self.params[: self.skipped(bound)]:
                return KEEPS
            return self.fates[names.index(keyword)]
        position = index + self.skipped(bound)
        if position >= len(self.params):
            return KEEPS  # into ``*args``, or an error
        return self.fates[position]

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
            [[name, list(info)] for name, info in self.functions],
            [[name, [info.line, list(info.bases), list(info.methods), [list(a) for a in info.attrs],
                     list(info.loop_attrs), info.dynamic]] for name, info in self.classes],
            [[name, list(targets)] for name, targets in self.aliases],
            None if self.exported is None else list(self.exported),
            list(self.weak), list(self.ambiguous), self.package, self.file,
        ]

    @classmethod
    def from_json(cls, data: List[Any]) -> "ModuleSummary":
        name, path, functions, classes, aliases, exported, weak, ambiguous, package, file = data
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
            tuple(weak), tuple(ambiguous), bool(package), str(file),
        )


def _function_from_json(data: List[Any]) -> FunctionInfo:
    line, is_async, returns, future, binding, params, kwonly, fates, stub, decorated = data
    return FunctionInfo(int(line), bool(is_async), int(returns), bool(future), int(binding),
                        tuple(params), tuple(kwonly), tuple(fates), bool(stub), bool(decorated))


def _lookup(pairs: Tuple[Tuple[str, Any], ...], name: str) -> Any:
    for key, value in pairs:
        if key == name:
            return value
    return None


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
        self._own: Optional[ModuleSummary] = None
        self._modules: Dict[str, Optional[ModuleSummary]] = {}
        self._resolved: Dict[Tuple[str, Optional[str]], Optional[Target]] = {}
        self._mros: Dict[str, Optional[List[Class]]] = {}
        # what was asked of the view: (module name, summary or None), in order
        self.consulted: Dict[str, Optional[ModuleSummary]] = {}

    def set_own(self, own: ModuleSummary) -> None:
        """The summary of the module being analysed, as far as it is known."""
        self._own = own
        self._resolved.clear()
        self._mros.clear()

    def module(self, name: str) -> Optional[ModuleSummary]:
        if name == self._own_name:
            return self._own
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
            return None
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

    def method(self, klass: Class, name: str) -> Optional[Function]:
        """The method ``name`` that instances of ``klass`` find."""
        order = self.mro(klass)
        if order is None:
            return None
        for owner in order:
            if name in owner.info.methods:
                info = owner.module.function(f"{owner.name}.{name}")
                return None if info is None else Function(owner.module, f"{owner.name}.{name}", info)
            if name in {attr for attr, _ in owner.info.attrs}:
                return None  # an attribute of that name: not a method we know
        return None

    def attr_type(self, klass: Class, attr: str) -> Optional[Class]:
        """The class written down for an attribute of the class (or a base)."""
        order = self.mro(klass)
        if order is None:
            return None
        for owner in order:
            for name, dotted in owner.info.attrs:
                if name == attr:
                    return self.klass(dotted)
            if attr in owner.info.methods:
                return None
        return None

    def loop_attr(self, klass: Class, attr: str) -> bool:
        """Does a base of the class (in the project) make ``attr`` an event loop?"""
        order = self.mro(klass)
        return order is not None and any(attr in owner.info.loop_attrs for owner in order)
