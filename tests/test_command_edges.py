"""The ``flake8-taskref`` command at the edges of the user's setup (issue 25),
through its console script: a configuration that selects no TRF code, links,
files that are not regular files, names that are not UTF-8 or ASCII, flake8's
colour keys, files Python refuses for their encoding, a file named several
ways, and paths named on the command line that do not exist."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

SOURCE = "import asyncio\n\n\nasync def main():\n    asyncio.create_task(asyncio.sleep(1))\n"
TWO = (
    "import asyncio\n\n\nasync def main():\n    asyncio.create_task(asyncio.sleep(1))\n"
    "    t = asyncio.create_task(asyncio.sleep(1))\n"
)
FIXED = (
    "import asyncio\n\n_background_tasks: \"set[asyncio.Task[object]]\" = set()\n\n\nasync def main():\n"
    "    sleep_task = asyncio.create_task(asyncio.sleep(1))\n    _background_tasks.add(sleep_task)\n"
    "    sleep_task.add_done_callback(_background_tasks.discard)\n    del sleep_task\n"
)
MESSAGE = ("task returned by asyncio.create_task() is not stored; keep a reference "
           "(e.g. a set with add_done_callback(set.discard))")
TRF001 = f"TRF001 {MESSAGE}"
TRF002 = ("TRF002 task returned by asyncio.create_task() is held only by local 't', which is never "
          "awaited, cancelled or stored; keep a reference (e.g. a set with "
          "add_done_callback(set.discard)) or await it")
SCRIPT = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))


def run(*args: str, cwd: Path, env: Optional[Dict[str, str]] = None,
        timeout: float = 120) -> "subprocess.CompletedProcess[bytes]":
    """The installed console script, as a user runs it (bytes out)."""
    assert SCRIPT is not None, "flake8-taskref is not installed beside this python"
    environment = {key: value for key, value in os.environ.items() if key != "FLAKE8_TASKREF_DEBUG"}
    environment.update(env or {})
    return subprocess.run([SCRIPT, *args], cwd=cwd, env=environment, capture_output=True, timeout=timeout)


def lines(output: bytes) -> List[str]:
    return output.decode("utf-8", "surrogateescape").splitlines()


# ------------------------------------------- 1. a select that names no TRF code
def test_a_select_written_for_other_plugins_does_not_turn_trf_off(tmp_path: Path) -> None:
    """``select = E,F,W,C90`` (for flake8's other plugins) gave silence and exit 0,
    and --fix fixed nothing: TRF is checked as if no select were set."""
    (tmp_path / "setup.cfg").write_text("[flake8]\nselect = E,F,W,C90\n")
    (tmp_path / "app.py").write_text(TWO)
    proc = run(".", cwd=tmp_path)
    assert (proc.returncode, lines(proc.stdout), proc.stderr) == (
        1, [f"./app.py:5:5: {TRF001}", f"./app.py:6:9: {TRF002}"], b"")
    # an explicit ignore still turns a code off
    (tmp_path / "setup.cfg").write_text("[flake8]\nselect = E,F,W,C90\nextend-ignore = TRF002\n")
    proc = run(".", cwd=tmp_path)
    assert (proc.returncode, lines(proc.stdout), proc.stderr) == (1, [f"./app.py:5:5: {TRF001}"], b"")
    (tmp_path / "app.py").write_text(SOURCE)
    proc = run("--fix", ".", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "app.py").read_text() == FIXED


def test_a_configuration_that_ignores_every_trf_code_says_so(tmp_path: Path) -> None:
    """Nothing to check is one line on standard error naming the setting and
    where it is set, not a silence that looks like a clean result."""
    (tmp_path / "app.py").write_text(SOURCE)
    (tmp_path / "setup.cfg").write_text("[flake8]\nselect = E,F,W\nextend-ignore = TRF\n")
    proc = run(".", cwd=tmp_path)
    assert (proc.returncode, proc.stdout, lines(proc.stderr)) == (
        0, b"", ["flake8-taskref: no TRF code is checked: extend-ignore = TRF (in setup.cfg [flake8])"])
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text('[tool.flake8-taskref]\nignore = ["T"]\n')
    proc = run("../app.py", cwd=tmp_path / "sub")
    assert (proc.returncode, proc.stdout, lines(proc.stderr)) == (0, b"", [
        "flake8-taskref: no TRF code is checked: ignore = T (in pyproject.toml [tool.flake8-taskref]); "
        f"extend-ignore = TRF (in {tmp_path / 'setup.cfg'} [flake8])"])
    proc = run("--isolated", "--select", "TRF9", "app.py", cwd=tmp_path)
    assert (proc.returncode, proc.stdout, lines(proc.stderr)) == (
        0, b"", ["flake8-taskref: no TRF code is checked: select = TRF9 (on the command line)"])
    # TRF006 alone is a code checked
    proc = run("--isolated", "--select", "TRF006", "app.py", cwd=tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


# ---------------------------------------------------------- 2. symbolic links
def _linked_tree(root: Path) -> None:
    """tree/pkg/real.py, tree/pkg/alias.py -> real.py (inside the tree),
    tree/pkg/via.py -> outside/target.py, tree/linked -> outside (a folder)."""
    (root / "tree" / "pkg").mkdir(parents=True)
    (root / "outside").mkdir()
    (root / "tree" / "pkg" / "real.py").write_text(SOURCE)
    (root / "outside" / "target.py").write_text(SOURCE)
    (root / "tree" / "pkg" / "alias.py").symlink_to("real.py")
    (root / "tree" / "pkg" / "via.py").symlink_to(Path("..", "..", "outside", "target.py"))
    (root / "tree" / "linked").symlink_to(Path("..", "outside"), target_is_directory=True)


def test_a_link_found_in_a_folder_is_checked_and_never_written_outside_it(tmp_path: Path) -> None:
    """--fix tree rewrote outside/target.py through tree/pkg/via.py: a link met
    in a folder is checked (as flake8 and Ruff check it) but --fix and --diff
    write nothing outside the folder; a link to a file inside it is that file,
    checked once under the file's own name; a link to a folder is not followed."""
    _linked_tree(tmp_path)
    outside = (tmp_path / "outside" / "target.py").read_bytes()
    proc = run("--isolated", "tree", cwd=tmp_path)
    assert (proc.returncode, lines(proc.stdout), proc.stderr) == (
        1, [f"tree/pkg/real.py:5:5: {TRF001}", f"tree/pkg/via.py:5:5: {TRF001}"], b"")
    proc = run("--isolated", "--diff", "tree", cwd=tmp_path)
    assert proc.returncode == 1
    assert [line for line in lines(proc.stdout) if line.startswith("diff --git")] == [
        "diff --git a/tree/pkg/real.py b/tree/pkg/real.py"]
    note = ("tree/pkg/via.py:5:5: not fixed TRF001: not written: a symbolic link in tree to a file "
            "outside it (name the link on the command line to fix it)")
    assert note in lines(proc.stderr)
    proc = run("--isolated", "--fix", "tree", cwd=tmp_path)
    assert (proc.returncode, lines(proc.stdout)) == (1, [f"tree/pkg/via.py:5:5: {TRF001}"])
    assert lines(proc.stderr) == ["tree/pkg/real.py:5:5: fixed TRF001 (kept in _background_tasks)", note,
                                  "fixed 1 of 2 findings in 1 file; 1 left, see above"]
    assert (tmp_path / "outside" / "target.py").read_bytes() == outside
    assert (tmp_path / "tree" / "pkg" / "real.py").read_text() == FIXED
    assert (tmp_path / "tree" / "pkg" / "alias.py").is_symlink()


def test_a_link_named_on_the_command_line_is_followed_and_fixed(tmp_path: Path) -> None:
    """A link the user names is the file the user names (Black, Ruff and flake8
    follow it too); so is a link whose file is in another folder given."""
    _linked_tree(tmp_path)
    proc = run("--isolated", "--fix", "tree/pkg/via.py", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, b""), proc.stderr
    assert lines(proc.stderr) == ["tree/pkg/via.py:5:5: fixed TRF001 (kept in _background_tasks)",
                                  "fixed 1 of 1 finding in 1 file"]
    assert (tmp_path / "outside" / "target.py").read_text() == FIXED
    assert (tmp_path / "tree" / "pkg" / "via.py").is_symlink()
    (tmp_path / "outside" / "target.py").write_text(SOURCE)
    proc = run("--isolated", "--fix", "tree", "outside", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, b""), proc.stderr
    assert (tmp_path / "outside" / "target.py").read_text() == FIXED


# ------------------------------------------------ 3. files that are not files
def test_named_pipes_and_devices_are_skipped_with_a_note_never_read(tmp_path: Path) -> None:
    """A FIFO named *.py, even inside a folder, hung the run; /dev/zero grew
    memory without bound.  Each is one note on standard error; the exit status
    is the other files'."""
    (tmp_path / "src").mkdir()
    os.mkfifo(tmp_path / "src" / "pipe.py")
    (tmp_path / "src" / "zero.py").symlink_to("/dev/zero")
    (tmp_path / "src" / "ok.py").write_text(SOURCE)
    os.mkfifo(tmp_path / "named.py")
    proc = run("--isolated", "src", "named.py", "/dev/zero", cwd=tmp_path, timeout=60)
    assert (proc.returncode, lines(proc.stdout)) == (1, [f"src/ok.py:5:5: {TRF001}"])
    assert lines(proc.stderr) == [
        "flake8-taskref: /dev/zero: skipped: a character device, not a regular file",
        "flake8-taskref: named.py: skipped: a named pipe (FIFO), not a regular file",
        "flake8-taskref: src/pipe.py: skipped: a named pipe (FIFO), not a regular file",
        "flake8-taskref: src/zero.py: skipped: a character device, not a regular file",
    ]
    proc = run("--isolated", "--fix", "named.py", "src/pipe.py", cwd=tmp_path, timeout=60)
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert lines(proc.stderr) == [
        "flake8-taskref: named.py: skipped: a named pipe (FIFO), not a regular file",
        "flake8-taskref: src/pipe.py: skipped: a named pipe (FIFO), not a regular file",
        "fixed 0 of 0 findings in 0 files",
    ]


def test_the_read_itself_refuses_a_named_pipe(tmp_path: Path) -> None:
    """A path that became a FIFO after the walk looked at it is refused by the
    read, which opens it without waiting for a writer and reads nothing."""
    from flake8_taskref.project.check import NotAFile, read_bytes

    os.mkfifo(tmp_path / "pipe.py")
    try:
        read_bytes(str(tmp_path / "pipe.py"))
    except NotAFile as exc:
        assert str(exc) == "a named pipe (FIFO)"
    else:  # pragma: no cover - the assertion
        raise AssertionError("read")


# --------------------------------------------- 7. a file named several ways
def test_a_file_named_several_ways_is_checked_and_reported_once(tmp_path: Path) -> None:
    """dup.py ./dup.py $PWD/dup.py: fixed once, but its findings from before
    the fix were printed again for the other two names."""
    (tmp_path / "dup.py").write_text(SOURCE)
    (tmp_path / "link.py").symlink_to("dup.py")
    names = ["dup.py", "./dup.py", str(tmp_path / "dup.py"), ".", "link.py",
             "../" + tmp_path.name + "/dup.py"]
    proc = run("--isolated", *names, cwd=tmp_path)
    assert (proc.returncode, lines(proc.stdout), proc.stderr) == (1, [f"dup.py:5:5: {TRF001}"], b"")
    proc = run("--isolated", "--fix", *names, cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, b""), proc.stderr
    assert lines(proc.stderr) == ["dup.py:5:5: fixed TRF001 (kept in _background_tasks)",
                                  "fixed 1 of 1 finding in 1 file"]
    assert (tmp_path / "dup.py").read_text() == FIXED


# ------------------------------------------------ 4. names in every output
def test_a_file_name_that_is_not_utf8_in_every_format(tmp_path: Path) -> None:
    """SARIF crashed with UnicodeEncodeError on such a name, and so did the
    default output on a strict UTF-8 stream: the name's bytes go out as they
    are, JSON shows them as backslash escapes, a SARIF URI percent-encodes them."""
    import json

    (tmp_path / "n").mkdir()
    (tmp_path / "n" / os.fsdecode(b"bad\xff.py")).write_text(SOURCE)
    strict = {"PYTHONIOENCODING": "utf-8"}
    proc = run("--isolated", "n", cwd=tmp_path, env=strict)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        1, b"n/bad\xff.py:5:5: " + TRF001.encode() + b"\n", b"")
    proc = run("--isolated", "--format", "sarif", "n", cwd=tmp_path, env=strict)
    assert proc.returncode == 1, proc.stderr
    results = json.loads(proc.stdout)["runs"][0]["results"]
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in results] == [
        {"uri": "n/bad%FF.py", "uriBaseId": "%SRCROOT%"}]
    proc = run("--isolated", "--format", "json", "n", cwd=tmp_path, env=strict)
    assert [r["filename"] for r in json.loads(proc.stdout)] == ["n/bad\\xff.py"]
    proc = run("--isolated", "--fix", "n", cwd=tmp_path, env=strict)
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert proc.stderr == (b"n/bad\xff.py:5:5: fixed TRF001 (kept in _background_tasks)\n"
                           b"fixed 1 of 1 finding in 1 file\n")


