"""How the ``flake8-taskref`` command prints its findings.

* ``default``: flake8's ``path:row:col: CODE message`` (editors' and CI's
  problem matchers read it), in flake8's colours on a terminal; ``pylint``:
  flake8's ``path:row: [CODE] message``; any other ``%(path)s``-style string:
  formatted as flake8 formats it, with its colour keys (``%(bold)s``, ...).
* ``json``: a list of objects, one per finding.
* ``sarif``: SARIF 2.1.0, as GitHub code scanning takes it.
* E902 (a path that cannot be read) and E999 (a file that cannot be parsed)
  are findings like the others, in every format; they are named as Ruff names
  them (``io-error``, ``syntax-error``) and have a rule of their own in SARIF.
* ``--statistics`` and ``--count`` as in flake8.
* File names as the system gives them: written to a stream whatever its
  encoding (``write``: the bytes of a name that is not UTF-8 as they are,
  other characters the stream cannot encode as backslash escapes); JSON and
  SARIF are ASCII, a SARIF URI holds the name's bytes percent-encoded.
"""
from __future__ import annotations

import codecs
import os
from collections import Counter
from typing import Any, Dict, List, Sequence, TextIO, Tuple, Union

from flake8_taskref import __version__
from flake8_taskref.analysis.messages import DOCS_URL, MESSAGES, NAMES, SUMMARIES
from flake8_taskref.project.check import IO_ERROR, SYNTAX_ERROR, Finding
from flake8_taskref.project.flake8_parts import COLORS, COLORS_OFF, DEFAULT_FORMAT

__all__ = ["MACHINE_FORMATS", "render", "statistics", "write"]

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

# The rules' full descriptions in SARIF: the messages with their parts in general words.
_FULL_DESCRIPTIONS = {
    "TRF001": "A call creates an asyncio task (asyncio.create_task(), loop.create_task(), "
              "asyncio.ensure_future(), an unawaited asyncio.gather(), a configured spawner) and "
              "its handle is thrown away at once. The event loop keeps only a weak reference to a "
              "task, so the task can be garbage-collected while it still runs. Keep a reference "
              "(e.g. a set with add_done_callback(set.discard)).",
    "TRF002": "A task's handle is bound to a local name, or put in a local collection, that never "
              "leaves the function, so it dies with the frame while the task may still run. Keep a "
              "reference (e.g. a set with add_done_callback(set.discard)) or await it.",
    "TRF003": "A timeout (asyncio.wait_for(), asyncio.timeout(), asyncio.timeout_at() or a configured "
              "one) can unwind the frame while a task is held only by a local. Cancel and await the "
              "task in 'finally', keep it in a set, or wait on both with asyncio.wait().",
    "TRF004": "asyncio.shield() of a new task, of a coroutine or of a task held only by a local keeps "
              "no reference to the shielded task: once the code awaiting it is cancelled, the task "
              "can be garbage-collected. Store the task (e.g. in a set with "
              "add_done_callback(set.discard)) and shield the stored task.",
    "TRF005": "The pending tasks of asyncio.wait() with a timeout or return_when are dropped while "
              "the tasks are held only by locals. Cancel, await or store the 'pending' set it returns.",
    "TRF006": "Tasks are added to a long-lived collection (an attribute of self or cls, a module-level "
              "name) that nothing removes from, so it keeps every task it was given, finished or not. "
              "Remove each task when it is done (e.g. task.add_done_callback(collection.discard)).",
    "TRF007": "A task awaited, gathered, cancelled or kept on the usual path is still pending, held "
              "only by a local, at an explicit return, raise or break on another path, and the frame "
              "ends. Await or cancel it on that path too, or keep a reference (e.g. a set with "
              "add_done_callback(set.discard)).",
    "TRF008": "An awaited asyncio.gather() without return_exceptions raises at the first failure "
              "while the other tasks the function made run on, held only by its locals. Cancel and "
              "await them in 'finally', or use an asyncio.TaskGroup (off by default).",
    "TRF009": "A task kept in an attribute or a local is cancelled and the attribute cleared (or the "
              "local dropped) at once, while the task's coroutine waits again in its 'finally' or "
              "cancellation handler: cancel() only asks, and once it is dropped nothing holds the task "
              "while it waits. Await it after cancel(), or keep a reference until it is done.",
    "TRF010": "An awaited asyncio.wait() is cancelled with the function (its caller's timeout, a "
              "shutdown), but it does not cancel the tasks it waits on: those the function holds only "
              "in locals run on, held by nobody. Cancel them in 'finally', or use an asyncio.TaskGroup "
              "(off by default).",
}

_FORMATS = {
    "default": DEFAULT_FORMAT,  # without colours: "%(path)s:%(row)d:%(col)d: %(code)s %(text)s"
    "pylint": "%(path)s:%(row)d: [%(code)s] %(text)s",
}


