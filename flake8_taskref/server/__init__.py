"""``flake8-taskref server``: a Language Server (LSP over stdio) for editors.

A face of its own, beside the flake8 plugin, the command and the pytest
option: it uses the analysis, the project view (``project/``: configuration,
``# noqa``, the check of one file) and the fixer (``fix/``), and none of the
other faces.  ``documents`` holds the editor's texts and positions,
``checking`` computes a document's findings (the one place), ``fixes`` what
its code actions change, and ``lsp`` speaks the protocol (pygls, lsprotocol).
It needs the ``[server]`` extra: pygls, lsprotocol and Black (for the fixes).
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
from typing import List, Optional, Sequence

__all__ = ["main", "missing"]

PROG = "flake8-taskref server"
NEEDED = ("pygls", "lsprotocol", "black")


def missing() -> List[str]:
    """The modules of the ``[server]`` extra that cannot be imported."""
    absent = []
    for name in NEEDED:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # hidden, or a broken installation
            found = False
        if not found:
            absent.append(name)
    return absent


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Serve one editor over stdin and stdout; the exit status."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="A Language Server over stdin and stdout: flake8-taskref's diagnostics as you type "
        "and its fixes as code actions (needs flake8-taskref[server]).",
    )
    parser.parse_args(argv)
    absent = missing()
    if absent:
        names = " and ".join([", ".join(absent[:-1]), absent[-1]] if len(absent) > 1 else absent)
        verb = "is" if len(absent) == 1 else "are"
        sys.stderr.write(
            f"flake8-taskref: error: server: {names} {verb} not installed: "
            "pip install 'flake8-taskref[server]'\n"
        )
        return 2
    from flake8_taskref.server.lsp import TaskRefServer

    return TaskRefServer().serve()
