"""The project lints clean with itself, with flake8's defaults and with mypy --strict."""
from __future__ import annotations

import subprocess
import sys

from tests.harness import REPO, flake8

OWN_CODE = ["flake8_taskref", "tests", "benchmarks"]  # setup.cfg excludes tests/data


def test_no_taskref_findings_in_own_code() -> None:
    proc = flake8(["--isolated", "--select", "TRF", "--extend-select", "TRF006",
                   "flake8_taskref", "tests", "benchmarks", "--exclude", "tests/data"], cwd=REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_flake8_clean_with_project_config() -> None:
    proc = flake8(OWN_CODE, cwd=REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "flake8_taskref"],
                          cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
