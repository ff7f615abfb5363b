"""What the cache may be trusted with (issue 31): nothing in the project's tree.

An entry is used only when this tool, for this user, made it from this content:
each is signed with the user's key (kept outside the project, in the folder
``FLAKE8_TASKREF_KEY_DIR`` names: a temporary one for the test run, see
conftest.py), its shape is checked where it is read, it is read only if it is a
regular file, and a change is seen even when the modification time is put back.
Nothing the tool writes follows a link it did not make, and the command's walk
never enters the cache's folder.  Every run here prints what a run without a
cache prints, through the console script and through real flake8; the fuzz test
runs in the default suite, in a few seconds."""
from __future__ import annotations

import marshal
import os
import random
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, List, Optional

import pytest

from flake8_taskref.project.cache import _TAG, Cache, user_key
from tests.harness import _FORMAT, parse_output
from tests.test_fix import command
from tests.test_projects import Rows, _command, _copy, _flake8, _relative

MAC = 16  # bytes of an entry's keyed hash


def _entries(project: Path, kind: Optional[str] = None) -> List[Path]:
    root = project / ".taskref_cache"
    return sorted(path for path in root.glob(f"*/{kind or '*'}/*/*")
                  if not path.name.startswith(".") and not path.is_symlink() and path.is_file())


def _signed(path: Path, data: bytes) -> bytes:
    """``data`` signed as the tool signs the entry at ``path`` (with this
    user's key: the test run's)."""
    namespace, kind, name = path.parents[2].name, path.parents[1].name, path.name
    cache = Cache(str(path.parents[3]), namespace)
    cache._key = user_key()
    assert cache._key is not None
    return cache._mac(kind, name, data) + data


def _value(path: Path) -> Any:
    data = path.read_bytes()
    try:
        return marshal.loads(data[MAC:])
    except (ValueError, EOFError, TypeError):  # unsigned (the code before issue 31 wrote these)
        return marshal.loads(data)


def _sign(path: Path, value: Any) -> None:
    path.write_bytes(_signed(path, marshal.dumps(value)))


def _reference(project: Path) -> Any:
    return _command(project, "--isolated", "--no-cache", ".")


def _warm(project: Path) -> Any:
    reference = _reference(project)
    assert _command(project, "--isolated", ".") == reference
    assert _entries(project, "index") and _entries(project, "findings") and _entries(project, "summary")
    return reference


