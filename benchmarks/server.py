"""``flake8-taskref server``: how soon an edit's diagnostics arrive (issue 26).

    python benchmarks/server.py [--changes 40] [--lines 1000 5000] [--json out.json]

The server runs as an editor runs it (``flake8-taskref server`` beside this
Python, over pipes); this script is the editor, a bare JSON-RPC client with a
reader thread, so that the client's own work is a few microseconds a message.
For each size, a synthetic module of that many lines (``bench.synthetic_module``:
the growth benchmark's asyncio snippet repeated, two findings every 50 lines,
all of them TRF001/TRF002 the fixer can fix) is opened in a project folder, and:

1. *Open*: ``didOpen`` to its ``publishDiagnostics``.
2. *Edit*: ``changes`` edits, each a character typed into (or deleted from) a
   line in the middle of the file, one at a time, each once the server has been
   quiet for a second (its whole fix, which runs after ``FIX_DELAY`` of quiet,
   is done): ``didChange`` to the ``publishDiagnostics`` of that version.
   Target: at most 100 ms for 1,000 lines.  The server waits ``CHANGE_DELAY``
   (25 ms) after an edit before it checks, so that a burst of edits is checked
   once: that wait is part of the figure.
3. *Typing*: a burst of 20 characters typed 30 ms apart: the publications the
   server sends for them, and the time from the last keystroke to the
   diagnostics of its version.
4. *In process*: ``server.checking.check_document`` on the same text (the
   check alone, best of 5), for comparison.
5. *Code actions*, right after the diagnostics of a new version:
   ``source.fixAll.taskref`` resolved (the fixer on the file, and the edits
   made of its result), then the quick fixes at the first finding (the fixer
   run on that site in both forms).

Medians, 90th percentiles and maxima in milliseconds; the machine's load
average at the start and the end (a shared machine makes the maxima noisy).
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import synthetic_module  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


class Editor:
    """A bare LSP client over the server's pipes."""

    def __init__(self, argv: Sequence[str], cwd: Path) -> None:
        self.proc = subprocess.Popen(list(argv), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.messages: "queue.Queue[Dict[str, Any]]" = queue.Queue()
        self.log: List[Dict[str, Any]] = []  # every message, in order
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        stream = self.proc.stdout
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            message["_at"] = time.perf_counter()
            self.log.append(message)
            self.messages.put(message)

    def send(self, message: Dict[str, Any]) -> float:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.proc.stdin is not None
        at = time.perf_counter()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.proc.stdin.flush()
        return at

    def request(self, method: str, params: Any) -> Dict[str, Any]:
        self.next_id += 1
        ident = self.next_id
        self.send({"id": ident, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == ident and "method" not in m)

    def notify(self, method: str, params: Any) -> float:
        return self.send({"method": method, "params": params})

    def wait(self, match: Any, timeout: float = 60.0) -> Dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            if "method" in message and "id" in message:  # a request of the server's: answer it
                self.send({"id": message["id"], "result": None})
            if match(message):
                return message

    def drain(self) -> List[Dict[str, Any]]:
        found = []
        while True:
            try:
                found.append(self.messages.get_nowait())
            except queue.Empty:
                return found

    def close(self) -> int:
        self.request("shutdown", None)
        self.notify("exit", None)
        return self.proc.wait(timeout=30)


def published(uri: str, version: int) -> Any:
    def match(message: Dict[str, Any]) -> bool:
        params = message.get("params") or {}
        return (message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri
                and params.get("version") == version)
    return match


def _ms(values: Sequence[float]) -> Dict[str, float]:
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered) * 1000, 1),
        "p90": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))] * 1000, 1),
        "max": round(ordered[-1] * 1000, 1),
        "n": len(ordered),
    }


def _in_process(path: Path, text: str) -> float:
    from flake8_taskref.server.checking import Projects, check_document

    projects = Projects()
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        check_document(path.as_uri(), str(path), text, 1, projects, str(path.parent))
        best = min(best, time.perf_counter() - start)
    return best


