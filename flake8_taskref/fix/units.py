"""The fixer reads only the parts of a file it needs (issue 25: a 900,000-line
file with one site took 6 times its lint to fix, most of it walking every node).

A file's *units* are its module-level statements, with a class split into its
header (decorators, bases, keywords) and the statements of its body, each a unit
of its own (so that one site in a large class does not walk the class).  A
unit is walked, once, when the fixer needs a fact about a line it spans: the
line of a site, or a line where a word it asks about (an identifier: a set's
name, a new handle's name, ``set``, ``class``) is written.  Every identifier
the parser reads is written in the text as itself or as a spelling that
Unicode normalisation (NFKC) turns into it, so the lines where a word can be
an identifier are the lines that hold it as a word, and the lines whose
normalised text does: what a walk of those lines' units finds about a name is
what a walk of the whole file would.
"""
from __future__ import annotations

import ast
import bisect
import re
import unicodedata
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

from flake8_taskref.fix.source import Source

Unit = ast.stmt  # a statement; a ClassDef unit stands for its header only


def first_line(statement: ast.stmt) -> int:
    """The first line of a statement, its decorators included."""
    decorators: List[ast.expr] = getattr(statement, "decorator_list", [])
    return min([statement.lineno, *(decorator.lineno for decorator in decorators)])


class _Body:
    """A list of statements (the module's, or a class's), searchable by line."""

    def __init__(self, statements: Sequence[ast.stmt]) -> None:
        self.statements = statements

    def at(self, line: int) -> Iterator[ast.stmt]:
        """The statements whose lines hold ``line`` (several share a line: ``a; b``)."""
        statements = self.statements
        low, high = 0, len(statements)  # the first statement that starts after the line
        while low < high:
            middle = (low + high) // 2
            if first_line(statements[middle]) > line:
                high = middle
            else:
                low = middle + 1
        index = low - 1
        while index >= 0:
            statement = self.statements[index]
            if (statement.end_lineno or statement.lineno) < line:
                break
            yield statement
            index -= 1


class Units:
    """The units of one file, found by line, and the lines of a word."""

    def __init__(self, tree: ast.Module, source: Source) -> None:
        self.tree = tree
        self.source = source
        self._bodies: Dict[int, _Body] = {}
        self._odd: Optional[Dict[int, str]] = None  # line -> its NFKC form, where that differs
        self._words: Dict[str, Set[int]] = {}

    def _body(self, owner: ast.AST) -> _Body:
        body = self._bodies.get(id(owner))
        if body is None:
            body = self._bodies[id(owner)] = _Body(getattr(owner, "body"))
        return body

    def at(self, line: int) -> List[Tuple[Unit, ast.AST]]:
        """The units that span ``line``, with the node each belongs to (the
        module, or the class whose body holds it): a class's header comes
        with the unit of its body that spans the line, if any."""
        found: List[Tuple[Unit, ast.AST]] = []
        todo: List[ast.AST] = [self.tree]
        while todo:
            owner = todo.pop()
            for statement in self._body(owner).at(line):
                found.append((statement, owner))
                if isinstance(statement, ast.ClassDef):
                    todo.append(statement)
        return found

    def lines_of(self, word: str) -> Set[int]:
        """The lines where ``word`` may be written as an identifier (a superset)."""
        lines = self._words.get(word)
        if lines is not None:
            return lines
        source = self.source
        # the word, not in a longer one (a look-behind in the pattern would make
        # the search slow: it is checked for each match instead)
        pattern = re.compile(re.escape(word) + r"(?!\w)")
        lines = set()
        for text, line in [(source.text, 0), *((normal, line) for line, normal in self._odd_lines().items())]:
            for match in pattern.finditer(text):
                at = match.start()
                if at and (text[at - 1].isalnum() or text[at - 1] == "_"):
                    continue
                lines.add(line or bisect.bisect_right(source.starts, at))
        self._words[word] = lines
        return lines

    def _odd_lines(self) -> Dict[int, str]:
        """The lines that Unicode normalisation changes (where an identifier may
        be written in another spelling), with their normal form."""
        if self._odd is None:
            self._odd = {}
            if not self.source.text.isascii():
                for line, text in enumerate(self.source.lines, 1):
                    if not text.isascii():
                        normal = unicodedata.normalize("NFKC", text)
                        if normal != text:
                            self._odd[line] = normal
        return self._odd
