"""A module's summary (``modules.ModuleSummary``), made from the facts of its one
pass and from what the rules decide of its functions (``Exported``, below):
what other modules of the project need to know of it.

``own()`` is the part known once the pass is done (classes, their bases and
methods, names bound to other modules), which the analysis of the module itself
uses to follow its classes' bases; ``summary()`` adds what each function does to
its parameters and whether it returns new tasks, from rules that look at no
other module: a call of another module's function is named in the summary
(``Ref``), and whoever reads it looks it up (``Resolver``).  So a summary
depends on its module's text alone.
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Set, Tuple

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.facts import (
    U_ADD, U_CALL, U_FINISH, U_FLOW, U_HARMLESS, U_KEEP, U_RESULT, CallArg, CallSite, CollectionAdd,
    FunctionNode, Group, ModuleFacts, Scope, Spawn, Use,
)
from flake8_taskref.analysis.lookups import local_type
from flake8_taskref.analysis.modules import (
    CLASSMETHOD,
    FINISHES,
    KEEPS,
    LOOKS,
    METHOD,
    PLAIN,
    RESULT,
    RETURNS_NOTHING_KNOWN,
    STATICMETHOD,
    ClassInfo,
    FunctionInfo,
    ModuleSummary,
)
from flake8_taskref.analysis.rules import ModuleRules
from flake8_taskref.analysis.arguments import calls_and_drops
from flake8_taskref.analysis.coroutines import quiet_lock
from flake8_taskref.analysis.arguments import default_truth, guard_of_keeping
from flake8_taskref.analysis.modules import RETURNS_TASK, RETURNS_TASKS, Ref
from flake8_taskref.analysis.summaries import (
    FUTURE_LABELS, Summaries, filled_groups, held_at, returned_spawns, returns_future_spawn,
    returns_only_tasks, returns_task_or_none, stub,
)

_FATE_NAMES = {U_KEEP: KEEPS, U_FINISH: FINISHES, U_HARMLESS: LOOKS, U_RESULT: RESULT}
_BINDINGS = {"staticmethod": STATICMETHOD, "classmethod": CLASSMETHOD}


def module_path(name: str, package: bool) -> str:
    """Where a module lives under its source root, for messages: ``app/utils.py``."""
    if name == N.NO_MODULE:
        return "<stdin>"
    return name.replace(".", "/") + ("/__init__.py" if package else ".py")


def own(facts: ModuleFacts) -> ModuleSummary:
    """What the pass shows of the module without the rules."""
    return _summary(facts, None)


def summary(facts: ModuleFacts, rules: ModuleRules, partial: bool = False) -> ModuleSummary:
    """The module's summary, with what its functions do (decided by ``rules``);
    ``partial``: the pass entered only the functions the text shortcut let
    through (the others are marked not entered)."""
    return _summary(facts, rules, partial)


def _summary(facts: ModuleFacts, rules: Optional[ModuleRules], partial: bool = False) -> ModuleSummary:
    exported = Exported(rules.summaries, facts) if rules is not None else None
    module = facts.module
    name = facts.name or N.NO_MODULE
    aliases = facts.aliases
    ambiguous: Set[str] = {
        bound for bound in module.rebound if bound not in aliases or bound in facts.other_bound
    }
    ambiguous.update(alias for alias in aliases if alias in facts.other_bound)
    scopes: Dict[int, Scope] = {
        id(scope.node): scope for scope in facts.scopes if scope.kind == Scope.FUNCTION
    }
    functions: List[Tuple[str, FunctionInfo]] = []
    for fname, node in sorted(module.defs.items()):
        if fname not in ambiguous:
            functions.append((fname, _function(node, scopes.get(id(node)), False, exported, partial,
                                               _decorator(node, facts))))
    classes: List[Tuple[str, ClassInfo]] = []
    for cname, scope in sorted(facts.classes.items()):
        klass = scope.klass
        if cname in ambiguous or klass is None:
            continue
        methods = sorted(m for m in scope.defs if m not in scope.rebound)
        for method in methods:
            node = scope.defs[method]
            functions.append((f"{cname}.{method}", _function(
                node, scopes.get(id(node)), True, exported, partial, _decorator(node, facts))))
        loop_attrs = set(klass.loop_attrs)
        if rules is not None:
            loop_attrs.update(rules.loop_attrs_of(scope))
        classes.append((cname, ClassInfo(
            getattr(scope.node, "lineno", 0),
            tuple(klass.bases),
            tuple(methods),
            tuple(sorted(  # (not the types of a mapping's values, ``"x[]"``)
                (attr, dotted) for attr, dotted in klass.types.items() if dotted and attr.isidentifier())),
            tuple(sorted(loop_attrs)),
            klass.dynamic,
        )))
    return ModuleSummary(
        name,
        module_path(name, facts.package),
        tuple(functions),
        tuple(classes),
        tuple((alias, tuple(bound)) for alias, bound in sorted(aliases.items()) if alias not in ambiguous),
        None if facts.exported is None else tuple(facts.exported),
        tuple(sorted(facts.weak_names)),
        tuple(sorted(ambiguous)),
        facts.package,
        facts.filename or "",
        partial,
    )


def _decorator(node: ast.AST, facts: ModuleFacts) -> str:
    """The dotted name of a function's one decorator, if it is a name of the
    project (imported, or a function of this module); "" otherwise."""
    decorators = getattr(node, "decorator_list", [])
    if len(decorators) != 1 or not isinstance(decorators[0], (ast.Name, ast.Attribute)):
        return ""
    found = facts.module.imports.resolve(decorators[0])
    if found is None and isinstance(decorators[0], ast.Name) and decorators[0].id in facts.module.defs:
        found = f"{facts.name or N.NO_MODULE}.{decorators[0].id}"
    return found if found is not None and found.partition(".")[0] not in N.STDLIB else ""


def _function(
    node: ast.AST, scope: Optional[Scope], method: bool, exported: Optional[Exported], partial: bool = False,
    decorated_by: str = "",
) -> FunctionInfo:
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    binding = METHOD if method else PLAIN
    decorated = False
    for decorator in node.decorator_list:
        kind = _BINDINGS.get(decorator.id) if isinstance(decorator, ast.Name) else None
        if kind is None or not method:
            decorated = True
        else:
            binding = kind
    args = node.args
    params = tuple(arg.arg for arg in args.posonlyargs + args.args)
    kwonly = tuple(arg.arg for arg in args.kwonlyargs)
    is_async = isinstance(node, ast.AsyncFunctionDef)
    info = FunctionInfo(node.lineno, is_async, RETURNS_NOTHING_KNOWN, False, binding, params, kwonly, (),
                        stub(node), decorated, entered=scope is not None or not partial,
                        decorator=decorated_by if decorated else "")
    if is_async and scope is not None:
        # (a private lock nobody holds across a wait, ``coroutines.quiet_lock``: opentrons' pause(),
        # which another module's spawn awaits, a false alarm of the thirty-sixth trial's sweep; a
        # public one, other modules may hold)
        locks = bool(scope.lock_entries) and (exported is None or not all(
            attr.startswith("_") and quiet_lock(exported.facts, attr) for attr in scope.lock_entries))
        waits = scope.may_wait or scope.returns_value or bool(scope.waits_on) or locks
        info = info._replace(may_wait=waits, suspends=scope.suspends)
    if exported is None or scope is None or info.stub or decorated:
        return info
    if is_async:  # what ``await`` of a call returns (``Resolver.returns_task(awaited=True)``)
        if exported.guard(scope)[0]:
            return info  # it keeps its task when a parameter says so: not followed for ``await``
        returns, future, via, or_none = exported.returned(scope)
        return info._replace(returns=returns, future=future, returns_via=via, or_none=or_none)
    fates: List[str] = []
    param_refs = []
    for position, param in enumerate(params + kwonly):
        fate, refs = exported.parameter(scope, param)
        fates.append(_FATE_NAMES.get(fate, KEEPS))
        if refs:
            param_refs.append((position, refs))
    returns, future, via, or_none = exported.returned(scope)
    guard = exported.guard(scope) if returns and not or_none else ("", False, -1)
    runs = -1  # the parameter whose coroutine the task it returns runs (``FunctionInfo.runs``)
    # (``FunctionInfo.ensures``; on some paths only too: then no ``runs``, and no call is judged)
    judge = exported.summaries.judge
    ensures = bool(returns) and returns_future_spawn(scope, judge)
    if returns and not or_none:
        runs_parameter = exported.summaries.runs_parameter
        runs = next((at for at, param in enumerate(params) if runs_parameter(scope, param)), -1)
    drops = tuple(at for at, param in enumerate(params + kwonly) if calls_and_drops(scope, param))
    return info._replace(returns=returns, future=future, fates=tuple(fates), param_refs=tuple(param_refs),
                         returns_via=via, guard=guard, drops=drops, wraps=exported.wraps(scope),
                         or_none=or_none, runs=runs, ensures=ensures)


class Exported:
    """What a function of this file does, as its module's summary says it for
    other modules: from its own body and the other functions of this file,
    with the calls of other modules' functions named (``Ref``) rather than
    looked up, so that a summary depends on its module alone.  Made by rules
    that have no other module to look at (``api._analyse``)."""

    def __init__(self, summaries: "Summaries", facts: ModuleFacts) -> None:
        self.summaries = summaries
        self.facts = facts
        self._params: Dict[Tuple[int, str], Optional[Tuple[int, Tuple[Ref, ...]]]] = {}
        self._returns: Dict[int, Optional[Tuple[int, Tuple[Ref, ...]]]] = {}

    # ----------------------------------------------------------- parameters
    def parameter(self, scope: Scope, name: str) -> Tuple[int, Tuple[Ref, ...]]:
        """What the body does to a parameter (U_KEEP, U_FINISH, U_RESULT or
        U_HARMLESS), and the calls of other modules it is handed to."""
        key = (id(scope), name)
        if key in self._params:
            found = self._params[key]
            return (U_HARMLESS, ()) if found is None else found  # a cycle of this file's calls
        self._params[key] = None
        result = self._parameter(scope, name)
        self._params[key] = result
        return result

    def _parameter(self, scope: Scope, name: str) -> Tuple[int, Tuple[Ref, ...]]:
        judge = self.summaries.judge
        if name in scope.declared or name in judge.captured(scope):
            return U_KEEP, ()
        if len(scope.bindings.get(name, ())) != 1:
            return U_KEEP, ()
        result = U_HARMLESS
        refs: List[Ref] = []
        for use in scope.uses.get(name, ()):
            kind = use.kind
            if kind == U_CALL:
                assert isinstance(use.target, CallArg)
                local = self._local_parameter(use.target)
                if local is None:
                    ref = self.ref_of(use.target.call, use.target.index, use.target.keyword)
                    if ref is None:
                        return U_KEEP, ()
                    refs.append(ref)
                    continue
                kind, more = local
                refs.extend(more)
            elif kind == U_ADD:
                assert isinstance(use.target, CollectionAdd)
                kind = self.facts.added(use.target)
            if kind == U_KEEP or kind == U_FLOW:
                return U_KEEP, ()
            if kind == U_FINISH:
                result = U_FINISH
            elif kind == U_RESULT and result != U_FINISH:
                result = U_RESULT
        return result, tuple(refs)

    def _local_parameter(self, where: CallArg) -> Optional[Tuple[int, Tuple[Ref, ...]]]:
        """A call of a function of this file: what it does to the argument
        (None for a call of another module's function)."""
        summaries = self.summaries
        call = where.call
        if call.remote is not None or (call.owner is not None and call.name not in call.owner.defs):
            return None
        found = summaries.callee(call)
        if found is None:
            return (U_KEEP, ())
        scope, positional = found
        node: FunctionNode = scope.node  # type: ignore[assignment]
        if where.keyword is None:
            if where.index >= len(positional):
                return (U_KEEP, ())
            name = positional[where.index]
        else:
            if where.keyword not in {arg.arg for arg in node.args.args + node.args.kwonlyargs}:
                return (U_KEEP, ())
            name = where.keyword
        return self.parameter(scope, name)

    def ref_of(self, call: CallSite, index: int, keyword: Optional[str]) -> Optional[Ref]:
        """How a summary names a call of another module's function (None: it
        cannot be named, and nothing is known of it)."""
        remote = call.remote
        word = keyword or ""
        if remote is not None and remote.dotted is not None:
            return ("f", remote.dotted, remote.module or "", "", index, word, call.bound)
        if remote is not None:
            receiver = remote.receiver
            if isinstance(receiver, ast.Name):
                scope = call.scope
                if len(scope.bindings.get(receiver.id, ())) != 1 or receiver.id in scope.declared:
                    return None
                dotted = local_type(scope, receiver.id)
                return ("m", dotted, remote.method, "", index, word, True) if dotted else None
            cls_scope = call.scope.cls
            if not isinstance(receiver, ast.Attribute) or cls_scope is None or cls_scope.klass is None:
                return None
            types = cls_scope.klass.types
            if receiver.attr in types:
                dotted = types[receiver.attr]
                return ("m", dotted, remote.method, "", index, word, True) if dotted else None
            own = self._own_dotted(cls_scope)
            return ("a", own, receiver.attr, remote.method, index, word, True) if own else None
        own = self._own_dotted(call.owner)  # ``self.name(...)`` that a base defines
        return ("m", own, call.name, "", index, word, True) if own else None

    def _own_dotted(self, scope: Optional[Scope]) -> Optional[str]:
        if scope is None or not isinstance(scope.node, ast.ClassDef):
            return None
        if self.facts.classes.get(scope.node.name) is not scope:
            return None
        return f"{self.facts.name or N.NO_MODULE}.{scope.node.name}"

    # -------------------------------------------------------------- returns
    def wraps(self, scope: Scope) -> bool:
        """Is the function a decorator whose every return is a function it
        defines that returns a new task nobody keeps (``Summaries._wrapped``)?"""
        inner = self.summaries.wrapper_scopes(scope)
        return bool(inner) and all(self.summaries.returned_groups(found) is not None for found in inner)

    def guard(self, scope: Scope) -> Tuple[str, bool, int]:
        """For a function that keeps the task it returns only when a parameter
        says so (``Summaries._returned_groups``): the parameter, the truth value
        with which it keeps, and the truth of its constant default (-1: none);
        ("", False, -1) for any other."""
        summaries = self.summaries
        if summaries.spawner_scope(scope):
            guard = summaries.guard_of(scope)
            if guard is not None:
                return guard[0], guard[1], default_truth(scope.node, guard[0])
        return "", False, -1

    def returned(self, scope: Scope) -> Tuple[int, bool, Tuple[Ref, ...], bool]:
        """Whether every ``return`` returns a new task nobody else keeps (or a
        new collection of them): the kind (``RETURNS_*``), whether they are
        futures, and the calls of other modules whose results are returned
        (each must return a new task as well); last, whether it returns
        ``None`` on the other paths (``returns_task_or_none``)."""
        found = self._returned(scope)
        if found is None and self.guard(scope)[0]:
            found = self._returned(scope, guarded=True)
        or_none = False
        if found is None and returns_task_or_none(scope):
            found = self._returned_uncached(scope, or_none=True)
            or_none = True
        if found is None:
            return RETURNS_NOTHING_KNOWN, False, (), False
        kind, refs = found
        spawns = returned_spawns(scope, self.summaries.judge)
        labels = [self.summaries.judge.label(spawn, scope) or "" for spawn in spawns if spawn.helper is None]
        future = bool(labels) and len(labels) == len(spawns) and all(
            label in FUTURE_LABELS for label in labels)
        return kind, future, refs, or_none

    def _returned(self, scope: Scope, guarded: bool = False) -> Optional[Tuple[int, Tuple[Ref, ...]]]:
        if guarded:
            return self._returned_uncached(scope, guarded)
        key = id(scope)
        if key in self._returns:
            return self._returns[key]  # None while deciding: a cycle returns no new task
        self._returns[key] = None
        result = self._returned_uncached(scope)
        self._returns[key] = result
        return result

    def _returned_uncached(
        self, scope: Scope, guarded: bool = False, or_none: bool = False,
    ) -> Optional[Tuple[int, Tuple[Ref, ...]]]:
        judge = self.summaries.judge
        returns = scope.returns
        if scope.generator or not (returns_task_or_none(scope) if or_none else returns_only_tasks(scope)):
            return None
        at = {item.pos for item in returns if isinstance(item, Use)}
        at.update(pos for item in returns if isinstance(item, Group) for _, pos in item.events)
        refs: List[Ref] = []
        collection = False
        for item in returns:
            if item is None:
                continue  # ``return None`` (``or_none``)
            if isinstance(item, Spawn):
                spawns = [item]
            else:
                if isinstance(item, Group):
                    groups = [item]
                else:
                    assert isinstance(item, Use)
                    bindings = judge.applicable(scope, item.name, item)
                    groups = [binding.group for binding in bindings if binding.group is not None]
                    if not groups or len(groups) != len(bindings):
                        return None
                spawns = []
                filled = filled_groups(scope, groups, judge)
                if filled is not None:
                    if any(pos not in at for pos in held_at(judge, groups[0], scope)):
                        return None
                    groups, collection = filled, True
                for group in groups:
                    # the group's own opacity, not what a rule made of a helper's
                    # result: those results are named below
                    if group.opaque or not group.spawns:
                        return None
                    elsewhere = [pos for pos in held_at(judge, group, scope) if pos not in at]
                    if elsewhere and not (guarded and guard_of_keeping(scope, group, elsewhere) is not None):
                        return None  # kept elsewhere too (or handed to another module)
                    collection = collection or group.collection
                    spawns.extend(group.spawns)
            for spawn in spawns:
                found = self._spawn(spawn, scope)
                if found is None:
                    return None
                refs.extend(found[0])
                collection = collection or found[1]
        return (RETURNS_TASKS if collection else RETURNS_TASK), tuple(refs)

    def _spawn(self, spawn: Spawn, scope: Scope) -> Optional[Tuple[Tuple[Ref, ...], bool]]:
        """A returned spawn: a new task (no condition), the result of a function
        of this file that returns one (its conditions), or of another module's
        (named); None when it returns nothing known.  With it, whether it is a
        collection of new tasks that a function of this file returns (``return
        spawn_all(coros)``; another module's says so itself, ``Resolver.returns_list``)."""
        call = spawn.helper
        if call is None:  # (``ensure_future(param)``: a new task to a call that gives a coroutine)
            judged = self.summaries.new_task(spawn, scope)
            return ((), False) if judged else None
        if call.remote is None and call.owner is not None and call.name in call.owner.defs:
            found = self.summaries.callee(call)
            if found is None:
                return None
            returned = self._returned(found[0])
            return None if returned is None else (returned[1], returned[0] == RETURNS_TASKS)
        ref = self.ref_of(call, -1, None)
        return None if ref is None else ((ref,), False)
