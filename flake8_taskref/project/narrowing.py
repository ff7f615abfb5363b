"""Method words, narrowed (issue 31: a project's generic method names).

A project word that is only the name of methods (``start`` of a class
``Collector`` whose ``start()`` returns a new task) can give a finding in a
module, or make one of its functions a spawner, only where the analysis
resolves the receiver of a call ``x.start()`` to such a class: ``x``'s class is
found through names the module spells out (the class's name, a subclass's, a
function or attribute written down to give one, a name bound to any of those,
a base of one of its own classes).  So the index need not summarise or check a
module for such a word unless the module also names one of the *closure* of
the owners' names: starting from the names of the classes that own the
methods, every name bound anywhere in a top-level statement (of any module of
the project) that mentions a name of the closure, until nothing new appears.
The closure is generous on purpose (any mention, in code or in a string,
anywhere in the statement; every name the statement binds, at any depth): it
may keep a module that cannot use the word, never leave out one that can.

A word defined anywhere as a function, or bound to a spawner by an
assignment, is never narrowed.  When the closure grows past ``LIMIT`` names,
``PARSE_LIMIT`` modules parsed or ``WAVE_LIMIT`` waves, or a statement is too
deep to read, nothing is narrowed (the index does as it did before).  Pure:
reads the modules' bytes through the caller.

The names are matched in the text as the parser reads them, in another Unicode
form too (NFKC: ``Ｃollector`` is ``Collector``); but a name split across
implicitly joined strings (``c: "Coll" "ector"``, which the parser joins) is not
seen: looking for one would cost a scan of every module, for code nobody writes.
"""
from __future__ import annotations

import ast
import re
import unicodedata
from bisect import bisect_left
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

from flake8_taskref.analysis.api import words_named
from flake8_taskref.project.source import decode, split_lines
from flake8_taskref.project.summarising import _parse

# Past this many names, this many modules parsed to find them, or this many
# waves (a name found only through the names found in the wave before), the
# closure is given up: no word is narrowed.
LIMIT = 400
PARSE_LIMIT = 600
WAVE_LIMIT = 24

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_IDENT = re.compile(r"[^\W\d]\w*")  # (as ``str.isidentifier`` reads names, but NFKC)