def test_a_non_ascii_name_on_an_ascii_stream(tmp_path: Path) -> None:
    """PYTHONIOENCODING=ascii and caf\u00e9.py: a UnicodeEncodeError traceback; now
    the characters the stream cannot take are backslash escapes."""
    (tmp_path / "caf\u00e9.py").write_text(SOURCE)
    ascii_only = {"PYTHONIOENCODING": "ascii"}
    proc = run("--isolated", "--statistics", "caf\u00e9.py", "gone-\u00e9.py", cwd=tmp_path, env=ascii_only)
    missing = "E902 FileNotFoundError: [Errno 2] No such file or directory: 'gone-\\xe9.py'"
    assert (proc.returncode, lines(proc.stdout), lines(proc.stderr)) == (2, [
        f"caf\\xe9.py:5:5: {TRF001}", f"gone-\\xe9.py:0:1: {missing}",
        f"1     {missing}", f"1     {TRF001}"],
        ["flake8-taskref: error: gone-\\xe9.py: no such file or folder (named on the command line)"])
    proc = run("--isolated", "--fix", "caf\u00e9.py", cwd=tmp_path, env=ascii_only)
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert lines(proc.stderr) == ["caf\\xe9.py:5:5: fixed TRF001 (kept in _background_tasks)",
                                  "fixed 1 of 1 finding in 1 file"]