def one_size(script: str, lines: int, changes: int, work: Path) -> Dict[str, Any]:
    folder = work / f"proj{lines}"
    folder.mkdir()
    (folder / "setup.cfg").write_text("[flake8]\nmax-line-length = 100\n", encoding="utf-8")
    text = synthetic_module(lines)
    path = folder / "service.py"
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    started = time.perf_counter()
    editor = Editor([script, "server"], folder)
    editor.request("initialize", {"processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": {
        "textDocument": {"codeAction": {"resolveSupport": {"properties": ["edit"]}}}}})
    initialized = time.perf_counter() - started
    editor.notify("initialized", {})
    at = editor.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": text}})
    first = editor.wait(published(uri, 1))
    opening = first["_at"] - at
    findings = len(first["params"]["diagnostics"])
    # one character at a time, in a line of the middle of the file (a comment, so
    # that the findings stay), typed then deleted
    middle = text.count("\n") // 2
    comment_line = next(i for i in range(middle, middle + 60) if text.splitlines()[i].strip() == "")
    version = 1
    latencies: List[float] = []
    for index in range(changes):
        time.sleep(1.0)
        editor.drain()
        version += 1
        if index % 2 == 0:
            change = {"range": {"start": {"line": comment_line, "character": 0},
                                "end": {"line": comment_line, "character": 0}}, "text": "#"}
        else:
            change = {"range": {"start": {"line": comment_line, "character": 0},
                                "end": {"line": comment_line, "character": 1}}, "text": ""}
        at = editor.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        message = editor.wait(published(uri, version))
        assert len(message["params"]["diagnostics"]) == findings
        latencies.append(message["_at"] - at)
    # a burst: 20 keystrokes 30 ms apart, typed into the comment line
    time.sleep(1.0)
    editor.drain()
    burst_start, logged = version, len(editor.log)
    for index in range(20):
        version += 1
        change = {"range": {"start": {"line": comment_line, "character": index},
                            "end": {"line": comment_line, "character": index}}, "text": "#"}
        last = editor.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        time.sleep(0.03)
    final = editor.wait(published(uri, version))
    burst_latency = final["_at"] - last
    time.sleep(0.5)
    sent = [m for m in editor.log[logged:] if m.get("method") == "textDocument/publishDiagnostics"
            and burst_start < (m["params"].get("version") or 0)]
    # code actions, the first request of their version: at the first finding, then the whole fix
    time.sleep(1.0)
    editor.drain()
    version += 1
    editor.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})
    diagnostics = editor.wait(published(uri, version))["params"]["diagnostics"]
    target = diagnostics[0]["range"]
    # the whole fix first: asked for right after the diagnostics, before the
    # server's own whole fix (FIX_DELAY after the check) has made it
    offered = editor.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": target,
        "context": {"diagnostics": [], "only": ["source.fixAll"]}})["result"]
    start = time.perf_counter()
    resolved = editor.request("codeAction/resolve", offered[0])
    resolve_time = time.perf_counter() - start
    edits = len(resolved["result"]["edit"]["changes"][uri])
    start = time.perf_counter()
    quick = editor.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": target,
        "context": {"diagnostics": [diagnostics[0]], "only": ["quickfix"]}})
    quick_time = time.perf_counter() - start
    titles = [action["title"] for action in quick["result"]]
    status = editor.close()
    return {
        "lines": text.count("\n"),
        "findings": findings,
        "start_to_initialized_ms": round(initialized * 1000, 1),
        "open_ms": round(opening * 1000, 1),
        "edit_ms": _ms(latencies),
        "burst": {"keystrokes": 20, "publications": len(sent),
                  "last_keystroke_ms": round(burst_latency * 1000, 1)},
        "in_process_check_ms": round(_in_process(path, text) * 1000, 1),
        "quick_fixes_ms": round(quick_time * 1000, 1),
        "quick_fix_titles": titles,
        "fix_all_resolve_ms": round(resolve_time * 1000, 1),
        "fix_all_edits": edits,
        "exit_status": status,
    }


def start_costs(runs: int) -> Dict[str, Any]:
    """What starting the server costs before it reads a message (issue 33):
    the wall time of ``python -c`` importing each part, best and median of
    ``runs`` (each part's figure includes the interpreter's start)."""
    parts = {
        "python -c pass": "pass",
        "asyncio, concurrent.futures": "import asyncio, concurrent.futures",
        "lsprotocol.types": "import lsprotocol.types",
        "pygls's server (with lsprotocol)": "import pygls.lsp.server",
        "flake8_taskref.server.lsp (all of it)": "import flake8_taskref.server.lsp",
    }
    found: Dict[str, Any] = {}
    for name, statement in parts.items():
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", statement], check=True)
            times.append((time.perf_counter() - started) * 1000)
        found[name] = {"best_ms": round(min(times), 1), "median_ms": round(statistics.median(times), 1)}
    return found


def first_diagnostics(script: str, runs: int, work: Path) -> Dict[str, Any]:
    """The server's start as an editor sees it (issue 33): from the process
    started to ``initialize`` answered, and to the diagnostics of a small
    document opened right after ``initialized`` (best and median of ``runs``)."""
    folder = work / "start"
    (folder / "app").mkdir(parents=True, exist_ok=True)
    (folder / "setup.cfg").write_text("[flake8]\n", encoding="utf-8")
    small = "import asyncio\n\n\nasync def main() -> None:\n    asyncio.create_task(main())\n"
    uri = (folder / "app" / "small.py").as_uri()
    initialized, diagnosed = [], []
    for _ in range(runs):
        started = time.perf_counter()
        editor = Editor([script, "server"], folder)
        editor.request("initialize", {"processId": os.getpid(), "rootUri": folder.as_uri(),
                                      "capabilities": {}})
        answered = time.perf_counter()
        editor.notify("initialized", {})
        editor.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": small}})
        at = editor.wait(published(uri, 1))["_at"]
        editor.close()
        initialized.append((answered - started) * 1000)
        diagnosed.append((at - started) * 1000)
    return {name: {"best_ms": round(min(times), 1), "median_ms": round(statistics.median(times), 1)}
            for name, times in (("start to initialize answered", initialized),
                                ("start to a small document's diagnostics", diagnosed))}


