"""The suite's own set-up (tests/conftest.py): every process of one test run
signs the cache with one key.  With a key per pytest-xdist worker, each
worker's cache entries were unreadable to the other, every run of the tool
in a test started cold, and the suite took twice as long (2026-12-06: 481 s
against 271 s on two cores)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness import REPO


def test_every_worker_of_a_run_has_the_same_key_folder(tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    seen = tmp_path / "seen"
    seen.mkdir()
    body = "import os\n\n"
    for n in range(8):
        body += (
            f"\ndef test_{n}():\n"
            "    folder = os.environ['FLAKE8_TASKREF_KEY_DIR']\n"
            "    assert os.path.isdir(folder)\n"
            "    worker = os.environ.get('PYTEST_XDIST_WORKER', 'main')\n"
            f"    with open(os.path.join({str(seen)!r}, worker + '-{n}'), 'w') as out:\n"
            "        out.write(folder)\n"
        )
    (tmp_path / "test_probe.py").write_text(body, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "FLAKE8_TASKREF_KEY_DIR"}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
         "-n", "2", "--rootdir", str(tmp_path), "-c", os.devnull, str(tmp_path / "test_probe.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    records = {path.name: path.read_text(encoding="utf-8") for path in seen.iterdir()}
    workers = {name.split("-")[0] for name in records}
    assert workers == {"gw0", "gw1"}, records
    folders = set(records.values())
    assert len(folders) == 1, records
    # the run's folder is removed at its end, by the process that made it
    assert not os.path.exists(folders.pop())
