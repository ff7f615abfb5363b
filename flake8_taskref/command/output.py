"""How the ``flake8-taskref`` command prints its findings.

* ``default``: flake8's ``path:row:col: CODE message`` (editors' and CI's
  problem matchers read it); ``pylint``: flake8's ``path:row: [CODE] message``;
  any other ``%(path)s``-style string: formatted as flake8 formats it.
* ``json``: a list of objects, one per finding.
* ``sarif``: SARIF 2.1.0, as GitHub code scanning takes it.
* E902 (a path that cannot be read) and E999 (a file that cannot be parsed)
  are findings like the others, in every format; they are named as Ruff names
  them (``io-error``, ``syntax-error``) and have a rule of their own in SARIF.
* ``--statistics`` and ``--count`` as in flake8.
"""
from __future__ import annotations

import os
from collections import Counter
from typing import Any, Dict, List, Sequence

from flake8_taskref import __version__
from flake8_taskref.analysis.messages import DOCS_URL, MESSAGES, NAMES, SUMMARIES
from flake8_taskref.project.check import IO_ERROR, SYNTAX_ERROR, Finding

__all__ = ["MACHINE_FORMATS", "render", "statistics"]

MACHINE_FORMATS = ("json", "sarif")  # one document: no --statistics or --count after it

_COMMAND_URL = DOCS_URL.split("rules/", 1)[0] + "command/#files-that-cannot-be-read-or-parsed"
# code: (name, short description, full description) of the findings that are not the plugin's
_FILE_RULES = {
    IO_ERROR: ("io-error", "The file cannot be read.",
               "A path to check cannot be read (it does not exist, cannot be listed or opened); "
               "flake8's and Ruff's E902."),
    SYNTAX_ERROR: ("syntax-error", "The file cannot be parsed.",
                   "The file does not parse, or is nested too deeply to parse or analyse; flake8's E999."),
}

_FORMATS = {
    "default": "%(path)s:%(row)d:%(col)d: %(code)s %(text)s",
    "pylint": "%(path)s:%(row)d: [%(code)s] %(text)s",
}


def render(findings: Sequence[Finding], output_format: str, root: str) -> str:
    """All findings in one format (with a trailing newline when not empty)."""
    if output_format in MACHINE_FORMATS:
        import json  # only for these formats (with pathlib and urllib for SARIF)

        if output_format == "json":
            return json.dumps([_json(finding) for finding in findings], indent=2) + "\n"
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
        "name": NAMES[finding.code] if finding.code in NAMES else _FILE_RULES[finding.code][0],
        "message": finding.text,
        "url": DOCS_URL.format(code=finding.code) if finding.code in MESSAGES else _COMMAND_URL,
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
    from pathlib import Path
    from urllib.parse import quote

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
    from pathlib import Path

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
    ] + [
        {
            "id": code,
            "name": name,
            "shortDescription": {"text": short},
            "fullDescription": {"text": full},
            "helpUri": _COMMAND_URL,
            "defaultConfiguration": {"level": "error"},
        }
        for code, (name, short, full) in sorted(_FILE_RULES.items())
    ]
    index = {rule["id"]: number for number, rule in enumerate(rules)}
    results: List[Dict[str, Any]] = []
    for finding in findings:
        result: Dict[str, Any] = {
            "ruleId": finding.code,
            "level": "error" if finding.code in _FILE_RULES else "warning",
            "message": {"text": finding.text},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": _location(finding.path, root),
                        # SARIF counts from 1: E902's line 0 (flake8's) is line 1 here, as in Ruff
                        "region": {
                            "startLine": max(finding.line, 1), "startColumn": max(finding.char_col, 1)
                        },
                    }
                }
            ],
        }
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