def big_document(script: str, lines: int, work: Path) -> Dict[str, Any]:
    """A big document opened, then a small one (issue 33): when the small
    one's diagnostics and a code action at its finding arrive, and when the
    big one's do; then the small one edited every 100 ms (a line typed) while
    the big one is checked and fixed, and for 3 s after its diagnostics: each
    edit's diagnostics, from its didChange (the wait for more edits included)."""
    folder = work / f"big{lines}"
    (folder / "app").mkdir(parents=True)
    (folder / "setup.cfg").write_text("[flake8]\n", encoding="utf-8")
    body = "".join(f"    value_{i} = compute({i}) + other(value_{max(i - 1, 0)})\n" for i in range(lines))
    big = "import asyncio\n\n\nasync def work() -> None:\n    asyncio.create_task(work())\n" + body
    small = "import asyncio\n\n\nasync def main() -> None:\n    asyncio.create_task(main())\n"
    editor = Editor([script, "server"], folder)
    editor.request("initialize", {"processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": {}})
    editor.notify("initialized", {})
    uris = {}
    for name, text in (("big.py", big), ("small.py", small)):
        uri = uris[name] = (folder / "app" / name).as_uri()
        opened = editor.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}})
        if name == "big.py":
            big_opened = opened
    small_published = editor.wait(published(uris["small.py"], 1))["_at"]
    started = time.perf_counter()
    editor.request("textDocument/codeAction", {
        "textDocument": {"uri": uris["small.py"]},
        "range": {"start": {"line": 4, "character": 4}, "end": {"line": 4, "character": 4}},
        "context": {"diagnostics": []}})
    action = time.perf_counter() - started
    # typing in the small document while the big one is checked and fixed
    latencies: List[float] = []
    big_published: Optional[float] = None
    version = 1
    while big_published is None or time.perf_counter() < big_published + 3.0:
        version += 1
        sent = editor.notify("textDocument/didChange", {
            "textDocument": {"uri": uris["small.py"], "version": version},
            "contentChanges": [{"text": small + f"    value = {version}\n"}]})
        got = editor.wait(published(uris["small.py"], version), timeout=600)["_at"]
        latencies.append(got - sent)
        if big_published is None:
            found = [m for m in editor.log if published(uris["big.py"], 1)(m)]
            if found:
                big_published = found[0]["_at"]
        time.sleep(max(0.0, 0.1 - (time.perf_counter() - sent)))
    editor.close()
    return {"big_lines": lines, "big_bytes": len(big.encode()),
            "small_diagnostics_ms": round((small_published - big_opened) * 1000, 1),
            "small_code_action_ms": round(action * 1000, 1),
            "big_diagnostics_ms": round(((big_published or 0.0) - big_opened) * 1000, 1),
            "small_edits_ms": _ms(latencies)}


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=40)
    parser.add_argument("--lines", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--start", type=int, default=0, metavar="RUNS",
                        help="measure the imports of the start, RUNS times each, and nothing else")
    parser.add_argument("--big", type=int, default=0, metavar="LINES",
                        help="a big document of LINES lines and a small one, and nothing else")
    args = parser.parse_args(argv)
    script = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))
    if script is None:
        raise SystemExit(f"flake8-taskref is not installed beside {sys.executable}")
    results: Dict[str, Any] = {"python": sys.version.split()[0], "load_start": os.getloadavg(), "sizes": []}
    if args.start:
        print(json.dumps(start_costs(args.start), indent=2))
        with tempfile.TemporaryDirectory() as work:
            print(json.dumps(first_diagnostics(script, args.start, Path(work)), indent=2))
        return 0
    if args.big:
        with tempfile.TemporaryDirectory() as work:
            print(json.dumps(big_document(script, args.big, Path(work))))
        return 0
    with tempfile.TemporaryDirectory() as work:
        for lines in args.lines:
            found = one_size(script, lines, args.changes, Path(work))
            results["sizes"].append(found)
            print(json.dumps(found), flush=True)
    results["load_end"] = os.getloadavg()
    start, end = results["load_start"][0], results["load_end"][0]
    print(f"load average: {start:.2f} at the start, {end:.2f} at the end")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
