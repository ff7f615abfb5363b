"""What a sound narrowing of a project's method words would leave to parse
(issue 31, ray against Ruff): an estimate, not the product's code.

    python benchmarks/narrowing.py FOLDER

A project word that is only the name of methods (``start``, ``shutdown``) can
matter in a file only where the analysis can resolve the receiver's class to
one of the classes whose method returns a task: through the class's name, a
subclass's (``self.start()``), a class with an attribute of such a type
(``self._router.shutdown()``), or a name bound to one of those (an import
``as``, an assignment).  So such a file must name one of them.  The names are
found here generously (a superset, so that the estimate stays an upper bound
of what a sound tool may skip): starting from the owners' names, every class
anywhere in a module that names one of them in its bases or body, and every
name bound by a statement that names one, until nothing new appears; each
module that names a name of the set is parsed for it.

Prints the project's words (the product's index), which of them are method
words and their owners, the names of the closure, and the files each
approach must parse: the index as it is (every file that names a word), and
with the narrowing (the method words' files only where they name the
closure), with the CPU seconds of ``ast.parse`` of each set (collector off).
"""
from __future__ import annotations

import ast
import gc
import os
import re
import sys
import time
from typing import Dict, List, Set, Tuple

from flake8_taskref.analysis.api import names_any, spawn_tokens, with_words
from flake8_taskref.analysis.modules import Function, Resolver
from flake8_taskref.analysis.options import Options
from flake8_taskref.project.settings import from_values
from flake8_taskref.project.narrowing import mentioned
from flake8_taskref.project.view import open_view


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_idents = mentioned  # (the product's own reading of a node's identifiers)


class _Module:
    """What the closure needs of a module: each class's name, the identifiers
    of its bases, and those of the types its attributes may get (the
    annotations in its body and of its methods' parameters, the classes its
    methods call into ``self.x = C(...)``); each name bound to another
    (``import a as b``, ``b = a``, ``b = m.a``, at any depth)."""

    def __init__(self, tree: ast.AST) -> None:
        self.classes: List[Tuple[str, Set[str], Set[str]]] = []
        self.aliases: List[Tuple[str, str]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = set().union(*(_idents(b) for b in [*node.bases, *node.keywords]))
                attrs: Set[str] = set()
                for sub in ast.walk(node):
                    if isinstance(sub, ast.AnnAssign):
                        attrs |= _idents(sub.annotation)
                    elif isinstance(sub, ast.arg) and sub.annotation is not None:
                        attrs |= _idents(sub.annotation)
                    elif isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Call):
                        func = sub.value.func
                        if isinstance(func, (ast.Name, ast.Attribute)):
                            attrs.add(func.id if isinstance(func, ast.Name) else func.attr)
                self.classes.append((node.name, bases, attrs))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    if alias.asname:
                        self.aliases.append((alias.asname, alias.name.rpartition(".")[2]))
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(
                    node.value, (ast.Name, ast.Attribute)):
                source = node.value.id if isinstance(node.value, ast.Name) else node.value.attr
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                self.aliases.extend((t.id, source) for t in targets if isinstance(t, ast.Name))
            elif sys.version_info >= (3, 12) and isinstance(node, ast.TypeAlias):
                self.aliases.append((node.name.id, ""))  # (generous: any type statement naming it)
                self.aliases.extend((node.name.id, name) for name in _idents(node.value))


def main(folder: str) -> None:
    os.chdir(folder)
    options = Options.build()
    view = open_view(options, from_values(os.getcwd(), (), "", True, ["."]))
    words = view.words()
    texts: Dict[str, str] = {}
    files = list(view._files or ())
    for path in files:
        with open(path, "rb") as handle:
            texts[path] = handle.read().decode("utf-8", "replace")
    idents = {path: set(_IDENT.findall(text)) for path, text in texts.items()}
    # the words' owners: the classes whose method of that name returns a task
    # (as ``ProjectView._spawner_words`` finds them); a word that is also a
    # function's or a name bound at module level is not narrowed
    owners: Dict[str, Set[str]] = {}
    plain: Set[str] = set()
    for path in files:
        words_here = view._spawner_words(path)
        if not words_here:
            continue
        summary = view.summary(path)
        assert summary is not None
        resolver = Resolver(view.view_for(path, None), summary.name)
        resolver.set_own(summary)
        for qualname, info in summary.functions:
            word = qualname.rpartition(".")[2]
            if word not in words_here or not (info.returns or info.decorator):
                continue
            if not resolver.returns_task(Function(summary, qualname, info)):
                continue
            if "." not in qualname:
                plain.add(word)
            owners.setdefault(word, set()).update(qualname.split(".")[:-1])
        plain.update(name for name, _ in summary.aliases if name in words_here)
    method_words = {w for w in owners if w not in plain and w in words}
    print("words", sorted(words), "method words", {w: sorted(owners[w]) for w in sorted(method_words)})
    modules: Dict[str, _Module] = {}
    closure: Dict[str, Set[str]] = {}
    parsed_for_closure: Set[str] = set()

    def grow(names: Set[str], by_attrs: Set[str]) -> Set[str]:
        """``names`` with their subclasses and aliases, and (``by_attrs``) the
        classes with an attribute of one of those types, until nothing new."""
        while True:
            new: Set[str] = set()
            wanted = names | by_attrs
            for path in texts:
                if not idents[path] & wanted:
                    continue
                parsed_for_closure.add(path)
                if path not in modules:
                    try:
                        modules[path] = _Module(ast.parse(texts[path]))
                    except SyntaxError:
                        modules[path] = _Module(ast.Module([], []))
                module = modules[path]
                new.update(name for name, bases, attrs in module.classes
                           if bases & names or attrs & by_attrs)
                new.update(name for name, source in module.aliases if source in names)
            new -= names
            if not new:
                return names
            names |= new

    for word in sorted(method_words):
        owning = grow(set(owners[word]), set())  # the owners, their subclasses, their aliases
        holders = grow(set(), owning)  # classes with an attribute of those types, their subclasses
        closure[word] = owning | holders
        print(f"closure of {word}: {len(closure[word])} names: {sorted(closure[word])[:30]}")
    tokens = spawn_tokens(options)
    other_words = words - method_words
    base_hot = {p for p, t in texts.items()
                if names_any(t, tokens) or names_any(t, other_words - set(tokens))}
    now_hot = {p for p, t in texts.items() if names_any(t, spawn_tokens(with_words(options, words)))}
    narrowed = set(base_hot)
    for word in method_words:
        narrowed |= {p for p, t in texts.items() if names_any(t, [word]) and idents[p] & closure[word]}
    asyncio_only = {p for p, t in texts.items() if names_any(t, tokens)}

    def parse_time(paths: Set[str]) -> float:
        gc.disable()
        start = time.process_time()
        for path in paths:
            try:
                ast.parse(texts[path])
            except SyntaxError:
                pass
        gc.enable()
        return time.process_time() - start

    print(f"files {len(texts)}; naming asyncio's spawners {len(asyncio_only)}; hot today {len(now_hot)} "
          f"(index's {len(view._hot)}); hot with the narrowing {len(narrowed)}; "
          f"parsed for the closure {len(parsed_for_closure)}")
    for label, paths in (("asyncio's spawners", asyncio_only), ("hot today", now_hot),
                         ("narrowed", narrowed), ("narrowed + closure", narrowed | parsed_for_closure)):
        print(f"  ast.parse of {label} ({len(paths)} files): {parse_time(paths):.3f} s CPU")


if __name__ == "__main__":
    main(sys.argv[1])
