"""A module's summary (``modules.ModuleSummary``), made from the facts of its one
pass and from what the rules decide of its functions (``summaries.Exported``):
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
from flake8_taskref.analysis.facts import U_FINISH, U_HARMLESS, U_KEEP, U_RESULT, ModuleFacts, Scope
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
from flake8_taskref.analysis.summaries import Exported, stub

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
            tuple(sorted((attr, dotted) for attr, dotted in klass.types.items() if dotted)),
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
        info = info._replace(may_wait=scope.may_wait)
    if exported is None or scope is None or is_async or info.stub or decorated:
        return info
    fates: List[str] = []
    param_refs = []
    for position, param in enumerate(params + kwonly):
        fate, refs = exported.parameter(scope, param)
        fates.append(_FATE_NAMES.get(fate, KEEPS))
        if refs:
            param_refs.append((position, refs))
    returns, future, via = exported.returned(scope)
    guard = exported.guard(scope) if returns else ("", False, -1)
    drops = tuple(at for at, param in enumerate(params + kwonly) if calls_and_drops(scope, param))
    return info._replace(returns=returns, future=future, fates=tuple(fates), param_refs=tuple(param_refs),
                         returns_via=via, guard=guard, drops=drops, wraps=exported.wraps(scope))
