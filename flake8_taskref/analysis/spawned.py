"""What the spawns of one coroutine in the scopes entered so far ask about
their coroutines (``functions.FunctionsRecorder._spawned_coroutines``): the
names the text shortcut enters for those questions, gathered as the scopes
are entered."""
from __future__ import annotations

import ast
from typing import Dict, List, Set, Tuple

from flake8_taskref.analysis.facts import Scope, Spawn


class Spawned:
    """The coroutines the spawns of one coroutine run, by what is asked of
    them (``FunctionsRecorder._spawned_coroutines``)."""

    __slots__ = (
        "every", "count", "names", "clearing", "attrs", "methods", "typed", "kept_in", "ensured", "put_off",
        "waiting", "declares", "awaited",
    )

    def __init__(self, every: bool, declares: bool) -> None:
        self.every = every  # the file names ``current_task``: each spawn given a call
        self.declares = declares  # the file names ``global`` or ``nonlocal``
        # the names of the coroutine functions awaited, in a file that may
        # declare them ``global``: the functions that name them are entered
        self.awaited: Set[str] = set()
        self.count = 0  # the scopes seen
        self.names: Set[str] = set()  # coroutine functions whose spawns the rules may report
        self.clearing: Set[str] = set()  # coroutine methods of tasks stored in ``self.attr``
        self.attrs: Set[str] = set()  # those attributes
        self.methods: Set[str] = set()  # methods of a name (``self.run()``) spawned
        self.typed: Set[str] = set()  # attributes whose method is spawned (``self.w.run()``)
        self.kept_in: Set[str] = set()  # module names a coroutine adds its own task to
        # names of functions whose call ``ensure_future`` is given: is it a plain
        # function (``coroutines.plain_call``), or does a function that names it
        # bind it again (``global``)?
        self.ensured: Set[str] = set()
        # the spawns whose questions ``put_off`` puts off: (the coroutine
        # function's name, the spawn, its scope)
        self.put_off: List[Tuple[str, Spawn, Scope]] = []
        # what each coroutine function entered so far awaits (``Scope.waits_on``),
        # by its name: (the name of the function awaited, the attribute of
        # ``self`` whose method it is, or "", and whether through a name)
        self.waiting: Dict[str, Set[Tuple[str, str, bool]]] = {}

    def awaits(self, name: str, calls: List[ast.Call]) -> None:
        found = self.waiting.setdefault(name, set())
        for call in calls:
            func = call.func
            if isinstance(func, ast.Attribute):
                value = func.value
                # (a method of a class of the file, entered by its name; through
                # ``self.attr``, the stores of ``attr`` too; through a name, ``self``
                # or a typed local, the stores of an attribute that may hide it)
                typed = value.attr if isinstance(value, ast.Attribute) else ""
                found.add((func.attr, typed, isinstance(value, ast.Name)))
            elif isinstance(func, ast.Name):
                found.add((func.id, "", False))

    def follow(self, names: List[str]) -> None:
        """Add to ``names`` the functions the coroutines of ``names`` await
        (the ones of the file, by name; a method awaited through a name, and an
        attribute whose method is awaited, as a spawn's), and theirs."""
        known = self.names
        waiting = self.waiting
        while names:
            name = names.pop()
            if name not in known:
                continue
            for awaited, typed, method in waiting.get(name, ()):
                if typed:  # ``self.attr.m()``: the class the stores of ``attr`` write down
                    self.typed.add(typed)
                elif method:  # ``self.m()``: an attribute of the name may hide it
                    self.methods.add(awaited)
                elif self.declares:  # (a name: ``await helper()``, bound through ``global``?)
                    self.awaited.add(awaited)
                if awaited not in known:
                    known.add(awaited)
                    names.append(awaited)

    def reach(self, name: str) -> Set[str]:
        """``name`` and the functions its coroutine awaits, and theirs, as far
        as they are entered."""
        found = {name}
        todo = [name]
        while todo:
            for awaited, _, _ in self.waiting.get(todo.pop(), ()):
                if awaited not in found:
                    found.add(awaited)
                    todo.append(awaited)
        return found
