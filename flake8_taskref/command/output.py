"""How the ``flake8-taskref`` command prints its findings.

* ``default``: flake8's ``path:row:col: CODE message`` (editors' and CI's
  problem matchers read it); ``pylint``: flake8's ``path:row: [CODE] message``;
  any other ``%(path)s``-style string: formatted as flake8 formats it.
* ``json``: a list of objects, one per finding.
* ``sarif``: SARIF 2.1.0, as GitHub code scanning takes it.
* ``--statistics`` and ``--count`` as in flake8.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List, Sequence
from urllib.parse import quote

from flake8_taskref import __version__
from flake8_taskref.analysis.messages import DOCS_URL, MESSAGES, NAMES, SUMMARIES
from flake8_taskref.command.runner import SYNTAX_ERROR, Finding

__all__ = ["MACHINE_FORMATS", "render", "statistics"]

MACHINE_FORMATS = ("json", "sarif")  # one document: no --statistics or --count after it

_FORMATS = {
    "default": "%(path)s:%(row)d:%(col)d: %(code)s %(text)s",
    "pylint": "%(path)s:%(row)d: [%(code)s] %(text)s",
}


def render(findings: Sequence[Finding], output_format: str, root: str) -> str:
    """All findings in one format (with a trailing newline when not empty)."""
    if output_format == "json":
        return json.dumps([_json(finding) for finding in findings], indent=2) + "\n"
    if output_format == "sarif":
        return json.dumps(sarif(findings, root), indent=2) + "\n"
    template = _FORMATS.get(output_format, output_format)
    return "".join(
        template % {"path": f.path, "row": f.line, "col": f.col, "code": f.code, "text": f.text} + "\n"
        for f in findings
    )


def _json(finding: Finding) -> Dict[str, Any]:
    return {
        "filename": finding.path,
        "line": finding.line,
        "column": finding.col,
        "code": finding.code,
        "name": NAMES.get(finding.code, "syntax-error"),
        "message": finding.text,
        "url": DOCS_URL.format(code=finding.code) if finding.code in MESSAGES else None,
    }


def statistics(findings: Sequence[Finding]) -> str:
    """flake8's ``--statistics``: per code, its count and the first message."""
    counts = Counter(finding.code for finding in findings)
    first: Dict[str, str] = {}
    for finding in sorted(findings, key=lambda f: (f.code, f.path)):
        first.setdefault(finding.code, finding.text)
    return "".join(f"{counts[code]:<5} {code} {first[code]}\n" for code in sorted(counts))


def _location(path: str, root: str) -> Dict[str, str]:
    """A file below the root: a URI relative to %SRCROOT%; elsewhere an absolute one."""
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute, root)
    except ValueError:  # another drive on Windows
        relative = ".."
    if relative.startswith(".."):
        return {"uri": Path(absolute).as_uri()}
    return {"uri": quote(relative.replace(os.sep, "/")), "uriBaseId": "%SRCROOT%"}


def sarif(findings: Sequence[Finding], root: str) -> Dict[str, Any]:
    """A SARIF 2.1.0 log: every rule in the driver, one result per finding,
    file URIs relative to ``root`` (``%SRCROOT%``)."""
    rules: List[Dict[str, Any]] = [
        {
            "id": code,
            "name": NAMES[code],
            "shortDescription": {"text": SUMMARIES[code]},
            "fullDescription": {"text": MESSAGES[code][len(code) + 1:]},
            "helpUri": DOCS_URL.format(code=code),
            "defaultConfiguration": {"level": "warning"},
        }
        for code in sorted(MESSAGES)
    ]
    index = {rule["id"]: number for number, rule in enumerate(rules)}
    results: List[Dict[str, Any]] = []
    for finding in findings:
        result: Dict[str, Any] = {
            "ruleId": finding.code,
            "level": "error" if finding.code == SYNTAX_ERROR else "warning",
            "message": {"text": finding.text},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": _location(finding.path, root),
                        "region": {"startLine": finding.line, "startColumn": finding.char_col},
                    }
                }
            ],
        }
        if finding.code in index:
            result["ruleIndex"] = index[finding.code]
        results.append(result)
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "flake8-taskref",
                        "version": __version__,
                        "informationUri": DOCS_URL.split("rules/", 1)[0],
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": Path(root).as_uri().rstrip("/") + "/"}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