def test_sarif_rules_describe_themselves_without_templates(tmp_path: Path) -> None:
    """fullDescription showed the raw message templates ({what}, {call})."""
    import json

    proc = run("--isolated", "--format", "sarif", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rules = json.loads(proc.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == ["TRF001", "TRF002", "TRF003", "TRF004", "TRF005", "TRF006",
                                              "TRF007", "TRF008", "TRF009", "TRF010", "E902", "E999"]
    for rule in rules:
        for text in (rule["shortDescription"]["text"], rule["fullDescription"]["text"]):
            assert "{" not in text and "}" not in text and text.endswith("."), (rule["id"], text)
        assert rule["fullDescription"]["text"] != rule["shortDescription"]["text"]
    assert rules[0]["fullDescription"]["text"].startswith(
        "A call creates an asyncio task (asyncio.create_task()")


# ------------------------------------------------------- 5. flake8's colours
COLOURED = "%(bold)s%(path)s%(reset)s:%(row)d:%(col)d: %(bold)s%(red)s%(code)s%(reset)s %(text)s"


def test_flake8s_colour_keys_in_a_format_as_flake8_fills_them(tmp_path: Path) -> None:
    """--format '%(bold)s%(path)s%(reset)s:...' exited 2; flake8 takes it:
    colours with --color always, none where the output is not a terminal."""
    (tmp_path / "a.py").write_text(SOURCE)
    for args in (["--format", COLOURED], ["--color", "always", "--format", COLOURED],
                 ["--color", "always"], ["--color", "never", "--format", COLOURED]):
        mine = run("--isolated", *args, "a.py", cwd=tmp_path)
        theirs = subprocess.run(
            [sys.executable, "-m", "flake8", "--isolated", "--select", "TRF", *args, "a.py"],
            cwd=tmp_path, capture_output=True)
        assert (mine.returncode, mine.stdout, mine.stderr) == (1, theirs.stdout, b""), args
    assert run("--isolated", "--color", "always", "a.py", cwd=tmp_path).stdout == (
        b"\x1b[1ma.py\x1b[m\x1b[36m:\x1b[m5\x1b[36m:\x1b[m5\x1b[36m:\x1b[m \x1b[1m\x1b[31mTRF001\x1b[m "
        + MESSAGE.encode() + b"\n")


def test_colours_on_a_terminal_unless_no_color(tmp_path: Path) -> None:
    """--color auto (the default, as flake8's): colours where the output is a
    terminal, and not where NO_COLOR is set (as Ruff)."""
    import pty

    import pytest

    (tmp_path / "a.py").write_text(SOURCE)
    for env, want in (({}, b"\x1b[1ma.py\x1b[m:5\r\n"), ({"NO_COLOR": "1"}, b"a.py:5\r\n")):
        try:
            main, secondary = pty.openpty()
        except OSError as exc:  # a chroot without /dev/pts
            pytest.skip(f"no pseudo-terminal here: {exc}")
        assert SCRIPT is not None
        environment = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
        proc = subprocess.Popen(
            [SCRIPT, "--isolated", "--format", "%(bold)s%(path)s%(reset)s:%(row)d", "a.py"],
            cwd=tmp_path, env={**environment, **env}, stdout=secondary, stderr=subprocess.DEVNULL)
        os.close(secondary)
        assert proc.wait(timeout=120) == 1
        output = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the terminal closed
                break
            if not chunk:
                break
            output += chunk
        os.close(main)
        assert output == want, env


# ------------------------------------- 6. files Python refuses for their encoding
SPAWN = b"import asyncio\n\n\nasync def main():\n    asyncio.create_task(asyncio.sleep(1))\n"
ENCODINGS = {
    "unknown_cookie.py": b"# -*- coding: foobar -*-\n" + SPAWN,
    "wrong_cookie.py": b"# -*- coding: ascii -*-\n# caf\xc3\xa9\n" + SPAWN,
    "bom_and_cookie.py": b"\xef\xbb\xbf# -*- coding: latin-1 -*-\n" + SPAWN,
    "code_not_utf8.py": b"x = 'caf\xe9'\n" + SPAWN,
    "comment_not_utf8.py": b"# caf\xe9\n" + SPAWN,  # Python takes it: the bytes are in a comment
    "bom_comment_not_utf8.py": b"\xef\xbb\xbf# caf\xe9\n" + SPAWN,
    "ok.py": SPAWN,
}


def _python_refuses(data: bytes) -> Optional[SyntaxError]:
    try:
        compile(data, "<file>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        return exc
    return None


def test_files_python_refuses_for_their_encoding_are_one_e999(tmp_path: Path) -> None:
    """An unknown or wrong coding cookie, a byte-order mark with another
    cookie, code that is not UTF-8: TRF findings and no E999 (also under
    --check-syntax), and --fix failed with "the fixer failed:
    UnicodeDecodeError".  Each is now one E999 with Python's own message, and
    the run goes on; a file Python takes (bytes that are not UTF-8 in a comment,
    up to 3.13; 3.14 refuses those too) is checked as flake8 checks it, and
    --fix says why it leaves it."""
    from flake8_taskref.project.check import syntax_error

    for name, data in ENCODINGS.items():
        (tmp_path / name).write_bytes(data)
    refused = [  # the same on every Python
        "bom_and_cookie.py:1:1: E999 SyntaxError: encoding problem: iso-8859-1 with BOM",
        "unknown_cookie.py:1:1: E999 SyntaxError: unknown encoding: foobar",
        "wrong_cookie.py:1:1: E999 SyntaxError: 'ascii' codec can't decode byte 0xc3 in position 29: "
        "ordinal not in range(128)",
    ]
    taken: List[str] = []  # what this Python takes: checked as flake8 checks it
    for name in ("bom_comment_not_utf8.py", "code_not_utf8.py", "comment_not_utf8.py"):
        refusal = _python_refuses(ENCODINGS[name])
        if refusal is None:
            taken.append(f"{name}:6:5: {TRF001}")
        else:
            where = syntax_error(name, refusal)
            refused.append(f"{name}:{where.line}:{where.col}: E999 {where.text}")
    assert [line.split(":")[0] for line in taken] == (
        ["bom_comment_not_utf8.py", "comment_not_utf8.py"] if sys.version_info < (3, 14) else [])
    names = sorted(ENCODINGS)
    for args in ([], ["--check-syntax"]):
        proc = run("--isolated", *args, *names, cwd=tmp_path)
        assert (proc.returncode, proc.stderr) == (1, b"")
        assert lines(proc.stdout) == sorted([*refused, *taken, f"ok.py:5:5: {TRF001}"])
    if taken:  # what Python takes, flake8 reports as the command does
        theirs = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "TRF,E9",
                                 *[line.split(":")[0] for line in taken]],
                                cwd=tmp_path, capture_output=True, text=True)
        assert theirs.stdout.splitlines() == taken
    proc = run("--isolated", "--fix", *names, cwd=tmp_path)
    assert (proc.returncode, lines(proc.stdout)) == (1, sorted([*refused, *taken]))
    why = "its bytes are not utf-8 (byte 0xe9 on line 1); a fix is written in the file's encoding: " \
        "correct its bytes first"
    assert lines(proc.stderr) == [
        *[f"{line.split(':')[0]}:6:5: not fixed TRF001: {why}" for line in taken],
        "ok.py:5:5: fixed TRF001 (kept in _background_tasks)",
        f"fixed 1 of {1 + len(taken)} finding{'s' if taken else ''} in 1 file; "
        f"{'%d left, see above; ' % len(taken) if taken else ''}"
        f"{len(refused)} files not checked: cannot be read or parsed (E902, E999), see above",
    ]
    assert (tmp_path / "comment_not_utf8.py").read_bytes() == ENCODINGS["comment_not_utf8.py"]


def test_a_refused_encoding_without_a_spawner_only_with_check_syntax(tmp_path: Path) -> None:
    (tmp_path / "plain.py").write_bytes(b"# -*- coding: foobar -*-\nx = 1\n")
    assert run("--isolated", "plain.py", cwd=tmp_path).stdout == b""
    proc = run("--isolated", "--check-syntax", "plain.py", cwd=tmp_path)
    assert (proc.returncode, lines(proc.stdout)) == (
        1, ["plain.py:1:1: E999 SyntaxError: unknown encoding: foobar"])


# ---------------------------------------------------------- 15. docs nits
def test_a_file_of_another_user_is_not_called_read_only(tmp_path: Path) -> None:
    """A file with write bits that belongs to another user said "the file is
    read-only (Permission denied)": it is not read-only, this user may not
    write it."""
    import pwd
    import shutil as tools

    import pytest

    if os.geteuid() != 0 or tools.which("setpriv") is None:
        pytest.skip("needs root (to give the file away) and setpriv (to drop root's override)")
    target = tmp_path / "theirs.py"
    target.write_text(SOURCE)
    os.chown(target, 65534, 65534)
    target.chmod(0o644)
    tmp_path.chmod(0o755)
    known = 65534 in {entry.pw_uid for entry in pwd.getpwall()}
    owner = f"{pwd.getpwuid(65534).pw_name} (uid 65534)" if known else "uid 65534"
    assert SCRIPT is not None
    unprivileged = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
    proc = subprocess.run([*unprivileged, SCRIPT, "--isolated", "--fix", "theirs.py"], cwd=tmp_path,
                          capture_output=True, timeout=120)
    assert (proc.returncode, lines(proc.stdout)) == (1, [f"theirs.py:5:5: {TRF001}"])
    assert lines(proc.stderr) == [
        "theirs.py:5:5: not fixed TRF001: not written: this user may not write the file (Permission denied; "
        f"its owner is {owner}, its mode 0644)",
        "fixed 0 of 1 finding in 0 files; 1 left, see above",
    ]
    assert target.read_text() == SOURCE
