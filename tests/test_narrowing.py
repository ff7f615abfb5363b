"""The index's narrowing of method words (``project/narrowing.py``, issue 31):
a module that names a project word that is only a method's name (``start``)
is summarised and checked for it only if it also names a name by which the
method's class can be reached.  Findings never change: each shape by which a
receiver's class is reached from another module is a fixture of
``tests/data/projects/method_words`` (run through flake8 and the command by
``test_projects``); here, what is narrowed, what is not, and that a word found
later to be a function's, or a class found later to own the method, brings
back what was left out."""
from __future__ import annotations

import ast
import warnings
from pathlib import Path
from typing import Dict, FrozenSet

import pytest

from flake8_taskref.analysis.options import Options
from flake8_taskref.project import narrowing
from flake8_taskref.project.cache import Cache
from flake8_taskref.project.view import ProjectView
from tests.test_projects import PROJECTS, _command, _write

_HEADER = "import asyncio\n\n\n"


def _hot(project: Path, monkeypatch: pytest.MonkeyPatch) -> FrozenSet[str]:
    """The files the index finds may have findings (the others are cold)."""
    monkeypatch.chdir(project)
    view = ProjectView(Options.build(), ".", (), Cache(None))
    view.words()
    return frozenset(
        str(path.relative_to(project)) for path in project.rglob("*.py") if not view.cold(str(path))
    )


def test_a_module_naming_a_method_word_and_no_owner_is_cold(monkeypatch: pytest.MonkeyPatch) -> None:
    project = PROJECTS / "method_words"
    narrowed = _hot(project, monkeypatch)
    assert "plant/unrelated.py" not in narrowed  # ``server.start()``, ``other.start()``
    assert {"plant/direct.py", "plant/use_chain.py", "plant/use_launch.py",
            "plant/typed_param.py"} <= narrowed
    monkeypatch.setattr(narrowing, "LIMIT", 0)  # the closure given up: nothing narrowed
    assert _hot(project, monkeypatch) == narrowed | {"plant/unrelated.py"}


def _project(tmp_path: Path, files: Dict[str, str]) -> Path:
    return _write(tmp_path / "p", {"pyproject.toml": "", "app/__init__.py": "", **files})


_OWNER = _HEADER + "class A:\n    def start(self):\n        return asyncio.create_task(self.run())\n"
_UTIL = _HEADER + "def spawn_it(coro):\n    return asyncio.create_task(coro)\n"