def searchable(text: str) -> str:
    """A text in which each name is spelt as the parser reads it (NFKC:
    ``Ｃollector`` is ``Collector``), for the tests of whether it names one
    (line by line as it was)."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def mentioned(node: ast.AST) -> Set[str]:
    """Every identifier a node names: names, attributes, the parts of
    imported names, and the words of its strings (string annotations)."""
    found: Set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.add(sub.attr)
        elif isinstance(sub, ast.alias):
            found.update(sub.name.split("."))
            if sub.asname:
                found.add(sub.asname)
        elif isinstance(sub, ast.ImportFrom) and sub.module:
            found.update(sub.module.split("."))
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            found.update(_IDENT.findall(sub.value))
    return found


def head(node: Optional[ast.AST]) -> Set[str]:
    """The identifiers by which an assigned value can have a type the analysis
    follows: a name or an attribute (an alias of a class or of an instance), a
    call's callee and its plain arguments (a constructor, ``Owner.create()``,
    ``cast(Owner, x)``), a subscript's value (``Owner[int]``), and the same
    through ``await``, ``x or y``, ``x if c else y``, ``:=``, a starred value
    and the items of a tuple or list that is unpacked."""
    if node is None:
        return set()
    if isinstance(node, (ast.Name, ast.Attribute)):
        return mentioned(node)
    if isinstance(node, ast.Call):
        found = mentioned(node.func)
        for argument in (*node.args, *(keyword.value for keyword in node.keywords)):
            if isinstance(argument, (ast.Name, ast.Attribute, ast.Starred)):
                found |= mentioned(argument)
        return found
    if isinstance(node, ast.Subscript):
        return mentioned(node.value) | head(node.slice)
    if isinstance(node, (ast.Await, ast.NamedExpr, ast.Starred)):
        return head(node.value)
    if isinstance(node, ast.IfExp):
        return head(node.body) | head(node.orelse)
    if isinstance(node, (ast.BoolOp, ast.Tuple, ast.List)):
        found = set()
        for value in (node.values if isinstance(node, ast.BoolOp) else node.elts):
            found |= head(value)
        return found
    return set()


def _assigned(node: ast.AST) -> Set[str]:
    """``typing`` of an assignment."""
    if isinstance(node, ast.Assign):
        return head(node.value)
    if isinstance(node, ast.AnnAssign):
        return mentioned(node.annotation) | head(node.value)
    if isinstance(node, (ast.AugAssign, ast.NamedExpr)):
        return head(node.value)
    return set()


def typing(statement: ast.stmt, lines: Optional[Set[int]] = None) -> Set[str]:
    """The identifiers by which a module-level statement can give the names it
    binds (``bound``) a type the analysis follows.  A class: its bases,
    keywords and decorators, those of its nested classes, what every
    assignment or annotation in its body gives (at any depth: ``self.x =
    Owner()`` in a method, ``x: Owner`` in the body), and its methods'
    parameters (annotations and defaults: ``self.c = c`` types the attribute
    with ``c``'s annotation) and return annotations.  A function: its
    decorators and its return annotation (the analysis types no call's result
    but a constructor's: generous).  An assignment: its annotation and its
    value's ``head``; a ``for`` or ``with``: its iterable's or its context's
    ``head``.  Nothing else binds a name of the module a type can follow (an
    import is looked at name by name: ``imported``).
    ``lines``: in a class, only the parts that span one of these lines (those
    that hold the names looked for)."""
    found: Set[str] = set()
    if isinstance(statement, ast.ClassDef):
        marks = None if lines is None else sorted(lines)
        stack: List[ast.AST] = [statement]
        while stack:  # (``ast.walk``, past the parts that hold none of ``lines``)
            sub = stack.pop()
            if isinstance(sub, ast.ClassDef):
                for node in (*sub.bases, *sub.keywords, *sub.decorator_list):
                    found |= mentioned(node)
            elif isinstance(sub, ast.arguments):  # ``def __init__(self, c: Owner)``, then ``self.c = c``
                found |= mentioned(sub)
            elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and sub.returns is not None:
                found |= mentioned(sub.returns)
            else:
                found |= _assigned(sub)
            for child in ast.iter_child_nodes(sub):
                first = getattr(child, "lineno", None)
                if first is None or marks is None:
                    stack.append(child)
                    continue
                at = bisect_left(marks, first)  # the first line marked at or after it
                if at < len(marks) and marks[at] <= (getattr(child, "end_lineno", None) or first):
                    stack.append(child)
        return found
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
        for node in statement.decorator_list:
            found |= mentioned(node)
        return found | (mentioned(statement.returns) if statement.returns is not None else set())
    if isinstance(statement, (ast.For, ast.AsyncFor)):
        return head(statement.iter)
    if isinstance(statement, (ast.With, ast.AsyncWith)):
        for item in statement.items:
            found |= head(item.context_expr)
        return found
    return _assigned(statement)


def _targets(node: Optional[ast.AST]) -> Set[str]:
    """The names and attributes an assignment's target binds."""
    found: Set[str] = set()
    if node is None:
        return found
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.add(sub.attr)
    return found


def walrus(statement: ast.stmt, names: Set[str]) -> Set[str]:
    """The names ``:=`` binds in a module-level statement to a value whose
    ``head`` is one of ``names`` (in its own expressions: its body's
    statements are statements of their own)."""
    found: Set[str] = set()
    for field, value in ast.iter_fields(statement):
        if field in _BODIES:
            continue
        for node in value if isinstance(value, list) else [value]:
            if isinstance(node, ast.AST):
                found.update(sub.target.id for sub in ast.walk(node)
                             if isinstance(sub, ast.NamedExpr) and head(sub.value) & names)
    return found


def bound(statement: ast.stmt) -> Set[str]:
    """The names a module-level statement binds *in the module*, by which
    another module can reach what it makes: a class's or a function's name
    (what is inside one is reached through it), assigned names and attributes,
    and the targets of a compound statement's own header (its body's
    statements are statements of their own, ``module_statements``; an import's
    names are ``imported``'s, and those of ``:=`` ``walrus``'s)."""
    found: Set[str] = set()
    if isinstance(statement, _SCOPES):
        found.add(statement.name)
        return found
    if isinstance(statement, ast.Assign):
        for target in statement.targets:
            found |= _targets(target)
    elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
        found |= _targets(statement.target)
    elif isinstance(statement, (ast.For, ast.AsyncFor)):
        found |= _targets(statement.target)
    elif isinstance(statement, (ast.With, ast.AsyncWith)):
        for item in statement.items:
            found |= _targets(item.optional_vars)
    return found


_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


# (``match`` is Python 3.10's)
_CASES = (ast.excepthandler,) + ((ast.match_case,) if hasattr(ast, "match_case") else ())


def module_statements(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """A module's statements at module level: each top-level one, and the
    statements in the bodies of its compound ones (``if``, ``try``, ``with``,
    ``for``, ``while``, ``match``), but not those of a class or a function."""
    for statement in body:
        yield statement
        if isinstance(statement, _SCOPES):
            continue
        for field in _BODIES:
            for child in getattr(statement, field, None) or ():
                if isinstance(child, _CASES):
                    yield from module_statements(getattr(child, "body", ()))
                elif isinstance(child, ast.stmt):
                    yield from module_statements([child])


def imported(statement: Union[ast.Import, ast.ImportFrom], names: Set[str]) -> Set[str]:
    """The names an import binds to one of ``names`` (``from m import A as B``:
    ``B`` when ``A`` is one of them)."""
    found: Set[str] = set()
    for alias in statement.names:
        if alias.name.rpartition(".")[2] in names or alias.name in names:
            found.add(alias.asname or alias.name.rpartition(".")[2])
    return found


class Closure:
    """The closure of the owners' names over the modules of a project; it
    grows as owners are added (the index finds method words round by round)."""

    def __init__(self, modules: Callable[[], Iterable[str]], read: Callable[[str], Optional[bytes]]) -> None:
        self._modules = modules
        self._read = read
        self.names: Set[str] = set()
        self.failed = False
        self._waves = 0
        self._seen: Set[str] = set()  # the modules looked at (the rest: for every name, when met)
        self._normal: Dict[str, str] = {}  # the text of a module that is not ASCII, as read
        self._statements: Dict[str, Optional[Tuple[List[str], List[ast.stmt]]]] = {}

    def modules(self) -> Iterable[str]:
        """The project's modules, as the index knows them now."""
        return self._modules()

    def add(self, seeds: Iterable[str]) -> Set[str]:
        """Add owners' names; the names the closure gained (all of them, from
        the seeds on)."""
        if self.failed:
            return set()
        frontier = set(seeds) - self.names
        gained: Set[str] = set()
        while frontier and not self.failed:
            self.names |= frontier
            gained |= frontier
            if len(self.names) > LIMIT:
                self.failed = True
                break
            frontier = self._bound_by(frontier) - self.names
        return gained

    def _bound_by(self, frontier: Set[str]) -> Set[str]:
        """The names bound by the statements that give one of ``frontier`` (a
        module met for the first time: one of the closure's names) a type."""
        self._waves += 1
        if self._waves > WAVE_LIMIT:
            self.failed = True
            return set()
        found: Set[str] = set()
        for path in self.modules():
            wanted = frontier if path in self._seen else self.names  # (a module new to the index)
            self._seen.add(path)
            ascii_words = [name.encode("ascii") for name in wanted if name.isascii()]
            data = self._read(path)
            if data is None:
                continue
            odd = not data.isascii()  # (then its names are looked for as the parser reads them)
            if not odd and len(ascii_words) == len(wanted) and not any(w in data for w in ascii_words):
                continue
            if odd and path not in self._statements:
                text = self._normal.get(path)
                if text is None:
                    text = self._normal[path] = searchable(decode(data))
                if not any(name in text for name in wanted):
                    continue
            parsed = self._parsed(path, data)
            if parsed is None:
                continue
            try:
                found |= self._bound_in(parsed, wanted, odd)
            except RecursionError:  # (a value nested too deep to read: nothing is narrowed)
                self.failed = True
            if self.failed:
                break
        return found

    def _bound_in(self, parsed: Tuple[List[str], List[ast.stmt]], wanted: Set[str], odd: bool) -> Set[str]:
        """``_bound_by`` in one module (``odd``: its text is not ASCII, and may
        spell a name otherwise than as the parser reads it)."""
        lines, statements = parsed
        found: Set[str] = set()
        for statement in statements:
            first = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])
            spanned = lines[first - 1:getattr(statement, "end_lineno", None) or statement.lineno]
            if odd:
                spanned = [searchable(line) for line in spanned]
            segment = "".join(spanned)
            if not any(name in segment for name in wanted):
                continue  # (the quick test: it cannot name one)
            if isinstance(statement, (ast.Import, ast.ImportFrom)):
                found |= imported(statement, wanted)  # (by name: one import binds many)
                continue
            hits = None
            if isinstance(statement, ast.ClassDef):  # (a class can be long: only its lines that name one)
                hits = {first + at for at, line in enumerate(spanned) if any(name in line for name in wanted)}
            if typing(statement, hits) & wanted:
                found |= bound(statement)
            if ":=" in segment and not isinstance(statement, _SCOPES):
                found |= walrus(statement, wanted)
        return found

    def _parsed(self, path: str, data: bytes) -> Optional[Tuple[List[str], List[ast.stmt]]]:
        """A module's lines and its module-level statements (None: it does
        not parse, and the analysis resolves nothing through it either; its
        warnings are not shown, as the analysis's parse shows none)."""
        if path in self._statements:
            return self._statements[path]
        if len(self._statements) >= PARSE_LIMIT:
            self.failed = True
            return None
        lines = split_lines(data)
        tree = _parse("".join(lines))
        parsed = None if tree is None else (lines, list(module_statements(getattr(tree, "body", []))))
        self._statements[path] = parsed
        return parsed


def names_closure(text: str, names: FrozenSet[str]) -> bool:
    """Does a module's text name one of the closure's names, as a whole word
    (spelt as the parser reads it)?"""
    return bool(names) and bool(words_named(searchable(text), names))