def render(findings: Sequence[Finding], output_format: str, root: str, color: bool = False) -> str:
    """All findings in one format (with a trailing newline when not empty);
    ``color``: fill flake8's colour keys (``%(bold)s``, ``%(reset)s``, ...)."""
    if output_format in MACHINE_FORMATS:
        import json  # only for these formats (with pathlib and urllib for SARIF)

        if output_format == "json":
            return json.dumps([_json(finding) for finding in findings], indent=2) + "\n"
        return json.dumps(sarif(findings, root), indent=2) + "\n"
    template = _FORMATS.get(output_format, output_format)
    colors = COLORS if color else COLORS_OFF
    return "".join(
        template % {"path": f.path, "row": f.line, "col": f.col, "code": f.code, "text": f.text, **colors}
        + "\n" for f in findings
    )


def _shown(name: str) -> str:
    """A file name as text that every JSON reader takes: the bytes of a name
    that is not UTF-8 (surrogate escapes) as backslash escapes (``bad\\xff.py``)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(name).decode("utf-8", "backslashreplace")
    return name


def _json(finding: Finding) -> Dict[str, Any]:
    return {
        "filename": _shown(finding.path),
        "line": finding.line,
        "column": finding.col,
        "code": finding.code,
        "name": NAMES[finding.code] if finding.code in NAMES else _FILE_RULES[finding.code][0],
        "message": _shown(finding.text),
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
    from urllib.parse import quote

    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute, root)
    except ValueError:  # another drive on Windows
        relative = ".."
    if relative.startswith(".."):
        return {"uri": _file_uri(absolute)}
    # the name's bytes, percent-encoded (UTF-8 for a name the system gives as text)
    return {"uri": quote(os.fsencode(relative.replace(os.sep, "/"))), "uriBaseId": "%SRCROOT%"}


def _file_uri(absolute: str) -> str:
    """``Path(absolute).as_uri()``, for a name that is not UTF-8 too."""
    from pathlib import Path
    from urllib.parse import quote

    if os.name == "nt":  # pragma: no cover - Windows names are text
        return Path(absolute).as_uri()
    return "file://" + quote(os.fsencode(absolute))


def sarif(findings: Sequence[Finding], root: str) -> Dict[str, Any]:
    """A SARIF 2.1.0 log: every rule in the driver, one result per finding,
    file URIs relative to ``root`` (``%SRCROOT%``)."""
    rules: List[Dict[str, Any]] = [
        {
            "id": code,
            "name": NAMES[code],
            "shortDescription": {"text": SUMMARIES[code]},
            "fullDescription": {"text": _FULL_DESCRIPTIONS[code]},
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
            "message": {"text": _shown(finding.text)},
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
        if finding.related is not None:  # the spawner or coroutine of another module
            file, line = finding.related
            result["relatedLocations"] = [{
                "id": 1,
                "physicalLocation": {
                    "artifactLocation": _location(file, root), "region": {"startLine": line},
                },
                "message": {"text": "defined here"},
            }]
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
                "originalUriBaseIds": {"%SRCROOT%": {"uri": _file_uri(root).rstrip("/") + "/"}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


# ------------------------------------------------------------------ writing
_ERRORS = "flake8-taskref-names"


def _unencodable(exc: UnicodeError) -> Tuple[Union[str, bytes], int]:
    """The encoding error handler of ``write``: a surrogate escape (a byte of a
    file name that is not UTF-8) as that byte, any other character the
    encoding cannot take as a backslash escape."""
    if not isinstance(exc, UnicodeEncodeError):  # pragma: no cover - only encoding uses it
        raise exc
    out = b""
    for char in exc.object[exc.start:exc.end]:
        code = ord(char)
        escaped = 0xDC80 <= code <= 0xDCFF
        out += bytes((code - 0xDC00,)) if escaped else char.encode("ascii", "backslashreplace")
    return out, exc.end


codecs.register_error(_ERRORS, _unencodable)


def write(stream: TextIO, text: str) -> None:
    """``stream.write(text)``, also where the stream's encoding cannot take a
    character of a file name (``PYTHONIOENCODING=ascii``, a name that is not
    UTF-8): those go out as their bytes or as backslash escapes, not as a
    UnicodeEncodeError."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        data = text.encode(encoding, _ERRORS)
    except LookupError:  # pragma: no cover - a stream with an encoding Python does not know
        data = text.encode("utf-8", _ERRORS)
    else:
        stream.write(text)
        return
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # pragma: no cover - a text stream without bytes under it
        stream.write(data.decode(encoding, "replace"))
        return
    stream.flush()
    buffer.write(data)
    buffer.flush()
