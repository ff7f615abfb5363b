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

SOURCE = "import asyncio\n\n\nasync def main():\n    asyncio.create_task(main())\n"
TWO = (
    "import asyncio\n\n\nasync def main():\n    asyncio.create_task(main())\n"
    "    t = asyncio.create_task(main())\n"
)
FIXED = (
    "import asyncio\n\n_background_tasks: \"set[asyncio.Task[object]]\" = set()\n\n\nasync def main():\n"
    "    main_task = asyncio.create_task(main())\n    _background_tasks.add(main_task)\n"
    "    main_task.add_done_callback(_background_tasks.discard)\n"
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
