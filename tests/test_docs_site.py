"""The documentation site: it builds with warnings as errors, and the recipes on its
pages (the configuration example, the migration one-liner, side-by-side noqa) do
what the pages say, through the real flake8."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Set, Tuple

import pytest

from flake8_taskref.analysis.messages import MESSAGES
from tests.harness import REPO, flake8

DOCS = REPO / "docs"


def _block(page: str, language: str, containing: str) -> str:
    """The one ```language block of a docs page that contains ``containing``."""
    text = (DOCS / page).read_text(encoding="utf-8")
    blocks = [b for b in re.findall(rf"^```{language}\n(.*?)^```", text, re.M | re.S)
              if containing in b]
    assert len(blocks) == 1, (page, language, containing)
    return blocks[0]


def test_site_builds_strictly(tmp_path: Path) -> None:
    """`mkdocs build --strict` (what `tox -e docs` runs) passes; about 2 s, so it is
    part of the default suite.  Every rule page and the search index are in the site."""
    site = tmp_path / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "WARNING" not in proc.stderr, proc.stderr
    for code in MESSAGES:
        page = (site / "rules" / code / "index.html").read_text(encoding="utf-8")
        assert f">{code} " in page
    index = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert all(code in index for code in MESSAGES)
    # docs/changelog.md includes CHANGELOG.md
    changelog = (site / "changelog" / "index.html").read_text(encoding="utf-8")
    assert "TRF001" in changelog and "--8&lt;--" not in changelog


def test_tox_builds_the_docs_strictly() -> None:
    tox = (REPO / "tox.ini").read_text(encoding="utf-8")
    section = tox.split("[testenv:docs]", 1)[1].split("\n[", 1)[0]
    assert "extras = docs" in section
    assert re.search(r"^commands = python -m mkdocs build --strict\b", section, re.M)


def _findings(stdout: str) -> Set[Tuple[str, int, str]]:
    found = set()
    for line in stdout.splitlines():
        path, row, _, rest = line.split(":", 3)
        code = rest.split()[0]
        if code.startswith("TRF"):
            found.add((Path(path).as_posix().lstrip("./"), int(row), code))
    return found


CONFIGURED = '''\
import asyncio

import async_timeout
from myapp.tasks import spawn


class Worker:
    def __init__(self, ioloop) -> None:
        self.ioloop = ioloop
        self._tasks = set()

    def start(self, job) -> None:
        spawn(job())
        self.ioloop.create_task(job())
        self._tasks.add(asyncio.create_task(job()))

    async def fetch(self, job, arrival):
        helper = asyncio.create_task(job())
        async with async_timeout.timeout(5):
            data = await arrival
        await helper
        return data
'''


def test_configuration_example_takes_effect(tmp_path: Path) -> None:
    """The complete example of docs/configuration.md, as setup.cfg: each of its
    options changes what is reported."""
    config = _block("configuration.md", "ini", "taskref-spawners")
    (tmp_path / "setup.cfg").write_text(config, encoding="utf-8")
    (tmp_path / "worker.py").write_text(CONFIGURED, encoding="utf-8")
    (tmp_path / "tests").mkdir()
    unkept = "import asyncio\n\n\nasync def f(job):\n    t = asyncio.create_task(job())\n"
    (tmp_path / "tests" / "test_w.py").write_text(unkept, encoding="utf-8")
    (tmp_path / "other.py").write_text(unkept, encoding="utf-8")
    args = ["--select", "TRF", "--extend-select", "TRF006", "."]
    configured = flake8(args, cwd=tmp_path)
    assert configured.returncode == 1, configured.stderr
    assert _findings(configured.stdout) == {
        ("worker.py", 13, "TRF001"),   # taskref-spawners
        ("worker.py", 14, "TRF001"),   # taskref-loop-names (ioloop)
        ("worker.py", 15, "TRF006"),   # extend-select = TRF006
        ("worker.py", 19, "TRF003"),   # taskref-timeouts
        ("other.py", 5, "TRF002"),     # per-file-ignores leaves other files alone
    }
    plain = flake8(["--isolated", *args], cwd=tmp_path)
    assert _findings(plain.stdout) == {
        ("worker.py", 15, "TRF006"),
        ("tests/test_w.py", 5, "TRF002"),
        ("other.py", 5, "TRF002"),
    }


NOQA_FILE = '''\
import asyncio


async def serve(heartbeat, job):
    asyncio.create_task(heartbeat())  # noqa: RUF006
    task = asyncio.create_task(job())  # noqa: RUF006
    await task
    asyncio.create_task(job())  # noqa: RUF006, TRF001
'''


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"})


@pytest.mark.skipif(shutil.which("git") is None or shutil.which("comm") is None,
                    reason="needs git and comm")
def test_migration_one_liner(tmp_path: Path) -> None:
    """The one-liner of docs/migration.md lists the `noqa: RUF006` lines we report
    too; `comm -23` the ones we do not; `noqa: RUF006, TRF001` silences both tools."""
    command = _block("migration.md", "sh", "git grep").strip()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "serve.py").write_text(NOQA_FILE, encoding="utf-8")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True,
                          text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    # line 8 (noqa: RUF006, TRF001) names our code already: not listed as needing it
    assert proc.stdout.splitlines() == ["pkg/serve.py:5"]
    ours_not = subprocess.run(["comm", "-23", "ruf006.txt", "trf.txt"], cwd=tmp_path,
                              capture_output=True, text=True, check=True)
    assert ours_not.stdout.splitlines() == ["pkg/serve.py:6"]
    # With noqa honoured, only line 5 (RUF006 alone) is reported by us.
    honoured = flake8(["--isolated", "--select", "TRF", "pkg/serve.py"], cwd=tmp_path)
    assert _findings(honoured.stdout) == {("pkg/serve.py", 5, "TRF001")}


def test_docs_pin_the_current_version() -> None:
    """The pinned versions in the recipes and the CHANGELOG's newest entry are
    the package's version; until it is released (no tag, nothing on PyPI) every
    install and pre-commit recipe installs from the repository at a commit."""
    from flake8_taskref import __version__

    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    newest = re.search(r"^## (\S+)", changelog, re.M)
    assert newest is not None and newest.group(1) == __version__
    pins: List[str] = []
    for page in ("pre-commit.md", "ci.md"):
        pins += re.findall(r"flake8-taskref==([\w.]+)", (DOCS / page).read_text(encoding="utf-8"))
    assert pins and set(pins) == {__version__}
    readme_pins = re.findall(r"flake8-taskref==([\w.]+)", (REPO / "README.md").read_text(encoding="utf-8"))
    assert set(readme_pins) <= {__version__}
    from_repository = "git+https://github.com/flake8-taskref/flake8-taskref@COMMIT"
    for page in ("index.md", "installation.md", "pre-commit.md", "ci.md"):
        text = (DOCS / page).read_text(encoding="utf-8")
        assert from_repository in text, page
        for line in text.splitlines():  # every install names a commit, or the release
            if re.search(r"pipx? (install|inject)\b.*flake8-taskref", line):
                assert "git+" in line or re.search(r"flake8-taskref(\[\w+\])?==", line), (page, line)
        assert "rev: v0.1.0\n" not in text, page
    assert from_repository in (REPO / "README.md").read_text(encoding="utf-8")
