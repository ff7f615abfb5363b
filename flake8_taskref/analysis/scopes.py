"""The scope analysis: one pass over a module that records, per scope, the bindings and uses of
names and where task handles flow.  It decides nothing; ``rules.py`` does, once the whole module
has been seen.

Every expression is visited once, together with its *sink*: what happens to its value (dropped,
kept, awaited, put into a group of handles, ...).  Statements and expressions are dispatched by
node type through dictionaries.

``Recorder`` here is the generic part: bindings, uses, control flow (loops, branches, ``try``),
scopes and the order in which functions are entered.  It knows no asyncio API: a call is an
opaque value and ``await`` finishes what it awaits.  What each asyncio API does to a handle
(spawns, loops, ``gather``, ``shield``, ``wait``, ``wait_for``, timeouts, callback APIs, task
collections) is in ``asyncio_api.py``, whose ``ScopeVisitor`` overrides the hooks below.
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

from flake8_taskref.analysis import names as N
from flake8_taskref.analysis.copies import all_pending
from flake8_taskref.analysis.facts import (
    BRANCH,
    DROP,
    FINISH,
    HARMLESS,
    KEEP,
    LOOP,
    SHIELDED,
    TRUTH,
    SUPPRESS,
    TRY,
    TRY_BODY,
    TRY_ELSE,
    TRY_FINALLY,
    TRY_HANDLERS,
    U_FINISH,
    U_FLOW,
    U_GUARD,
    U_HARMLESS,
    U_KEEP,
    Binding,
    CallArg,
    CollectionAdd,
    CallbackSink,
    ModuleFacts,
    Sink,
    Frame,
    Frames,
    Group,
    Pos,
    Scope,
    Use,
)
from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.shortcut import HotLines


_SINK_KIND: Dict[int, int] = {
    DROP: U_HARMLESS,
    KEEP: U_KEEP,
    FINISH: U_FINISH,
    TRUTH: U_GUARD,
    HARMLESS: U_HARMLESS,
    SHIELDED: U_FINISH,
}
_LITERALS = (ast.List, ast.Tuple, ast.Set)
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


# What ``_use`` returns for a load outside functions, which the rules never follow.
_UNTRACKED = Use("", (0, 0), U_KEEP, None, ())


def end_of(node: ast.AST) -> Pos:
    end_line = getattr(node, "end_lineno", None)
    end_col = getattr(node, "end_col_offset", None)
    if end_line is None or end_col is None:
        return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    return (end_line, end_col)


def pos_of(node: ast.AST) -> Pos:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


class Recorder:
    """Records facts; see the module docstring."""

    def __init__(
        self, options: Options, hot: Optional[HotLines] = None, filename: Optional[str] = None
    ) -> None:
        self.options = options
        self.hot = hot
        # The module and package: relative imports and the module's own named helpers resolve.
        self.module_name = N.module_name(filename)
        self.package = N.package_name(filename, self.module_name)
        self._deferred: List[Tuple[Union[ast.FunctionDef, ast.AsyncFunctionDef], Scope]] = []
        self.scope: Scope = Scope(Scope.MODULE, ast.Module(body=[], type_ignores=[]), None)
        package = filename is not None and N.is_package_file(filename)
        self.facts = ModuleFacts(self.scope, self.module_name, package, filename)
        # names bound at module level not by an import or alias (a summary: ambiguous if both)
        self._aliasing = False
        if self.module_name is not None:
            self.scope.imports.add_own(self.module_name, options.spawners | options.timeouts)
        self.frames: Frames = ()
        self._broken: Set[int] = set()  # the loops a ``break`` leaves (``_for``)
        self.block, self.stmts, self.at = 0, (), 0  # type: Tuple[int, Sequence[ast.stmt], int]
        self._functions = 0  # how many function scopes the visit is inside
        self._at_exit = False  # in a method __exit__/__aexit__ (with TRF006 on)
        self.block_end: Pos = (0, 0)
        self.stmt: Optional[ast.stmt] = None
        self.prev: Optional[ast.stmt] = None  # the statement before ``stmt`` in its block
        self._stmt: Dict[type, Callable[[ast.stmt], None]] = {
            ast.Expr: self._expr_stmt,  # type: ignore[dict-item]
            ast.Assign: self._assign,  # type: ignore[dict-item]
            ast.AnnAssign: self._ann_assign,  # type: ignore[dict-item]
            ast.AugAssign: self._aug_assign,  # type: ignore[dict-item]
            ast.Return: self._return,  # type: ignore[dict-item]
            ast.If: self._if,  # type: ignore[dict-item]
            ast.For: self._for,
            ast.AsyncFor: self._for,
            ast.While: self._while,  # type: ignore[dict-item]
            ast.With: self._with,
            ast.AsyncWith: self._with,
            ast.FunctionDef: self._function,
            ast.AsyncFunctionDef: self._function,
            ast.ClassDef: self._class,  # type: ignore[dict-item]
            ast.Import: self._import,  # type: ignore[dict-item]
            ast.ImportFrom: self._import_from,  # type: ignore[dict-item]
            ast.Global: self._global,
            ast.Nonlocal: self._global,
            ast.Delete: self._delete,  # type: ignore[dict-item]
            ast.Break: self._break,
            ast.Pass: self._nothing,
            ast.Continue: self._nothing,
        }
        self._stmt.update(dict.fromkeys(N.TRIES, self._try))
        match_type = getattr(ast, "Match", None)
        if match_type is not None:
            self._stmt[match_type] = self._match
        self._expr: Dict[type, Callable[[ast.expr, Sink], None]] = {
            ast.Name: self._name,  # type: ignore[dict-item]
            ast.Call: self._call,  # type: ignore[dict-item]
            ast.Await: self._await,  # type: ignore[dict-item]
            ast.Constant: self._constant,
            ast.Attribute: self._attribute,  # type: ignore[dict-item]
            ast.List: self._literal,
            ast.Tuple: self._literal,
            ast.Set: self._literal,
            ast.Dict: self._dict,  # type: ignore[dict-item]
            ast.IfExp: self._ifexp,  # type: ignore[dict-item]
            ast.BoolOp: self._boolop,  # type: ignore[dict-item]
            ast.Compare: self._compare,  # type: ignore[dict-item]
            ast.UnaryOp: self._unaryop,  # type: ignore[dict-item]
            ast.NamedExpr: self._namedexpr,  # type: ignore[dict-item]
            ast.Lambda: self._lambda_expr,  # type: ignore[dict-item]
            ast.Starred: self._starred,  # type: ignore[dict-item]
            ast.JoinedStr: self._joinedstr,  # type: ignore[dict-item]
            ast.BinOp: self._binop,  # type: ignore[dict-item]
        }
        for comprehension in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
            self._expr[comprehension] = self._comprehension
        template_type = getattr(ast, "TemplateStr", None)
        if template_type is not None:  # Python 3.14+
            self._expr[template_type] = self._template

    # ------------------------------------------------------------------ driver
    def run(self, tree: ast.AST) -> ModuleFacts:
        self.scope.node = tree
        body = getattr(tree, "body", None)
        if isinstance(body, list):
            self._block(body)
        if self._deferred:
            self._visit_deferred()
        if not self.later_pending():
            self.finish()
        return self.facts

    def later_pending(self) -> bool:
        """Are functions put off that ``enter_later`` may enter (then the caller calls ``finish``)?"""
        return False

    def finish(self) -> None:
        """The dispatch tables hold bound methods, a cycle through the visitor:
        drop them, so that nothing here waits for the cyclic collector."""
        self._stmt.clear()
        self._expr.clear()

    def _block(self, stmts: Sequence[ast.stmt]) -> None:
        if not stmts:
            return
        saved = (self.block, self.stmts, self.at, self.block_end, self.stmt, self.prev)
        self.block, self.stmts, self.block_end, self.prev = id(stmts), stmts, end_of(stmts[-1]), None
        table = self._stmt
        for self.at, stmt in enumerate(stmts):
            self.stmt = stmt
            handler = table.get(type(stmt))
            if handler is None:
                self._generic(stmt)
            else:
                handler(stmt)
            self.prev = stmt
        self.block, self.stmts, self.at, self.block_end, self.stmt, self.prev = saved

    def _push(self, frame: Frame) -> Frames:
        saved = self.frames
        self.frames = saved + (frame,)
        return saved

    def _generic(self, node: ast.AST) -> None:
        """Visit the children of a node we have no special rule for: kept values."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.value(child, KEEP)
            elif isinstance(child, ast.stmt):
                self._block([child])
            elif isinstance(child, ast.keyword):
                self.value(child.value, KEEP)
            elif isinstance(child, ast.comprehension):
                self._generators([child])
            elif isinstance(child, (ast.excepthandler, ast.arguments, ast.withitem)) or (
                type(child).__name__ == "match_case"
            ):
                self._generic(child)

    # ----------------------------------------------------------------- helpers
    def _use(
        self, name: str, node: ast.expr, kind: int, target: Union[Group, str, CallArg, CollectionAdd, None]
    ) -> Use:
        scope = self.scope
        scope.loads.add(name)
        if scope.kind != Scope.FUNCTION:
            # Only function scopes' handles are followed; elsewhere a load is a name to capture.
            return _UNTRACKED
        use = Use(name, (node.lineno, node.col_offset), kind, target, self.frames)
        uses = scope.uses.get(name)
        if uses is None:
            scope.uses[name] = [use]
        else:
            uses.append(use)
        return use

    def _bind(
        self,
        name: str,
        group: Optional[Group],
        pos: Pos,
        kills: bool,
    ) -> None:
        scope = self.scope
        if group is None and scope.kind != Scope.FUNCTION:
            # Outside functions only the bound names matter (twice bound: a function not known).
            last = self.frames[-1] if self.frames else None  # (an import's stub: ``N.import_fallback``)
            if scope.kind == Scope.MODULE and not self._aliasing and not (last and last[0] == TRY and (
                    last[2] == TRY_HANDLERS and N.import_fallback(last[1], self.stmt))):
                self.facts.other_bound.add(name)
            if name not in scope.bindings:
                scope.bindings[name] = []
            else:
                scope.rebound.add(name)
            return
        binding = Binding(
            name, group, pos, self.block, self.block_end, kills, self.frames, self.stmt
        )
        found = scope.bindings.get(name)
        if found is None:
            scope.bindings[name] = [binding]
        else:
            found.append(binding)
        if group is not None:
            group.bindings.append(binding)

    def _new_group(self, name: str) -> Group:
        group = Group(name)
        self.scope.groups.append(group)
        return group

    def _apply_sink(self, group: Group, sink: Sink, node: ast.AST) -> None:
        """An anonymous group (a gather future) goes to ``sink``."""
        if isinstance(sink, Group):
            group.flows.append((sink, Use("", pos_of(node), U_FLOW, sink, self.frames)))
        elif isinstance(sink, str):
            group.flows.append((sink, Use(sink, pos_of(node), U_FLOW, sink, self.frames)))
        elif sink == KEEP or sink == FINISH or sink == SHIELDED:
            group.events.append((U_FINISH if sink == FINISH else U_KEEP, pos_of(node)))

    def _in_function(self) -> bool:
        return self.scope.kind == Scope.FUNCTION

    def _store_target(self, target: ast.expr, group: Optional[Group], pos: Pos, kills: bool) -> None:
        """Bind the names of an assignment target; other targets are visited."""
        if isinstance(target, ast.Name):
            self._bind(target.id, group, pos, kills)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self._store_target(elt, group, pos, kills)
        elif isinstance(target, ast.Starred):
            self._store_target(target.value, group, pos, kills)
        elif isinstance(target, ast.Attribute):
            self._note_attr_store(target)
            self.value(target.value, HARMLESS)
        elif isinstance(target, ast.Subscript):
            self.value(target.value, HARMLESS)
            self.value(target.slice, KEEP)
        else:
            self.value(target, KEEP)

    # ------------------------------------------------------------ statements
    def _nothing(self, node: ast.stmt) -> None:
        return None

    def _break(self, node: ast.stmt) -> None:
        self._broken.add(next((id(f[1]) for f in reversed(self.frames) if f[0] == LOOP), 0))

    def _expr_stmt(self, node: ast.Expr) -> None:
        self.value(node.value, DROP)

    def _return(self, node: ast.Return) -> None:
        if node.value is not None:
            returns = getattr(self.scope.node, "returns", None)
            value = not N.holds_no_task(node.value, returns)
            self.scope.returns_value |= value
            self.scope.opaque_returns |= value and not N.flat_call(node.value, self.scope)
            self._return_value(node.value)

    def _assign(self, node: ast.Assign) -> None:
        value = node.value
        targets = node.targets
        self._note_loop_factory(targets, value)
        pos = end_of(node)
        if not self._in_function():
            self.value(value, KEEP)
            self._aliasing = self._note_module_binding(targets, value)
            for target in targets:
                self._store_target(target, None, pos, False)
                self._note_self_store(target, value)
            self._aliasing = False
            self._note_logger(targets, value)
            return
        if all(isinstance(t, ast.Name) for t in targets):
            group = self._new_group(targets[0].id)  # type: ignore[attr-defined]
            self.value(value, group)
            for target in targets:
                self._bind(target.id, group, pos, True)  # type: ignore[attr-defined]
            return
        if len(targets) == 1:
            target = targets[0]
            if isinstance(target, (ast.Tuple, ast.List)):
                self._note_unpacked(target)
                if self._unpack(target, value, pos):
                    return
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                # tasks[key] = value: the value goes into the collection
                self.value(value, target.value.id)
                self._use(target.value.id, target.value, U_HARMLESS, None)
                self.value(target.slice, KEEP)
                return
            if self._note_self_store(target, value):
                self._store_target(target, None, pos, True)
                return
        self.value(value, KEEP)
        for target in targets:
            self._store_target(target, None, pos, True)

    def _unpack(self, target: ast.expr, value: ast.expr, pos: Pos) -> bool:
        """``a, b = spawn(), spawn()``: each name gets its value (True: handled here)."""
        elts = target.elts  # type: ignore[attr-defined]
        if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(elts) and not any(
            isinstance(e, ast.Starred) for e in elts + value.elts
        ):
            for elt_target, elt_value in zip(elts, value.elts):
                if isinstance(elt_target, ast.Name):
                    group = self._new_group(elt_target.id)
                    self.value(elt_value, group)
                    self._bind(elt_target.id, group, pos, True)
                else:
                    self.value(elt_value, KEEP)
                    self._store_target(elt_target, None, pos, True)
            return True
        return self._unpack_call(elts, value, pos)

    def _ann_assign(self, node: ast.AnnAssign) -> None:
        self._note_annotation(node.target, node.annotation)
        if node.value is None:
            return
        target = node.target
        self._note_loop_factory([target], node.value)
        if self._in_function() and isinstance(target, ast.Name):
            group = self._new_group(target.id)
            self.value(node.value, group)
            self._bind(target.id, group, end_of(node), True)
            return
        if not self._note_self_store(target, node.value):
            self.value(node.value, KEEP)
        self._store_target(target, None, end_of(node), True)

    def _aug_assign(self, node: ast.AugAssign) -> None:
        target = node.target
        if isinstance(target, ast.Name):
            self._use(target.id, target, U_HARMLESS, None)
            self._note_aug_store(target, node.op)
            if isinstance(node.op, (ast.Add, ast.BitOr)):
                self.value(node.value, target.id)
            else:
                self.value(node.value, KEEP)
            return
        self._note_aug_store(target, node.op)
        self.value(node.value, KEEP)
        self._store_target(target, None, end_of(node), False)

    def _delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                self._use(target.id, target, U_HARMLESS, None)
            elif isinstance(target, ast.Subscript):
                self._prune(target.value)
                self.value(target.value, HARMLESS)
                self.value(target.slice, KEEP)
            else:
                self.value(target, HARMLESS)

    def _if(self, node: ast.If) -> None:
        self.value(node.test, TRUTH)
        saved = self._push((BRANCH, node, 0))
        self._block(node.body)
        self.frames = saved + ((BRANCH, node, 1),)
        self._block(node.orelse)
        self.frames = saved

    def _match(self, node: ast.stmt) -> None:
        self.value(node.subject, KEEP)  # type: ignore[attr-defined]
        saved = self.frames
        pos = pos_of(node)
        for index, case in enumerate(node.cases):  # type: ignore[attr-defined]
            self.frames = saved + ((BRANCH, node, index),)
            for sub in ast.walk(case.pattern):
                for attr in ("name", "rest"):
                    bound = getattr(sub, attr, None)
                    if isinstance(bound, str):
                        self._bind(bound, None, pos, False)
            if case.guard is not None:
                self.value(case.guard, TRUTH)
            self._block(case.body)
        self.frames = saved

    def _iteration(self, target: ast.expr, iterable: ast.expr, pos: Pos, kills: bool) -> Optional[Use]:
        """``for t in tasks``: the loop variable sees the collection's elements (the flow's use)."""
        source = iterable
        if isinstance(source, ast.Call) and not source.keywords:
            func = source.func
            if isinstance(func, ast.Name) and func.id in N.COPYING_CALLS and len(source.args) == 1:
                source = source.args[0]
            elif (
                isinstance(func, ast.Attribute)
                and func.attr in N.COPYING_METHODS
                and not source.args
                and isinstance(func.value, ast.Name)
            ):
                source = func.value
        if self._in_function() and isinstance(target, (ast.Name, ast.Tuple, ast.List)) and (
            isinstance(source, ast.Name) or isinstance(source, _LITERALS)
        ):
            group = self._new_group(target.id if isinstance(target, ast.Name) else "")
            # The collection flows into the loop variable: handling each element handles it.
            flow = self._use(source.id, source, U_FLOW, group) if isinstance(source, ast.Name) else None
            if flow is None:
                self._literal_iter(source, group)
            self._store_target(target, group, pos, kills)
            return flow
        self.value(iterable, KEEP)
        self._store_target(target, None, pos, kills)
        return None

    def _literal_iter(self, source: ast.expr, group: Group) -> None:
        for elt in source.elts:  # type: ignore[attr-defined]
            self.value(elt.value if isinstance(elt, ast.Starred) else elt, group)

    def _for(self, node: ast.stmt) -> None:
        target: ast.expr = node.target  # type: ignore[attr-defined]
        if isinstance(node, ast.AsyncFor):
            self._suspends(end_of(node.iter))
        saved = self._push((LOOP, node, 0))
        flow = self._iteration(target, node.iter, pos_of(target), False)  # type: ignore[attr-defined]
        self._block(node.body)  # type: ignore[attr-defined]
        if flow is not None and flow is not _UNTRACKED and id(node) in self._broken:
            flow.kind = U_HARMLESS  # a ``break`` may leave elements unvisited: handling some is no handling
        self.frames = saved
        self._block(node.orelse)  # type: ignore[attr-defined]

    def _while(self, node: ast.While) -> None:
        test = node.test
        saved = self._push((LOOP, node, 0))
        self._poll(test)
        self.value(test, TRUTH)
        self._block(node.body)
        self.frames = saved
        self._block(node.orelse)

    def _with(self, node: ast.stmt) -> None:
        saved = self.frames
        for index, item in enumerate(node.items):  # type: ignore[attr-defined]
            self.value(item.context_expr, self._context_sink(item, node))
            if item.optional_vars is not None:
                self._store_target(item.optional_vars, None, pos_of(node), False)
            if self._suppresses(item.context_expr):
                # What the block raises of these exceptions ends at the block's end.
                self.frames = self.frames + ((SUPPRESS, node, index),)
        self._block(node.body)  # type: ignore[attr-defined]
        self.frames = saved

    def _try(self, node: ast.stmt) -> None:
        self._note_try(node)
        saved = self._push((TRY, node, TRY_BODY))
        self._block(node.body)  # type: ignore[attr-defined]
        self.frames = saved + ((TRY, node, TRY_HANDLERS),)
        for handler in node.handlers:  # type: ignore[attr-defined]
            if handler.type is not None:
                self.value(handler.type, KEEP)
            if handler.name:
                self._bind(handler.name, None, pos_of(handler), False)
            self._block(handler.body)
        self.frames = saved + ((TRY, node, TRY_ELSE),)
        self._block(node.orelse)  # type: ignore[attr-defined]
        self.frames = saved + ((TRY, node, TRY_FINALLY),)
        self._block(node.finalbody)  # type: ignore[attr-defined]
        self.frames = saved

    def _import(self, node: ast.Import) -> None:
        self._aliases(self.scope.imports.add_import(node))
        self._note_import(node)

    def _import_from(self, node: ast.ImportFrom) -> None:
        self._aliases(self.scope.imports.add_import_from(node, self.package))
        self._note_import(node)

    def _aliases(self, renamed: List[Tuple[str, str]]) -> None:
        """Outside functions, a name imported ``as`` another is a hot word from
        here on if the name it imports is one (it can be resolved from here on)."""
        if renamed and self.hot is not None and not self._functions:
            self.hot.add_aliases(renamed)

    def _global(self, node: ast.stmt) -> None:
        self.scope.declared.update(node.names)  # type: ignore[attr-defined]

    def _function(self, node: ast.stmt) -> None:
        assert isinstance(node, FUNCTIONS)
        scope = self.scope
        self._note_function(node)
        if isinstance(node, ast.AsyncFunctionDef):
            scope.async_defs.add(node.name)
        if self._functions:
            self._header(node)
            self._bind(node.name, None, pos_of(node), False)
            self._enter(node, node.args, node.body)
            return
        # Decorators and defaults run where the function is defined; outside functions they matter
        # only if they can spawn (with the text shortcut, if their lines hold a word that can: the
        # aliases imported so far are words by now).  The body is visited later (``_visit_deferred``).
        hot = self.hot
        if hot is None:
            self._header(node)
        elif node.decorator_list or node.args.defaults or any(node.args.kw_defaults):
            # in source order: decorators, defaults, keyword-only defaults
            parts = [*node.decorator_list, *node.args.defaults, *filter(None, node.args.kw_defaults)]
            last = parts[-1]
            if hot.any_between(parts[0].lineno, getattr(last, "end_lineno", None) or last.lineno):
                self._header(node)
        self._bind(node.name, None, (node.lineno, node.col_offset), False)
        scope.defs.setdefault(node.name, node)
        self._deferred.append((node, scope))

    def _header(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> None:
        """A function's decorators and default values, run where it is defined."""
        for decorator in node.decorator_list:
            self.value(decorator, KEEP)
        self._defaults(node.args)

    def _defaults(self, args: ast.arguments) -> None:
        for default in args.defaults:
            self.value(default, KEEP)
        for kw_default in args.kw_defaults:
            if kw_default is not None:
                self.value(kw_default, KEEP)

    def _visit_deferred(self) -> None:
        """Enter the module- and class-level functions (``functions.py`` enters
        only those that can matter, with the text shortcut)."""
        pending, self._deferred = self._deferred, []
        for node, scope in pending:
            self._enter_deferred(node, scope)

    def _enter_deferred(
        self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef], scope: Scope
    ) -> None:
        self.scope = scope
        self._enter(node, node.args, node.body)
        self.scope = self.facts.module

    def _enter(
        self,
        node: ast.AST,
        args: ast.arguments,
        body: Union[List[ast.stmt], ast.expr],
        sink: Sink = KEEP,
    ) -> None:
        parent = self.scope
        scope = Scope(Scope.FUNCTION, node, parent)
        parent.children.append(scope)
        if isinstance(node, ast.AsyncFunctionDef):
            parent.entered_async.setdefault(node.name, []).append(scope)
        self.facts.scopes.append(scope)
        saved = (self.scope, self.frames, self.block, self.block_end, self.stmt)
        self.scope = scope
        self.frames = ()
        self._functions += 1
        at_exit = self._at_exit
        self._at_exit = self.options.collections and (
            isinstance(node, FUNCTIONS) and node.name in N.EXIT_METHODS
        )
        start = (0, 0)
        for arg in args.posonlyargs + args.args + args.kwonlyargs:
            self._bind(arg.arg, None, start, False)
            if arg.annotation is not None:
                self._note_parameter(arg.arg, arg.annotation)
        if args.vararg is not None:
            self._bind(args.vararg.arg, None, start, False)
        if args.kwarg is not None:
            self._bind(args.kwarg.arg, None, start, False)
        if isinstance(body, list):
            self._block(body)
        else:
            self.value(body, sink)
        self._functions -= 1
        self._at_exit = at_exit
        self.scope, self.frames, self.block, self.block_end, self.stmt = saved

    def _class(self, node: ast.ClassDef) -> None:
        for expr in node.bases:
            self.value(expr, KEEP)
        for keyword in node.keywords:
            self.value(keyword.value, KEEP)
        for decorator in node.decorator_list:
            self.value(decorator, KEEP)
        self._bind(node.name, None, pos_of(node), False)
        parent = self.scope
        scope = Scope(Scope.CLASS, node, parent)
        self._note_class(node, scope)
        parent.children.append(scope)
        self.facts.scopes.append(scope)
        saved = (self.scope, self.frames)
        self.scope = scope
        self.frames = ()
        self._block(node.body)
        self.scope, self.frames = saved

    # ------------------------------------------------------------ expressions
    def value(self, node: ast.expr, sink: Sink) -> None:
        handler = self._expr.get(type(node))
        if handler is not None:
            handler(node, sink)
            return
        if isinstance(sink, Group):
            sink.opaque = True
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            self.scope.generator = True
            self.scope.wait_points += 1  # (a lock held across a ``yield``: ``exits._locking``)
            if node.value is not None:
                self.value(node.value, KEEP)
            return
        if isinstance(node, ast.Subscript):
            # an item only looked at (``tasks[0].done()``, ``print(tasks[-1])``): the collection too
            self.value(node.value, sink if sink == HARMLESS or sink == TRUTH or sink == DROP else KEEP)
            self.value(node.slice, KEEP)
            return
        self._generic(node)

    def _constant(self, node: ast.expr, sink: Sink) -> None:
        if isinstance(sink, Group) and node.value is not None:  # type: ignore[attr-defined]
            sink.opaque = True  # ``x = 0``: not a task nor a collection of tasks

    def _name(self, node: ast.Name, sink: Sink) -> None:
        if isinstance(node.ctx, ast.Load):
            if isinstance(sink, int):  # the most common sinks, without a second call
                self._use(node.id, node, _SINK_KIND[sink], None)
            else:
                self._name_use(node.id, node, sink)

    def _name_use(self, name: str, node: ast.expr, sink: Sink) -> None:
        if isinstance(sink, int):
            self._use(name, node, _SINK_KIND[sink], None)
        elif isinstance(sink, CallbackSink):
            self._use(name, node, U_KEEP, None)
        else:
            self._use(name, node, U_FLOW, sink)

    def _starred(self, node: ast.Starred, sink: Sink) -> None:
        self.value(node.value, sink)

    def _joinedstr(self, node: ast.JoinedStr, sink: Sink) -> None:
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                self.value(part.value, HARMLESS)
                if part.format_spec is not None:
                    self.value(part.format_spec, HARMLESS)

    def _template(self, node: ast.expr, sink: Sink) -> None:
        """``t"{task}"`` (3.14): its ``Template`` holds the values, as a tuple does."""
        inner = HARMLESS if sink == TRUTH else sink
        for part in node.values:  # type: ignore[attr-defined]
            if isinstance(part, ast.Constant):
                continue
            self.value(part.value, inner)
            if part.format_spec is not None:
                self.value(part.format_spec, HARMLESS)

    def _binop(self, node: ast.BinOp, sink: Sink) -> None:
        if isinstance(sink, Group):
            sink.opaque = True
        left = node.left
        if isinstance(node.op, ast.Mod) and (
            isinstance(left, ast.JoinedStr)
            or (isinstance(left, ast.Constant) and isinstance(left.value, str))
        ):
            # "%s" % task: formatting keeps nothing
            self.value(left, HARMLESS)
            self.value(node.right, HARMLESS)
            return
        self.value(left, KEEP)
        self.value(node.right, KEEP)

    def _attribute(self, node: ast.Attribute, sink: Sink) -> None:
        if isinstance(sink, Group):
            sink.opaque = True
        self.value(node.value, KEEP)

    def _literal(self, node: ast.expr, sink: Sink) -> None:
        inner = HARMLESS if sink == TRUTH else sink
        if isinstance(sink, Group):
            sink.collection = True
        for elt in node.elts:  # type: ignore[attr-defined]
            self.value(elt, inner)

    def _dict(self, node: ast.Dict, sink: Sink) -> None:
        inner = HARMLESS if sink == TRUTH else sink
        for key in node.keys:
            if key is not None:
                self.value(key, KEEP)
        for item in node.values:
            self.value(item, inner)

    def _generators(self, generators: List[ast.comprehension], start: Optional[Pos] = None) -> None:
        for comp in generators:  # (bound from the start: the element, before them, sees the targets)
            self.scope.may_wait = self.scope.may_wait or bool(comp.is_async)  # ``async for`` waits
            self.scope.wait_points += comp.is_async
            self._iteration(comp.target, comp.iter, start or pos_of(comp.target), False)
            for cond in comp.ifs:
                self.value(cond, TRUTH)

    def _comprehension(self, node: ast.expr, sink: Sink, unpacked: bool = False) -> None:
        # (made at once, unfiltered but as ``all_pending`` says: a list, set, generator unpacked in a call)
        generators: List[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        runs = (unpacked or not isinstance(node, ast.GeneratorExp)) and all_pending(generators)
        self._generators(generators, pos_of(node) if runs else None)
        inner = HARMLESS if sink == TRUTH else sink
        if isinstance(sink, Group):
            sink.collection = True
        if isinstance(node, ast.DictComp):
            if node.value is None:  # ``{**d for d in ds}`` (3.15): as ``{**d}``
                self.value(node.key, inner)
            else:
                self.value(node.key, KEEP)
                self.value(node.value, inner)
        else:
            self.value(node.elt, inner)  # type: ignore[attr-defined]

    def _ifexp(self, node: ast.IfExp, sink: Sink) -> None:
        self.value(node.test, TRUTH)
        self.value(node.body, sink)
        self.value(node.orelse, sink)

    def _boolop(self, node: ast.BoolOp, sink: Sink) -> None:
        for item in node.values:  # (``a and b`` is ``b`` whenever ``a`` is a task: a task is true)
            last = item is node.values[-1] or isinstance(node.op, ast.Or) or sink == TRUTH
            self.value(item, sink if last else DROP)

    def _compare(self, node: ast.Compare, sink: Sink) -> None:
        if isinstance(sink, Group):
            sink.opaque = True
        self.value(node.left, TRUTH)
        for item in node.comparators:
            self.value(item, TRUTH)

    def _unaryop(self, node: ast.UnaryOp, sink: Sink) -> None:
        if isinstance(sink, Group):
            sink.opaque = True
        self.value(node.operand, TRUTH if isinstance(node.op, ast.Not) else KEEP)

    def _namedexpr(self, node: ast.NamedExpr, sink: Sink) -> None:
        target = node.target
        if self._in_function():
            group = self._new_group(target.id)
            self.value(node.value, group)
            self._bind(target.id, group, end_of(node), False)
            self.scope.bindings[target.id][-1].value = node.value
            self._name_use(target.id, node, sink)
        else:
            self.value(node.value, KEEP)

    def _lambda_expr(self, node: ast.Lambda, sink: Sink) -> None:
        self._lambda(node, KEEP)

    def _lambda(self, node: ast.Lambda, body_sink: Sink) -> None:
        self._defaults(node.args)
        self._enter(node, node.args, node.body, body_sink)

    # ------------------------------------------------------------------ calls

    # ----------------------------------------------- calls, without asyncio
    def _call(self, node: ast.Call, sink: Sink) -> None:
        """A call as any call: an opaque value; what it is given is kept."""
        if isinstance(sink, Group):
            sink.opaque = True
        self.value(node.func, KEEP)
        for arg in node.args:
            self.value(arg, KEEP)
        for keyword in node.keywords:
            self.value(keyword.value, KEEP)

    def _await(self, node: ast.Await, sink: Sink) -> None:
        """``await x`` finishes ``x``; its result is an opaque value."""
        if isinstance(sink, Group):
            sink.opaque = True
        self.value(node.value, FINISH)

    # ----------- hooks for ``asyncio_api.py``: what the generic recording asks of it; here, nothing
    def _note_loop_factory(self, targets: Sequence[ast.expr], value: ast.expr) -> None:
        """``targets = value`` where ``value`` may be an event loop."""

    def _note_self_store(self, target: ast.expr, value: ast.expr) -> bool:
        """``target = value`` where ``target`` may be an attribute or an item (or,
        at module level, a name); True when the hook has visited ``value``."""
        return False

    def _note_attr_store(self, target: ast.Attribute) -> None:
        """An attribute is stored to (any statement that binds it)."""

    def _note_logger(self, targets: Sequence[ast.expr], value: ast.expr) -> None:
        """``targets = value`` outside functions (a logger?)."""

    def _note_unpacked(self, target: Union[ast.Tuple, ast.List]) -> None:
        """``self.tasks, n = ...``: attributes replaced by an unpacking."""

    def _unpack_call(self, elts: List[ast.expr], value: ast.expr, pos: Pos) -> bool:
        """``a, b = call(...)``: True when the call's result was handled."""
        return False

    # What the module shows other modules (``interface.py``): an import; ``targets
    # = value`` at module level (True: an alias of another module's name); a class
    # statement and its body's scope; a def statement, in the scope defining it.
    def _note_import(self, node: Union[ast.Import, ast.ImportFrom]) -> None: ...

    def _note_module_binding(self, targets: Sequence[ast.expr], value: ast.expr) -> bool:
        return False

    def _note_class(self, node: ast.ClassDef, scope: Scope) -> None: ...

    def _note_function(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> None: ...

    def _note_annotation(self, target: ast.expr, annotation: ast.expr) -> None:
        """``target: annotation`` (an event loop?)."""

    def _note_parameter(self, name: str, annotation: ast.expr) -> None:
        """A parameter ``name: annotation`` of the function being entered."""

    def _note_aug_store(self, target: ast.expr, op: ast.operator) -> None: ...  # ``target op= ...``

    def _prune(self, node: ast.expr) -> None:
        """Something is removed from the collection ``node``."""

    def _suspends(self, end: Pos, waits: bool = True) -> None:
        """The frame may be suspended at a point that ends at ``end``."""

    def _note_try(self, node: ast.stmt) -> None:
        """A ``try`` statement is entered."""

    def _poll(self, test: ast.expr) -> None:
        """``while test:``, the test of a loop."""

    def _suppresses(self, expr: ast.expr) -> bool:
        """Is ``expr`` ``contextlib.suppress(...)`` (in any spelling)?"""
        return isinstance(expr, ast.Call) and self.scope.imports.resolve(expr.func) == N.SUPPRESS

    def _return_value(self, value: ast.expr) -> None:
        """``return value``: the value leaves the frame."""
        self.value(value, KEEP)

    def _context_sink(self, item: ast.withitem, node: ast.stmt) -> Sink:
        """The sink of a ``with`` item's context expression."""
        return KEEP