def test_a_word_found_later_to_be_a_function_is_not_narrowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``start`` is a method of ``A`` in the first round, and a function of
    ``other`` (which names no spawner of asyncio's) in the second: the module
    that calls the function, and names no ``A``, waited, and is checked."""
    project = _project(tmp_path, {
        "app/owner.py": _OWNER,
        "app/util.py": _UTIL,
        "app/other.py": "from app.util import spawn_it\n\n\ndef start(coro):\n    return spawn_it(coro)\n",
        "app/user.py": "from app.other import start\n\n\ndef go(coro):\n    start(coro)\n",
    })
    rows = _command(project, "--isolated", "--no-cache", ".")
    assert [row[:3] for row in rows["app/user.py"]] == [(5, 5, "TRF001")]
    assert "app/user.py" in _hot(project, monkeypatch)


def test_a_class_found_later_to_own_the_method_brings_its_users_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``B.start`` returns a task only through ``spawn_it``, a word of the first
    round, so ``B`` owns ``start`` from the second round on: a module that
    names ``start`` and ``B`` (but not ``A``) waited in the first, and is
    checked."""
    project = _project(tmp_path, {
        "app/owner.py": _OWNER,
        "app/util.py": _UTIL,
        "app/other.py": ("from app.util import spawn_it\n\n\nclass B:\n    def start(self, coro):\n"
                         "        return spawn_it(coro)\n"),
        "app/user.py": "from app.other import B\n\n\ndef go(coro):\n    b = B()\n    b.start(coro)\n",
        "app/elsewhere.py": "def go(thing):\n    thing.start()\n",
    })
    rows = _command(project, "--isolated", "--no-cache", ".")
    assert [row[:3] for row in rows["app/user.py"]] == [(6, 5, "TRF001")]
    hot = _hot(project, monkeypatch)
    assert "app/user.py" in hot and "app/elsewhere.py" not in hot


@pytest.mark.parametrize("source, names", [
    ("class C(Owner):\n    pass\n", {"C"}),
    ("class C:\n    def __init__(self):\n        self.x = Owner()\n", {"C"}),
    ("class C:\n    x: 'Owner'\n", {"C"}),
    ("class C:\n    def make(self):\n        return Owner()\n", set()),  # (a call's result: no type)
    ("x = Owner()\n", {"x"}),
    ("x = mod.Owner.create()\n", {"x"}),
    ("x: Owner = make()\n", {"x"}),
    ("x = cast(Owner, y)\n", {"x"}),
    ("x = [Owner()]\n", {"x"}),
    ("x = {'k': Owner()}\n", set()),
    ("__all__ = ['Owner']\n", set()),
    ("def f() -> Owner:\n    pass\n", {"f"}),
    ("def f():\n    return Owner()\n", set()),
    ("from m import Owner as O, Other\n", {"O"}),
    ("if TYPE_CHECKING:\n    from m import Owner as O\nelse:\n    O = None\n", {"O"}),
    ("with Owner() as x:\n    pass\n", {"x"}),
    ("for x in [Owner()]:\n    pass\n", {"x"}),
    ("if (x := Owner()):\n    pass\n", {"x"}),
    ("@register(Owner)\ndef f():\n    pass\n", {"f"}),
    # a review's finds: a parameter's annotation types ``self.c = c``; a form
    # feed between methods (a line end for ``str.splitlines`` only); a name
    # that is not ASCII, and one in another Unicode form (NFKC)
    ("class C:\n    def __init__(self, c: Owner):\n        self.c = c\n", {"C"}),
    ("class C:\n    def get(self) -> Owner:\n        pass\n", {"C"}),
    ("class C:\n    def f(self):\n        pass\n\x0c\n    def g(self):\n        self.c = Owner()\n", {"C"}),
    ("class C:\n    c: 'm.Owner'\n", {"C"}),
    ("class C:\n    c: \uff2fwner\n", {"C"}),
    ("x = '\\d'\ny = Owner()\n", {"y"}),
])
def test_the_names_a_statement_gives_an_owners_type(source: str, names: set) -> None:
    """What ``Closure`` adds for a module-level statement that names ``Owner``."""
    tmp = {"m": source.encode("utf-8")}
    closure = narrowing.Closure(lambda: ["m"], tmp.get)
    assert closure.add({"Owner"}) - {"Owner"} == names
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ast.parse(source)  # (each is Python)


def test_a_name_that_is_not_ascii_is_followed() -> None:
    source = "class Größe:\n    pass\n\n\nclass C:\n    c: 'm.Größe'\n"
    tmp = {"m": source.encode("utf-8")}
    closure = narrowing.Closure(lambda: ["m"], tmp.get)
    assert closure.add({"Größe"}) == {"Größe", "C"}


def test_a_warning_raised_as_an_error_hides_no_module() -> None:
    tmp = {"m": b"PATTERN = '\\d+'\nx = Owner()\n"}
    closure = narrowing.Closure(lambda: ["m"], tmp.get)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert closure.add({"Owner"}) == {"Owner", "x"}


def test_a_value_too_deep_to_read_narrows_nothing() -> None:
    deep = "x = " + " if flag else ".join(["Owner"] * 1200) + "\n"
    tmp = {"m": deep.encode("utf-8")}
    closure = narrowing.Closure(lambda: ["m"], tmp.get)
    closure.add({"Owner"})
    # (or the parser refused it, as some Pythons do: nothing is read through it either)
    assert closure.failed or not closure.names - {"Owner"} and closure._statements["m"] is None


def test_a_closure_of_too_many_waves_narrows_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(narrowing, "WAVE_LIMIT", 3)
    chain = {f"m{i}": f"class N{i + 1}(N{i}):\n    pass\n".encode("utf-8") for i in range(10)}
    closure = narrowing.Closure(lambda: list(chain), chain.get)
    closure.add({"N0"})
    assert closure.failed


def test_a_closure_past_its_limit_narrows_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(narrowing, "LIMIT", 3)
    chain = {f"m{i}": f"N{i + 1} = N{i}\n".encode("utf-8") for i in range(10)}
    closure = narrowing.Closure(lambda: list(chain), chain.get)
    closure.add({"N0"})
    assert closure.failed