def _command_with(project: Path, env: Any) -> Rows:
    """``_command(project, "--isolated", ".")`` in this environment."""
    script = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))
    assert script is not None
    proc = subprocess.run([script, "--isolated", "--format", _FORMAT, "."], cwd=project, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr
    rows = _relative(parse_output(proc.stdout))
    return {path: [row for row in found if row[2].startswith("TRF")] for path, found in rows.items()
            if any(row[2].startswith("TRF") for row in found)}


def _both_agree(project: Path, reference: Any, *extra: str) -> None:
    assert _command(project, "--isolated", *extra, ".") == reference
    assert _flake8(project, "--isolated", *extra, ".") == reference


# ------------------------------------------------------------------ shapes
SHAPES: List[Callable[[Any], Any]] = [
    lambda value: 7,
    lambda value: [value],
    lambda value: {**value, "files": {path: 7 for path in value["files"]}} if "files" in value else {},
    lambda value: {**value, "files": {path: [*entry[:5]] for path, entry in value["files"].items()}}
    if "files" in value else {**value, "hash": 7},
    lambda value: {**value, "uses": 7, "findings": [[1]]} if "uses" in value else {**value, "summary": [7]},
    lambda value: {**value, "hot": [7], "words": "x"} if "hot" in value else {**value, "findings": [None]},
]


@pytest.mark.parametrize("signed", [True, False], ids=["signed", "unsigned"])
@pytest.mark.parametrize("shape", range(len(SHAPES)))
def test_an_entry_of_the_wrong_shape_is_a_miss(tmp_path: Path, shape: int, signed: bool) -> None:
    """Every entry decodes, but has a shape this version never writes
    (``marshal.dumps(7)``, an index's files of another shape, findings whose
    uses are no list...), signed with the user's key (a bug, a change of
    format) or as marshal alone writes it (the issue's attack, which stopped
    the command and flake8 with an AttributeError): each is a miss,
    recomputed; the command and flake8 print what they print without a cache."""
    project = _copy("service_app", tmp_path)
    reference = _warm(project)
    for path in _entries(project):
        value = SHAPES[shape](_value(path))
        if signed:
            _sign(path, value)
        else:
            path.write_bytes(marshal.dumps(value))
    _both_agree(project, reference)


def test_entries_not_signed_by_this_user_are_ignored(tmp_path: Path) -> None:
    """The issue's attack: the findings entries rewritten with no finding
    (their hash kept), as marshal alone writes them, hide nothing; nor do
    entries signed with another user's key (a committed or copied cache)."""
    project = _copy("service_app", tmp_path)
    reference = _warm(project)
    assert any(reference.values())
    for path in _entries(project, "findings"):
        value = _value(path)
        path.write_bytes(marshal.dumps({**value, "findings": []}))
    _both_agree(project, reference)
    # another user's cache (another key), every finding removed and signed
    for path in _entries(project, "findings"):
        _sign(path, {**_value(path), "findings": []})
    assert _command(project, "--isolated", ".") == {}  # signed with our key: trusted, as we made it
    other = tmp_path / "another user's key"
    assert _command_with(project, {**os.environ, "FLAKE8_TASKREF_KEY_DIR": str(other)}) == reference
    assert (other / "key").stat().st_mode & 0o777 == 0o600


def test_a_restored_modification_time_does_not_hide_an_edit(tmp_path: Path) -> None:
    """A same-size edit whose modification time is put back (``cp -p``,
    ``rsync -a``, ``tar x``): the change time and inode show it, and neither
    the command (the folder, or the file named) nor flake8 prints the old
    text's findings (none, for a file that named no spawner)."""
    project = _copy("service_app", tmp_path)
    quiet = project / "app" / "quiet.py"
    quiet.write_text("import asyncio\n\n\nasync def f():\n    asyncio.assure_future(asyncio.sleep(1))\n",
                     encoding="utf-8")
    old = _warm(project)
    named = os.path.join("app", "quiet.py")
    assert named not in old
    for target, old_text, new_text in ((quiet, "assure_future", "ensure_future"),
                                       (project / "app" / "service.py", "spawn_logged(", "spawn_loggeX(")):
        before = os.stat(target)
        text = target.read_text(encoding="utf-8")
        edited = text.replace(old_text, new_text)
        assert edited != text and len(edited) == len(text)
        target.write_text(edited, encoding="utf-8")
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
        reference = _reference(project)
        assert reference != old
        name = str(target.relative_to(project))
        assert _command(project, "--isolated", ".") == reference
        assert _command(project, "--isolated", name) == {path: rows for path, rows in reference.items()
                                                         if path == name}
        assert _flake8(project, "--isolated", ".") == reference
        assert _flake8(project, "--isolated", name) == {path: rows for path, rows in reference.items()
                                                        if path == name}
        old = reference
    assert named in old
    # and a file replaced by a copy that keeps the times (a new inode)
    copy = tmp_path / "copy"
    shutil.copy2(quiet, copy)
    quiet.write_text(quiet.read_text(encoding="utf-8").replace("ensure_future", "assure_future"),
                     encoding="utf-8")
    assert named not in _command(project, "--isolated", ".")
    os.replace(copy, quiet)
    assert _command(project, "--isolated", ".") == old


# ------------------------------------------------------------------- links
def test_nothing_written_follows_a_link(tmp_path: Path) -> None:
    """A committed cache whose ``.gitignore`` and ``CACHEDIR.TAG`` are dangling
    links creates neither target; a cache folder without the tool's tag is
    neither read nor written; a ``.taskref_cache`` that is a link is not used."""
    project = _copy("service_app", tmp_path)
    reference = _reference(project)
    outside = tmp_path / "outside"
    outside.mkdir()
    cache = project / ".taskref_cache"
    # (1) the tag and .gitignore dangling links, in a folder of its own
    cache.mkdir()
    (cache / ".gitignore").symlink_to(outside / "gitignore-target")
    (cache / "CACHEDIR.TAG").symlink_to(outside / "tag-target")
    _both_agree(project, reference)
    assert list(outside.iterdir()) == []
    assert sorted(path.name for path in cache.iterdir()) == [".gitignore", "CACHEDIR.TAG"]
    # (2) the tool's tag, and .gitignore a dangling link
    (cache / "CACHEDIR.TAG").unlink()
    (cache / "CACHEDIR.TAG").write_text(_TAG, encoding="utf-8")
    _both_agree(project, reference)
    assert list(outside.iterdir()) == [] and (cache / ".gitignore").is_symlink()
    assert _entries(project, "findings")  # used: it has the tool's tag
    # (3) the namespace's folders links to outside: nothing written through them
    shutil.rmtree(cache)
    _command(project, "--isolated", ".")
    for folder in cache.glob("*/*"):
        if folder.is_dir():
            shutil.rmtree(folder)
            folder.symlink_to(outside)
    _both_agree(project, reference)
    assert list(outside.iterdir()) == []
    # (4) the cache folder a link
    shutil.rmtree(cache)
    cache.symlink_to(outside)
    _both_agree(project, reference)
    assert list(outside.iterdir()) == []
    # (5) a folder with files but no tag: not the tool's
    cache.unlink()
    cache.mkdir()
    (cache / "README").write_text("mine\n", encoding="utf-8")
    _both_agree(project, reference)
    assert sorted(path.name for path in cache.iterdir()) == ["README"]


def test_only_regular_files_are_read_as_entries(tmp_path: Path) -> None:
    """An entry that is a named pipe does not block the run; one that is a
    link to /dev/zero is not read (it would never end)."""
    project = _copy("service_app", tmp_path)
    reference = _warm(project)
    entries = _entries(project)
    for number, path in enumerate(entries):
        path.unlink()
        if number % 2:
            os.mkfifo(path)
        else:
            path.symlink_to("/dev/zero")
    _both_agree(project, reference)


def test_the_walk_never_enters_the_cache_folder(tmp_path: Path) -> None:
    """The command's walk passes over ``.taskref_cache`` (a cache another user
    made under ``umask 077`` cannot be listed: it is no E902), as it passes
    over every file in it."""
    project = _copy("service_app", tmp_path)
    reference = _reference(project)
    inside = project / ".taskref_cache" / "sub"
    inside.mkdir(parents=True)
    (inside / "lost.py").write_text("import asyncio\n\n\nasync def f():\n    asyncio.create_task(f())\n",
                                    encoding="utf-8")
    assert _command(project, "--isolated", ".") == reference
    if os.geteuid() != 0:  # root lists any folder
        os.chmod(project / ".taskref_cache", 0)
        try:
            proc = command("--isolated", ".", cwd=project)
            assert "E902" not in proc.stdout, proc.stdout
        finally:
            os.chmod(project / ".taskref_cache", 0o755)


# ------------------------------------------------------ what is left behind
def test_files_cut_short_and_temporary_files_are_mended(tmp_path: Path) -> None:
    """``.gitignore`` and ``CACHEDIR.TAG`` left empty (a full disk) are
    written again; temporary files a killed run left are removed once old."""
    project = _copy("service_app", tmp_path)
    _warm(project)
    cache = project / ".taskref_cache"
    (cache / ".gitignore").write_text("", encoding="utf-8")
    (cache / "CACHEDIR.TAG").write_text("", encoding="utf-8")
    (namespace,) = [path for path in cache.iterdir() if path.is_dir()]
    old, new = namespace / ".tmp-999999-0", namespace / ".tmp-999999-1"
    old_tag = cache / ".tmp-CACHEDIR.TAG-999999-2"
    for path in (old, new, old_tag):
        path.write_bytes(b"half")
    os.utime(old, (1, 1))
    os.utime(old_tag, (1, 1))
    _command(project, "--isolated", ".")
    assert (cache / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    assert (cache / "CACHEDIR.TAG").read_text(encoding="utf-8") == _TAG
    assert not old.exists() and not old_tag.exists() and new.exists()


# -------------------------------------------------------------------- key
def test_the_key_is_the_users_own(tmp_path: Path) -> None:
    """The key is made once (only the user may read it), outside the project;
    a key others may read or that is a link is no key: the run has no cache
    (and prints the same)."""
    project = _copy("service_app", tmp_path)
    reference = _reference(project)
    home = tmp_path / "home"
    home.mkdir()
    base = {key: value for key, value in os.environ.items()
            if key not in ("FLAKE8_TASKREF_KEY_DIR", "XDG_CACHE_HOME")}
    env = {**base, "HOME": str(home)}
    script = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable)) or ""

    def run() -> "subprocess.CompletedProcess[str]":
        proc = subprocess.run([script, "--isolated", "."], cwd=project, env=env, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        return proc

    run()
    key = home / ".cache" / "flake8-taskref" / "key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.stat().st_size == 32
    assert _entries(project)
    first = key.read_bytes()
    run()
    assert key.read_bytes() == first
    if os.name != "nt":
        shutil.rmtree(project / ".taskref_cache")
        os.chmod(key, 0o644)  # others may read it: no key
        run()
        assert not _entries(project)
        key.unlink()
        key.symlink_to(tmp_path / "planted")
        (tmp_path / "planted").write_bytes(b"k" * 32)
        os.chmod(tmp_path / "planted", 0o600)
        run()
        assert not _entries(project)
    assert _command(project, "--isolated", ".") == reference


# -------------------------------------------------------------------- fuzz
def _wrong(value: Any, rng: random.Random) -> Any:
    """A value of a type the entry never holds where ``value`` is (never one
    that is right in another place of the same kind: a string for a string,
    None for a value that may be None, fewer items in a list, which would be
    another value, as the user's own key signs only what the tool made)."""
    candidates: List[Any] = [1.5, b"x", (7,), frozenset({1}), 7j, {"hash": 7}]
    if type(value) not in (int, bool):
        candidates.append(7)
    if value is not None and type(value) is not str:
        candidates.append("x")
    if type(value) is not bool:
        candidates.append(True)
    return rng.choice(candidates)


def _mutate_shape(value: Any, rng: random.Random, top: bool = True) -> Any:
    """``value`` with one part of it, chosen at random, of another shape (a
    key of the entry itself left out, or a value of another type)."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(sorted(value, key=str))
        if top and rng.random() < 0.2:
            return {k: v for k, v in value.items() if k != key}
        return {**value, key: _mutate_shape(value[key], rng, False)}
    if isinstance(value, list) and value and rng.random() < 0.8:
        index = rng.randrange(len(value))
        return value[:index] + [_mutate_shape(value[index], rng, False)] + value[index + 1:]
    return _wrong(value, rng)


def _attack(path: Path, rng: random.Random, other_namespace: Optional[Path]) -> None:
    data = path.read_bytes()
    how = rng.randrange(9)
    try:
        value = marshal.loads(data[MAC:])
    except (ValueError, EOFError, TypeError):  # an attack of a round before, left as it was
        how = min(how, 2)
    if how == 0:
        path.write_bytes(data[:rng.randrange(len(data) or 1)])  # truncated
    elif how == 1:
        data = data or b"\0"
        spot = rng.randrange(len(data) * 8)  # one bit flipped
        path.write_bytes(data[:spot // 8] + bytes([data[spot // 8] ^ (1 << spot % 8)]) + data[spot // 8 + 1:])
    elif how == 2:
        path.write_bytes(bytes(rng.randrange(256) for _ in range(rng.randrange(64))))  # random
    elif how in (3, 4):
        _sign(path, _mutate_shape(value, rng))  # a wrong shape, signed
    elif how == 5:
        path.unlink()
        path.symlink_to("/dev/zero")
    elif how == 6:
        path.unlink()
        os.mkfifo(path)
    elif how == 7:
        path.write_bytes(data[MAC:])  # unsigned, as an older version wrote it
    elif other_namespace is not None:  # signed for another version's folder
        twin = other_namespace / path.relative_to(path.parents[2])
        twin.parent.mkdir(parents=True, exist_ok=True)
        twin.write_bytes(_signed(twin, marshal.dumps(_mutate_shape(value, rng))))
        path.unlink()
        shutil.copy(twin, path)


def test_fuzz_the_cache(tmp_path: Path) -> None:
    """Rounds of attacks on every entry of a warm cache (truncated, a bit
    flipped, random bytes, wrong shapes signed with the user's own key,
    links to /dev/zero, named pipes, entries unsigned or of another version):
    each run prints what a run without a cache prints, and crashes never."""
    rng = random.Random(31)
    project = _copy("service_app", tmp_path)
    reference = _warm(project)
    (namespace,) = [path for path in (project / ".taskref_cache").iterdir() if path.is_dir()]
    other = namespace.parent / "0.0.0-another-version"
    for round_ in range(12):
        for path in _entries(project):
            if namespace in path.parents and rng.random() < 0.7:
                _attack(path, rng, other)
        if round_ % 3 == 2:
            assert _flake8(project, "--isolated", ".") == reference
        else:
            assert _command(project, "--isolated", ".") == reference


def test_every_summary_has_the_shape_its_reader_checks() -> None:
    """``entries.SUMMARY`` is ``ModuleSummary.to_json``'s shape: every summary
    of the fixtures and projects, whole and in part, passes it after a trip
    through ``marshal`` (a summary that did not would never be read back)."""
    import ast

    from flake8_taskref.analysis.api import summarise
    from flake8_taskref.analysis.options import Options
    from flake8_taskref.project.entries import SUMMARY

    options = Options.build()
    files = sorted((Path(__file__).parent / "data").rglob("*.py"))
    checked = 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for lines in (None, text.splitlines(keepends=True)):
            summary = summarise(tree, options, str(path), lines=lines)
            assert SUMMARY(marshal.loads(marshal.dumps(summary.to_json()))), path
            checked += 1
    assert checked > 100


def test_a_cache_deleted_under_a_long_running_view_is_made_again(tmp_path: Path) -> None:
    """The editor server outlives a ``rm -rf .taskref_cache``: the next entry
    it writes makes the folder again, with its tag (an entry's folder was
    found once per process, and then the cache was off for good)."""
    cache = Cache(str(tmp_path / ".taskref_cache"), "namespace")
    cache.put("findings", "a", {"hash": "1"})
    assert cache.get("findings", "a") == {"hash": "1"}
    shutil.rmtree(tmp_path / ".taskref_cache")
    cache.put("findings", "a", {"hash": "2"})
    assert cache.enabled and cache.get("findings", "a") == {"hash": "2"}
    assert (tmp_path / ".taskref_cache" / "CACHEDIR.TAG").read_text(encoding="utf-8") == _TAG


def test_a_cache_folder_named_with_a_trailing_separator(tmp_path: Path) -> None:
    """``--cache-dir DIR/``: the folders between the entry and the cache's are
    checked up to the cache's, and no further."""
    cache = Cache(str(tmp_path / "cache") + os.sep, "namespace")
    cache.put("index", "a", {"hash": "1"})
    assert cache.enabled and cache.get("index", "a") == {"hash": "1"}
