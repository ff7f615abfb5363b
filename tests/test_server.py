"""``flake8-taskref server`` end to end: a real LSP client (pytest-lsp) talks to the
real server, started through the console script, over stdio.  Diagnostics on open,
change and save from the text in memory, the same findings as the command, each
code action applied and the document checked again, noqa, configuration changes,
syntax errors, documents outside any project, shutdown and exit."""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import pytest

from tests.harness import KEEPING_HELPER, USES_HELPER, extra_args, fixture_files
from tests.test_fix import command

pytest.importorskip("pytest_lsp", reason="pytest-lsp (the server's end-to-end tests) needs Python 3.10+")

import pytest_lsp  # noqa: E402
from lsprotocol import types as lsp  # noqa: E402
from pygls.protocol import default_converter  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features  # noqa: E402

# One server for the module's tests (each opens documents of its own, in a
# folder of its own); the tests that change what the client says it can do, or
# end the session, start one of their own.
pytestmark = pytest.mark.asyncio(loop_scope="module")

SCRIPT = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))
SOURCE = "https://flake8-taskref.readthedocs.io/en/latest/rules/{code}/"
KEEP_HINT = "keep a reference (e.g. a set with add_done_callback(set.discard))"
TRF001 = f"task returned by asyncio.create_task() is not stored; {KEEP_HINT}"
SERVICE = '''\
import asyncio


class Service:
    def __init__(self) -> None:
        self.name = "service"

    def start(self) -> None:
        asyncio.create_task(self.run())  # the loop

    async def run(self) -> None:
        await asyncio.sleep(1)
'''
MODULE_ONLY = '''\
import asyncio


async def main() -> None:
    asyncio.create_task(asyncio.sleep(1))
'''


class Client(LanguageClient):
    """pytest-lsp's client, keeping every publishDiagnostics in order and
    answering client/registerCapability."""

    def __init__(self) -> None:
        super().__init__(converter_factory=default_converter)
        self.published: List[lsp.PublishDiagnosticsParams] = []
        self.registrations: List[lsp.RegistrationParams] = []


def _publish(client: Client, params: lsp.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published.append(params)


def _register(client: Client, params: lsp.RegistrationParams) -> None:
    client.registrations.append(params)


def make_client() -> Client:
    client = Client()
    features: Dict[str, Any] = dict(DEFAULT_CLIENT_FEATURES)
    features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _publish
    features[lsp.CLIENT_REGISTER_CAPABILITY] = _register
    register_lsp_features(client, features)
    return client


def capabilities(encodings: Optional[List[lsp.PositionEncodingKind]] = None,
                 document_changes: bool = True, resolve: bool = True) -> lsp.ClientCapabilities:
    """What VS Code says it can do, as far as the server asks."""
    resolved = lsp.ClientCodeActionResolveOptions(properties=["edit"]) if resolve else None
    return lsp.ClientCapabilities(
        general=lsp.GeneralClientCapabilities(position_encodings=encodings),
        workspace=lsp.WorkspaceClientCapabilities(
            workspace_edit=lsp.WorkspaceEditClientCapabilities(document_changes=document_changes),
            did_change_watched_files=lsp.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
        ),
        text_document=lsp.TextDocumentClientCapabilities(
            code_action=lsp.CodeActionClientCapabilities(disabled_support=True, resolve_support=resolved),
            publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(version_support=True),
        ),
    )


CONFIG = ClientServerConfig(server_command=[str(SCRIPT), "server"], client_factory=make_client)


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: Client) -> Any:
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities()))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG, loop_scope="module")
async def plain_client(lsp_client: Client) -> Any:
    """A client not yet initialized (the test says what it can do)."""
    yield
    if lsp_client._server is not None and lsp_client._server.returncode is None:
        await lsp_client.shutdown_session()  # the test did not end the session


# ------------------------------------------------------------------ helpers
async def until(predicate: Callable[[], Any], what: str, detail: Callable[[], str] = str,
                timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what} {detail()}")
        await asyncio.sleep(0.01)


async def diagnostics(client: Client, uri: str, version: Optional[int],
                      ready: Callable[[Sequence[lsp.Diagnostic]], bool] = lambda found: True,
                      timeout: float = 20.0) -> List[lsp.Diagnostic]:
    """The latest diagnostics published for ``version`` of a document (once
    ``ready`` says they are the ones awaited)."""
    def latest() -> Optional[Tuple[List[lsp.Diagnostic]]]:
        for params in reversed(client.published):
            if params.uri == uri:
                if params.version == version and ready(params.diagnostics):
                    return (list(params.diagnostics),)
                return None
        return None

    def seen() -> str:
        return f"{uri} version {version} (published: {[(p.uri[-12:], p.version) for p in client.published]})"

    return list((await until(latest, "diagnostics", seen, timeout))[0])


async def published_after(client: Client, uri: str, count: int) -> List[lsp.Diagnostic]:
    """The diagnostics of the first publication for ``uri`` after the first
    ``count`` publications (of any document)."""
    def later() -> Optional[Tuple[List[lsp.Diagnostic]]]:
        for params in client.published[count:]:
            if params.uri == uri:
                return (list(params.diagnostics),)
        return None

    return list((await until(later, f"a new check of {uri}"))[0])


def opened(client: Client, path: Path, text: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="python", version=version, text=text)))
    return uri


def changed(client: Client, uri: str, version: int, text: str,
            at: Optional[Tuple[int, int, int, int]] = None) -> None:
    """The whole text, or (``at``) the text between two positions, replaced."""
    if at is None:
        change: Any = lsp.TextDocumentContentChangeWholeDocument(text=text)
    else:
        change = lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=at[0], character=at[1]),
                            end=lsp.Position(line=at[2], character=at[3])),
            text=text)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[change]))


def raw(client: Client, body: bytes) -> None:
    """A message's bytes, written as they are."""
    writer = client.protocol.writer
    assert writer is not None
    writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)


def raw_request(client: Client, method: str, params: Any) -> "asyncio.Future[Any]":
    """A request of exactly these parameters (no check by lsprotocol); its answer."""
    import uuid
    from concurrent.futures import Future

    msg_id = str(uuid.uuid4())
    future: Future[Any] = Future()
    client.protocol._request_futures[msg_id] = future
    raw(client, json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}).encode())
    return asyncio.wrap_future(future)


def brief(found: Sequence[lsp.Diagnostic]) -> List[Tuple[int, int, int, int, Any, str]]:
    """(start line, start column, end line, end column, code, message), 1-based lines."""
    return [(d.range.start.line + 1, d.range.start.character, d.range.end.line + 1, d.range.end.character,
             d.code, d.message) for d in found]


async def actions(client: Client, uri: str, line: int, character: int = 0,
                  only: Optional[List[str]] = None,
                  named: Sequence[lsp.Diagnostic] = ()) -> List[lsp.CodeAction]:
    """The code actions at a position (0-based), as an editor asks for them."""
    position = lsp.Position(line=line, character=character)
    found = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        range=lsp.Range(start=position, end=position),
        context=lsp.CodeActionContext(diagnostics=list(named), only=only),
    ))
    return [action for action in found or [] if isinstance(action, lsp.CodeAction)]


def _offset(lines: List[str], position: lsp.Position) -> int:
    """UTF-16 position to offset (the texts here keep to the BMP)."""
    if position.line >= len(lines):
        return sum(len(line) for line in lines)
    return sum(len(line) for line in lines[:position.line]) + position.character


def applied(text: str, edit: Optional[lsp.WorkspaceEdit], uri: str) -> str:
    """The text with a WorkspaceEdit's edits of the document made, as an editor makes them."""
    assert edit is not None
    edits: List[lsp.TextEdit] = []
    if edit.document_changes is not None:
        for change in edit.document_changes:
            assert isinstance(change, lsp.TextDocumentEdit) and change.text_document.uri == uri
            edits += [e for e in change.edits if isinstance(e, lsp.TextEdit)]
    else:
        assert edit.changes is not None
        edits = list(edit.changes[uri])
    lines = text.splitlines(keepends=True)
    spans = sorted(((_offset(lines, e.range.start), _offset(lines, e.range.end), e.new_text) for e in edits),
                   reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def fixed_by_command(folder: Path, name: str, text: str, *args: str) -> str:
    """What ``flake8-taskref --fix`` writes for that text, in that folder."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    command("--fix", *args, name, cwd=folder)
    return path.read_text(encoding="utf-8")


def project(tmp_path: Path, setup_cfg: str = "[flake8]\nmax-line-length = 100\n") -> Path:
    folder = tmp_path / "proj"
    (folder / "pkg").mkdir(parents=True)
    (folder / "setup.cfg").write_text(setup_cfg, encoding="utf-8")
    return folder


# ------------------------------------------------------------------ the tests
async def test_diagnostics_on_open_change_and_save_come_from_the_text_in_memory(
    client: Client, tmp_path: Path
) -> None:
    folder = project(tmp_path)
    path = folder / "pkg" / "service.py"
    path.write_text("print('on disk')\n", encoding="utf-8")  # the editor's text is not on disk
    uri = opened(client, path, SERVICE)
    found = await diagnostics(client, uri, 1)
    assert brief(found) == [(9, 8, 9, 39, "TRF001", TRF001)]
    [diagnostic] = found
    assert diagnostic.source == "flake8-taskref"
    assert diagnostic.severity == lsp.DiagnosticSeverity.Warning
    assert diagnostic.code_description == lsp.CodeDescription(href=SOURCE.format(code="TRF001"))
    # an edit: a second spawn, typed in (incremental change), then the first line removed
    changed(client, uri, 2, "        asyncio.ensure_future(self.run())\n", at=(9, 0, 9, 0))
    found = await diagnostics(client, uri, 2)
    assert [(d.range.start.line + 1, d.code) for d in found] == [(9, "TRF001"), (10, "TRF001")]
    changed(client, uri, 3, "", at=(1, 0, 2, 0))  # a blank line removed
    found = await diagnostics(client, uri, 3)
    assert [(d.range.start.line + 1, d.code) for d in found] == [(8, "TRF001"), (9, "TRF001")]
    count = len(client.published)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert [(d.range.start.line + 1, d.code) for d in await published_after(client, uri, count)] == [
        (8, "TRF001"), (9, "TRF001")]
    # closing the document clears them
    count = len(client.published)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert await published_after(client, uri, count) == []


async def test_an_opt_in_rule_the_project_selects_is_shown(client: Client, tmp_path: Path) -> None:
    """TRF010 (off by default) in the editor of a project that selects it: the
    command's lines, and none in a project that does not."""
    source = Path(__file__).resolve().parent / "data" / "trf010_wait_cancelled.py"
    text = source.read_text(encoding="utf-8")
    selecting = project(tmp_path / "on", "[flake8]\nextend-select = TRF010\n")
    found = await diagnostics(client, opened(client, selecting / "pkg" / "waits.py", text), 1)
    assert [(d.range.start.line + 1, d.code) for d in found] == [
        (30, "TRF010"), (38, "TRF010"), (44, "TRF010"), (130, "TRF010"), (154, "TRF010")]
    plain = project(tmp_path / "off")
    assert await diagnostics(client, opened(client, plain / "pkg" / "waits.py", text), 1) == []


async def test_the_same_findings_as_the_command_on_every_fixture(client: Client, tmp_path: Path) -> None:
    """Every fixture (those without options of their own) in a project whose
    configuration selects TRF006 and ignores one code in one file: the
    command's findings (line, column, code, message) and the server's."""
    folder = project(tmp_path, "[flake8]\nextend-select = TRF006\nper-file-ignores = pkg/noqa.py:TRF002\n")
    files = [f for f in fixture_files() if not extra_args(f)]
    assert len(files) > 15
    names = {}
    for source in files:
        target = folder / "pkg" / source.name
        if target.exists():
            target = folder / "pkg" / f"case_{source.name}"
        shutil.copy(source, target)
        names[target] = source
    proc = command("--format", "json", "pkg", cwd=folder)
    assert proc.returncode == 1, proc.stderr
    expected: Dict[str, List[Tuple[int, int, str, str]]] = {}
    for item in json.loads(proc.stdout):
        path = folder / item["filename"]
        line = path.read_text(encoding="utf-8").splitlines()[item["line"] - 1]
        # the command counts UTF-8 bytes, LSP UTF-16 units (here: characters)
        column = len(line.encode("utf-8")[:item["column"] - 1].decode("utf-8"))
        expected.setdefault(path.as_uri(), []).append((item["line"], column, item["code"], item["message"]))
    assert any(code == "TRF006" for found in expected.values() for _, _, code, _ in found)
    uris = [opened(client, path, path.read_text(encoding="utf-8")) for path in names]
    for uri in uris:
        found = await diagnostics(client, uri, 1)
        mine = [(d.range.start.line + 1, d.range.start.character, d.code, d.message) for d in found]
        assert mine == expected.get(uri, []), uri


async def test_noqa_and_a_file_that_skips_itself(client: Client, tmp_path: Path) -> None:
    folder = project(tmp_path)
    text = (
        "import asyncio\n\n\n"
        "async def main() -> None:\n"
        "    asyncio.create_task(asyncio.sleep(1))  # noqa: TRF001\n"
        "    asyncio.create_task(asyncio.sleep(1))  # noqa:TRF002\n"
        "    asyncio.create_task(asyncio.sleep(1))  # NOQA\n"
        "    asyncio.create_task(\n"  # flake8 reads the comment on this line only
        "        asyncio.sleep(1),\n"
        "    )  # noqa: TRF001\n"
        '    asyncio.create_task(asyncio.sleep("""\n'  # and on every line of a string that spans it
        '    """))  # noqa: TRF001\n'
    )
    uri = opened(client, folder / "pkg" / "a.py", text)
    found = [(d.range.start.line + 1, d.code) for d in await diagnostics(client, uri, 1)]
    assert found == [(6, "TRF001"), (8, "TRF001")]
    (folder / "pkg" / "a.py").write_text(text, encoding="utf-8")
    printed = command("pkg/a.py", cwd=folder).stdout.splitlines()
    assert [(int(line.split(":")[1]), line.split()[1]) for line in printed] == found
    skipped = opened(client, folder / "pkg" / "b.py", "# flake8: noqa\n" + text)
    assert await diagnostics(client, skipped, 1) == []


async def test_keep_this_task_in_a_module_set(client: Client, tmp_path: Path) -> None:
    folder = project(tmp_path)
    uri = opened(client, folder / "pkg" / "job.py", MODULE_ONLY)
    [diagnostic] = await diagnostics(client, uri, 1)
    found = await actions(client, uri, 4, 4)
    assert [(a.title, a.kind, a.is_preferred) for a in found] == [
        ("Keep this task (module set)", lsp.CodeActionKind.QuickFix, True),
        ("Suppress TRF001 on this line", lsp.CodeActionKind.QuickFix, None),
        ("Keep every task in this file (flake8-taskref --fix)", "source.fixAll.taskref", None),
    ]
    keep = found[0]
    assert list(keep.diagnostics or []) == [diagnostic]
    # the whole fix is made when it is chosen (codeAction/resolve)
    assert (found[2].edit, found[2].data) == (None, {"uri": uri, "version": 1})
    new = applied(MODULE_ONLY, keep.edit, uri)
    assert new == fixed_by_command(tmp_path, "job.py", MODULE_ONLY)
    assert new != MODULE_ONLY
    # the edit is versioned, and leaves the lines it does not change alone
    assert keep.edit is not None and keep.edit.document_changes is not None
    [change] = keep.edit.document_changes
    assert isinstance(change, lsp.TextDocumentEdit) and change.text_document.version == 1
    assert [(e.range.start.line, e.range.end.line) for e in change.edits] == [(2, 2), (4, 5)]
    changed(client, uri, 2, new)
    assert await diagnostics(client, uri, 2) == []


async def test_keep_this_task_in_an_instance_set(client: Client, tmp_path: Path) -> None:
    folder = project(tmp_path)
    uri = opened(client, folder / "pkg" / "service.py", SERVICE)
    await diagnostics(client, uri, 1)
    found = await actions(client, uri, 8, 20, only=[lsp.CodeActionKind.QuickFix])
    assert [a.title for a in found] == [
        "Keep this task (module set)", "Keep this task (instance set)", "Suppress TRF001 on this line"]
    module, instance = found[0], found[1]
    assert applied(SERVICE, module.edit, uri) == fixed_by_command(tmp_path, "m.py", SERVICE)
    new = applied(SERVICE, instance.edit, uri)
    assert new == fixed_by_command(tmp_path, "i.py", SERVICE, "--fix-keep", "instance")
    assert "self.__background_tasks" in new
    changed(client, uri, 2, new)
    assert await diagnostics(client, uri, 2) == []


async def test_the_configured_form_is_preferred(client: Client, tmp_path: Path) -> None:
    folder = project(tmp_path, "[flake8]\nfix-keep = instance\n")
    uri = opened(client, folder / "pkg" / "service.py", SERVICE)
    await diagnostics(client, uri, 1)
    found = await actions(client, uri, 8, 8, only=[lsp.CodeActionKind.QuickFix])
    assert [(a.title, a.is_preferred) for a in found][:2] == [
        ("Keep this task (module set)", False), ("Keep this task (instance set)", True)]


async def test_suppress_adds_or_extends_noqa(client: Client, tmp_path: Path) -> None:
    folder = project(tmp_path)
    text = (
        "import asyncio\n\n\n"
        "async def main() -> None:\n"
        "    asyncio.create_task(asyncio.sleep(1))   \n"
        "    asyncio.create_task(asyncio.sleep(1))  # noqa: RUF006 (kept by the caller)\n"
        '    asyncio.create_task(asyncio.sleep("""a\n'
        '        string"""))  # the call\n'
    )
    uri = opened(client, folder / "pkg" / "s.py", text)
    assert [d.range.start.line for d in await diagnostics(client, uri, 1)] == [4, 5, 6]
    version = 1
    expected = [  # (the finding's line, the line changed, as it is then)
        (4, 4, "    asyncio.create_task(asyncio.sleep(1))  # noqa: TRF001\n"),
        (5, 5, "    asyncio.create_task(asyncio.sleep(1))  # noqa: RUF006, TRF001 (kept by the caller)\n"),
        # the call's first line ends in a string: the comment goes on the string's last line
        (6, 7, '        string"""))  # the call  # noqa: TRF001\n'),
    ]
    for finding, line, new_line in expected:
        found = [a for a in await actions(client, uri, finding, 6) if a.title.startswith("Suppress")]
        assert [a.title for a in found] == ["Suppress TRF001 on this line"]
        text = applied(text, found[0].edit, uri)
        assert text.splitlines(keepends=True)[line] == new_line
        version += 1
        changed(client, uri, version, text)
        await diagnostics(client, uri, version)
    assert await diagnostics(client, uri, version) == []


async def test_fix_all_is_the_command_s_fix(client: Client, tmp_path: Path) -> None:
    folder = project(tmp_path)
    text = (
        "import asyncio\n\n\n"
        "async def work() -> None:\n"
        "    asyncio.create_task(work())\n"
        "    job = asyncio.ensure_future(work())\n"
        "    loop = asyncio.get_running_loop()\n"
        "    loop.create_task(work())\n"
        "    encode = asyncio.create_task(work())\n"
        "    await asyncio.wait_for(work(), timeout=1)\n"
        "    await encode\n"
    )
    uri = opened(client, folder / "pkg" / "w.py", text)
    found = await diagnostics(client, uri, 1)
    assert [d.code for d in found] == ["TRF001", "TRF002", "TRF001", "TRF003"]
    for only in (["source.fixAll"], ["source"], ["source.fixAll.taskref"]):
        [fix_all] = await actions(client, uri, 0, 0, only=only)
        assert (fix_all.title, fix_all.kind) == ("Keep every task in this file (flake8-taskref --fix)",
                                                 "source.fixAll.taskref")
    assert [a.kind for a in await actions(client, uri, 4, 4, only=["quickfix"])] == ["quickfix"] * 2
    assert fix_all.edit is None
    offered = fix_all
    fix_all = await client.code_action_resolve_async(offered)
    new = applied(text, fix_all.edit, uri)
    assert new == fixed_by_command(tmp_path, "w.py", text)
    changed(client, uri, 2, new)
    assert [d.code for d in await diagnostics(client, uri, 2)] == ["TRF003"]
    # an action offered for a version that is gone gets no edit
    assert (await client.code_action_resolve_async(offered)).edit is None
    assert await actions(client, uri, 0, 0, only=["source"]) == []


def left_by_the_command(folder: Path, text: str) -> List[Tuple[str, str]]:
    """The sites ``flake8-taskref --diff`` leaves in ``w.py`` of ``text``:
    (code, why), in the order it prints them."""
    (folder / "w.py").write_text(text, encoding="utf-8")
    proc = command("--diff", "w.py", cwd=folder)
    left: List[Tuple[str, str]] = []
    for line in proc.stderr.splitlines():
        if ": not fixed " in line:
            code, why = line.split(": not fixed ", 1)[1].split(": ", 1)
            left.append((code, why))
    return left


async def test_a_site_the_fixer_leaves_says_why(client: Client, tmp_path: Path) -> None:
    folder = project(tmp_path)
    text = (
        "import asyncio\n\n\n"
        "async def work() -> None:\n"
        "    loop = asyncio.get_running_loop()\n"
        "    loop.call_soon(asyncio.create_task, work())\n"
        "    encode = asyncio.create_task(work())\n"
        "    await asyncio.wait_for(work(), timeout=1)\n"
        "    await encode\n"
    )
    left = left_by_the_command(tmp_path, text)
    why = dict(left)
    assert set(why) == {"TRF001", "TRF003"}, left
    uri = opened(client, folder / "pkg" / "w.py", text)
    # TRF003 says it at once; TRF001 once the fixer has tried the whole document
    found = await diagnostics(client, uri, 1, ready=lambda found: all(d.data for d in found))
    assert [(d.code, d.data) for d in found] == [
        ("TRF001", {"fixable": False, "why": why["TRF001"]}),
        ("TRF003", {"fixable": False, "why": why["TRF003"]}),
    ]
    printed = command("w.py", cwd=tmp_path).stdout.splitlines()
    assert [d.message for d in found] == [line.split(" ", 2)[2] for line in printed]
    found_actions = await actions(client, uri, 5, 20, only=["quickfix"])
    assert [(a.title, a.edit is None, a.disabled) for a in found_actions] == [
        ("Keep this task", True, lsp.CodeActionDisabled(reason=why["TRF001"])),
        ("Suppress TRF001 on this line", False, None),
    ]
    assert [a.title for a in await actions(client, uri, 7, 10, only=["quickfix"])] == [
        "Suppress TRF003 on this line"]
    assert await actions(client, uri, 0, 0, only=["source.fixAll"]) == []


async def test_a_site_the_analysis_tells_the_fixer_to_leave_says_why(client: Client, tmp_path: Path) -> None:
    """A helper that returns a task or None, and ``await`` of a coroutine
    function that returns a task: the quick fix is offered disabled, with the
    reason the analysis gives (the same the command prints)."""
    folder = project(tmp_path)
    text = (
        "import asyncio\n\n\n"
        "async def job() -> None:\n"
        "    await asyncio.sleep(1)\n\n\n"
        "def maybe(now: bool):\n"
        "    if now:\n"
        "        return asyncio.create_task(job())\n"
        "    return None\n\n\n"
        "async def restart():\n"
        "    await asyncio.sleep(0)\n"
        "    return asyncio.create_task(job())\n\n\n"
        "async def work() -> None:\n"
        "    maybe(True)\n"
        "    await restart()\n"
    )
    left = left_by_the_command(tmp_path, text)
    assert [code for code, _ in left] == ["TRF001", "TRF001"], left
    why = [reason for _, reason in left]
    assert "on some paths only" in why[0] and "'await'" in why[1], left
    uri = opened(client, folder / "pkg" / "w.py", text)
    found = await diagnostics(client, uri, 1, ready=lambda found: all(d.data for d in found))
    assert [(d.code, d.range.start.line, d.data) for d in found] == [
        ("TRF001", 19, {"fixable": False, "why": why[0]}),
        ("TRF001", 20, {"fixable": False, "why": why[1]}),
    ]
    for line, reason in ((19, why[0]), (20, why[1])):
        keep = (await actions(client, uri, line, 10, only=["quickfix"]))[0]
        assert (keep.title, keep.edit, keep.disabled) == (
            "Keep this task", None, lsp.CodeActionDisabled(reason=reason))
    assert await actions(client, uri, 0, 0, only=["source.fixAll"]) == []


async def test_configuration_changes_are_read_again(client: Client, tmp_path: Path) -> None:
    folder = project(tmp_path)
    uri = opened(client, folder / "pkg" / "service.py", SERVICE)
    assert [d.code for d in await diagnostics(client, uri, 1)] == ["TRF001"]
    # the server asked to be told of changes to the configuration files
    [registration] = [r for params in client.registrations for r in params.registrations]
    assert registration.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES
    # one glob per kind of file, no brace (which eglot 1.9 refuses and Neovim 0.11 does not match)
    assert registration.register_options == {"watchers": [{"globPattern": f"**/{name}"} for name in (
        "setup.cfg", "tox.ini", ".flake8", "pyproject.toml", "ruff.toml", ".ruff.toml", "*.py", "*.pyi")]}
    (folder / "pyproject.toml").write_text('[tool.flake8-taskref]\nextend-ignore = ["TRF001"]\n',
                                           encoding="utf-8")
    count = len(client.published)
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[
        lsp.FileEvent(uri=(folder / "pyproject.toml").as_uri(), type=lsp.FileChangeType.Created)]))
    assert await published_after(client, uri, count) == []
    # a broken configuration: one message (the command's), no findings
    (folder / "setup.cfg").write_text("[flake8]\nselect = TRF, bad!\n", encoding="utf-8")
    proc = command("pkg", cwd=folder)
    assert proc.returncode == 2
    error = proc.stderr.splitlines()[-1]
    assert error.startswith("flake8-taskref: error: --select: ")
    changed(client, uri, 2, SERVICE + "\n")  # the edit reads the settings again (no notification)
    assert await diagnostics(client, uri, 2) == []
    await until(lambda: [m for m in client.messages if m.message == error], "an error message")
    assert [m.type for m in client.messages if m.message == error] == [lsp.MessageType.Error]
    # repaired, and said so: the findings are back
    (folder / "setup.cfg").write_text("[flake8]\n", encoding="utf-8")
    (folder / "pyproject.toml").unlink()
    count = len(client.published)
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[
        lsp.FileEvent(uri=(folder / "setup.cfg").as_uri(), type=lsp.FileChangeType.Changed)]))
    assert [d.code for d in await published_after(client, uri, count)] == ["TRF001"]
    assert len([m for m in client.messages if m.message == error]) == 1  # said once


async def test_a_changed_module_rechecks_the_documents_that_use_it(client: Client, tmp_path: Path) -> None:
    """The other modules of the project come from the project view: a helper
    that keeps its task gives nothing; changed on disk so that it no longer
    keeps it (the editor tells the server so), the document that calls it is
    checked again and gets the finding, naming where the helper is."""
    folder = project(tmp_path)
    (folder / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    helpers = folder / "pkg" / "helpers.py"
    helpers.write_text(KEEPING_HELPER, encoding="utf-8")
    uri = opened(client, folder / "pkg" / "main.py", USES_HELPER)
    assert await diagnostics(client, uri, 1) == []
    helpers.write_text(KEEPING_HELPER.replace("    tasks.add(task)\n", ""), encoding="utf-8")
    count = len(client.published)
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[
        lsp.FileEvent(uri=helpers.as_uri(), type=lsp.FileChangeType.Changed)]))
    found = await published_after(client, uri, count)
    message = f"task returned by spawn() (pkg/helpers.py:6) is not stored; {KEEP_HINT}"
    assert brief(found) == [(9, 4, 9, 16, "TRF001", message)]
    assert brief(found) == brief(await diagnostics(client, uri, 1))
    (folder / "pkg" / "main.py").write_text(USES_HELPER, encoding="utf-8")
    proc = command("--format", "%(row)d:%(col)d:%(code)s", "pkg/main.py", cwd=folder)
    assert proc.stdout.splitlines() == ["9:5:TRF001"]  # the command agrees


async def test_a_cache_of_the_wrong_shape_is_a_miss(client: Client, tmp_path: Path) -> None:
    """Issue 31: every entry of the project's cache of a shape this version
    never writes (signed with the user's key: only the shape is wrong) is a
    miss; the server still finds the loss through the helper."""
    import marshal

    from flake8_taskref.project.cache import Cache, user_key

    folder = project(tmp_path)
    (folder / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "pkg" / "helpers.py").write_text(KEEPING_HELPER.replace("    tasks.add(task)\n", ""),
                                               encoding="utf-8")
    (folder / "pkg" / "main.py").write_text(USES_HELPER, encoding="utf-8")
    assert command("--format", "%(row)d:%(col)d:%(code)s", "pkg/main.py", cwd=folder).stdout == "9:5:TRF001\n"
    entries = [path for path in (folder / ".taskref_cache").glob("*/*/*/*") if path.is_file()]
    assert entries
    for path in entries:
        cache = Cache(str(path.parents[3]), path.parents[2].name)
        cache._key = user_key()
        data = marshal.dumps(7)
        path.write_bytes(cache._mac(path.parents[1].name, path.name, data) + data)
    uri = opened(client, folder / "pkg" / "main.py", USES_HELPER)
    assert [(d.range.start.line, d.code) for d in await diagnostics(client, uri, 1)] == [(8, "TRF001")]


async def test_excluded_files_and_per_file_ignores_as_the_command_reads_them(
    client: Client, tmp_path: Path
) -> None:
    folder = project(tmp_path, "[flake8]\nextend-exclude = pkg/generated\n"
                               "per-file-ignores = pkg/tests/*.py:TRF001\n")
    for sub in ("generated", "tests", "app"):
        (folder / "pkg" / sub).mkdir()
        (folder / "pkg" / sub / "m.py").write_text(MODULE_ONLY, encoding="utf-8")
    uris = [opened(client, folder / "pkg" / sub / "m.py", MODULE_ONLY)
            for sub in ("generated", "tests", "app")]
    assert [[d.code for d in await diagnostics(client, uri, 1)] for uri in uris] == [[], [], ["TRF001"]]
    # the command's run on the project: the same (named on the command line, as
    # flake8 does, a file in an excluded folder is checked; an editor opens any file)
    proc = command(cwd=folder)
    assert proc.stdout == f"./pkg/app/m.py:5:5: TRF001 {TRF001}\n"


async def test_settings_are_read_from_the_project_root_the_index_uses(client: Client, tmp_path: Path) -> None:
    """A document's settings are read from its project root, found by the rule
    every face follows (issue 31): in a project marked only by ``setup.py`` a
    document under ``.tox`` (flake8's default exclude) gets no diagnostics, as
    the command's run at the root passes over it; in a monorepo whose
    ``.flake8`` is at the top, a sub-project's ``pyproject.toml`` (no table of
    ours) does not move where ``per-file-ignores`` patterns start.  Before, the
    server read them in the nearest folder with a config file (the document's
    own folder here, and the sub-project's)."""
    marked = tmp_path / "marked"
    for sub in (os.path.join(".tox", "py", "lib"), "pkg"):
        (marked / sub).mkdir(parents=True)
        (marked / sub / "m.py").write_text(MODULE_ONLY, encoding="utf-8")
    (marked / "setup.py").write_text("", encoding="utf-8")
    uris = [opened(client, marked / sub / "m.py", MODULE_ONLY)
            for sub in (os.path.join(".tox", "py", "lib"), "pkg")]
    assert [[d.code for d in await diagnostics(client, uri, 1)] for uri in uris] == [[], ["TRF001"]]
    assert command(cwd=marked).stdout == f"./pkg/m.py:5:5: TRF001 {TRF001}\n"
    mono = tmp_path / "mono"
    (mono / "sub" / "tests").mkdir(parents=True)
    (mono / ".flake8").write_text("[flake8]\nper-file-ignores = sub/tests/*.py:TRF001\n", encoding="utf-8")
    (mono / "sub" / "pyproject.toml").write_text("[project]\nname = 'sub'\n", encoding="utf-8")
    (mono / "sub" / "tests" / "m.py").write_text(MODULE_ONLY, encoding="utf-8")
    uri = opened(client, mono / "sub" / "tests" / "m.py", MODULE_ONLY)
    assert [d.code for d in await diagnostics(client, uri, 1)] == []
    assert command(cwd=mono).stdout == ""


async def test_a_syntax_error_is_one_diagnostic(client: Client, tmp_path: Path) -> None:
    folder = project(tmp_path)
    broken = MODULE_ONLY.replace("asyncio.sleep(1))", "asyncio.sleep(1)")
    uri = opened(client, folder / "pkg" / "broken.py", broken)
    [diagnostic] = await diagnostics(client, uri, 1)
    (tmp_path / "broken.py").write_text(broken, encoding="utf-8")
    printed = command("broken.py", cwd=tmp_path).stdout
    line, column, rest = printed.split(":", 3)[1:]
    code, message = rest.strip().split(" ", 1)
    assert (diagnostic.range.start.line + 1, diagnostic.range.start.character + 1, diagnostic.code,
            diagnostic.message) == (int(line), int(column), code, message)
    assert code == "E999"
    assert diagnostic.severity == lsp.DiagnosticSeverity.Error and diagnostic.code_description is None
    assert [a.title for a in await actions(client, uri, 4, 4)] == []
    changed(client, uri, 2, MODULE_ONLY)
    assert [d.code for d in await diagnostics(client, uri, 2)] == ["TRF001"]


async def test_documents_outside_any_project(client: Client, tmp_path: Path) -> None:
    loose = tmp_path / "loose"
    loose.mkdir()
    text = MODULE_ONLY + "\n\nclass Pool:\n    def __init__(self) -> None:\n        self.tasks = set()\n\n" \
        "    async def run(self) -> None:\n        self.tasks.add(asyncio.create_task(work()))\n"
    uri = opened(client, loose / "m.py", text)
    # the defaults: TRF006 is off
    assert [d.code for d in await diagnostics(client, uri, 1)] == ["TRF001"]
    untitled = "untitled:Untitled-1"
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=untitled, language_id="python", version=1, text=MODULE_ONLY)))
    found = await diagnostics(client, untitled, 1)
    assert [d.code for d in found] == ["TRF001"]
    assert [a.title for a in await actions(client, untitled, 4, 4, only=["quickfix"])] == [
        "Keep this task (module set)", "Suppress TRF001 on this line"]


async def test_positions_in_the_editor_s_units(plain_client: Client, tmp_path: Path) -> None:
    """UTF-8 when the editor offers it; the lines as LSP counts them (a form
    feed is no line end, \\r\\n and \\r are); edits in those units too."""
    client = plain_client
    result = await client.initialize_session(lsp.InitializeParams(capabilities=capabilities(
        encodings=[lsp.PositionEncodingKind.Utf8, lsp.PositionEncodingKind.Utf16], document_changes=False,
        resolve=False)))
    assert result.capabilities.position_encoding == lsp.PositionEncodingKind.Utf8
    folder = project(tmp_path)
    text = ("import asyncio\r\n\x0c\r\n\r\nasync def main() -> None:\r"
            "    é = '😀'; asyncio.create_task(asyncio.sleep(1))\n")
    uri = opened(client, folder / "pkg" / "u.py", text)
    [diagnostic] = await diagnostics(client, uri, 1)
    prefix = "    é = '😀'; "
    start = len(prefix.encode("utf-8"))
    where = (diagnostic.range.start.line, diagnostic.range.start.character, diagnostic.range.end.character)
    assert where == (4, start, start + len("asyncio.create_task(asyncio.sleep(1))"))
    # an edit in UTF-8 units: the call's name replaced
    begin = start + len("asyncio.")
    changed(client, uri, 2, "ensure_future", at=(4, begin, 4, begin + len("create_task")))
    [diagnostic] = await diagnostics(client, uri, 2)
    assert diagnostic.message.startswith("task returned by asyncio.ensure_future() is not stored")
    [suppress] = [a for a in await actions(client, uri, 4, start) if a.title.startswith("Suppress")]
    assert suppress.edit is not None and suppress.edit.changes is not None  # no documentChanges: changes
    [edit] = suppress.edit.changes[uri]
    end = len("    é = '😀'; asyncio.ensure_future(asyncio.sleep(1))".encode("utf-8"))
    assert (edit.range.start.line, edit.range.start.character, edit.range.end.character, edit.new_text) == (
        4, end, end, "  # noqa: TRF001")
    # an editor that cannot resolve a code action gets the whole fix's edit with it
    other = opened(client, folder / "pkg" / "m.py", MODULE_ONLY)
    await diagnostics(client, other, 1)
    [fix_all] = await actions(client, other, 0, 0, only=["source.fixAll"])
    assert applied(MODULE_ONLY, fix_all.edit, other) == fixed_by_command(tmp_path, "m.py", MODULE_ONLY)
    await client.shutdown_session()


async def test_a_burst_of_edits_is_checked_once_it_pauses(client: Client, tmp_path: Path) -> None:
    folder = project(tmp_path)
    uri = opened(client, folder / "pkg" / "t.py", MODULE_ONLY)
    await diagnostics(client, uri, 1)
    count = len(client.published)
    typed = "asyncio.create_task(asyncio.sleep(1))"
    for version, char in enumerate(typed, 2):  # typed one character at a time, with no pause
        changed(client, uri, version, char, at=(5, version - 2, 5, version - 2))
    found = await diagnostics(client, uri, len(typed) + 1)
    assert [(d.range.start.line, d.code) for d in found] == [(4, "TRF001"), (5, "TRF001")]
    assert len(client.published) - count < len(typed) // 2


async def test_shutdown_and_exit(plain_client: Client) -> None:
    client = plain_client
    await client.initialize_session(lsp.InitializeParams(capabilities=capabilities()))
    await client.shutdown_session()
    assert client._server is not None and client._server.returncode == 0


async def test_exit_without_shutdown_is_status_1(plain_client: Client) -> None:
    client = plain_client
    await client.initialize_session(lsp.InitializeParams(capabilities=capabilities()))
    client.exit(None)
    assert client._server is not None
    assert await asyncio.wait_for(client._server.wait(), 30) == 1


async def test_without_the_extra_one_line_and_exit_2(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['pygls'] = None; sys.modules['black'] = None\n"
            "from flake8_taskref.command.cli import main; sys.exit(main(['server']))")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", code, cwd=tmp_path,
                                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert (proc.returncode, out) == (2, b"")
    assert err.decode() == ("flake8-taskref: error: server: pygls and black are not installed: "
                            "pip install 'flake8-taskref[server]'\n")


# What the server's start imports (issue 33: the start): the protocol and the
# documents, not the project view, the analysis, the fixer nor the command.
START = ("import sys\n"
         "from flake8_taskref.command.cli import main\n"
         "from flake8_taskref.server.lsp import TaskRefServer\n"
         "TaskRefServer()\n"
         "print(sorted(m for m in sys.modules\n"
         "             if m.startswith(('flake8_taskref', 'libcst', 'black', 'hashlib'))))")


async def test_the_start_imports_neither_the_analysis_nor_the_fixer(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", START, cwd=tmp_path,
                                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    assert json.loads(out.decode().replace("'", '"')) == [
        "flake8_taskref", "flake8_taskref.analysis", "flake8_taskref.analysis.messages",
        "flake8_taskref.analysis.options", "flake8_taskref.command", "flake8_taskref.command.cli",
        "flake8_taskref.command.writing", "flake8_taskref.fix", "flake8_taskref.server",
        "flake8_taskref.server.documents", "flake8_taskref.server.lsp", "flake8_taskref.server.protocol",
    ]


async def test_an_invalid_request_gets_an_error_and_nothing_pops_up(client: Client, tmp_path: Path) -> None:
    """A codeAction without range and context is answered with an error (the
    editor no longer waits for ever); it, a notification the server cannot
    read and a message that is no JSON are logged, not shown as a dialog."""
    folder = project(tmp_path)
    uri = opened(client, folder / "pkg" / "job.py", MODULE_ONLY)
    await diagnostics(client, uri, 1)
    shown = len(client.messages)
    with pytest.raises(Exception) as raised:
        asked = raw_request(client, lsp.TEXT_DOCUMENT_CODE_ACTION, {"textDocument": {"uri": uri}})
        await asyncio.wait_for(asked, 10)
    assert getattr(raised.value, "code", None) == -32602, raised.value  # InvalidParams
    raw(client, json.dumps({"jsonrpc": "2.0", "method": lsp.TEXT_DOCUMENT_DID_OPEN, "params": {}}).encode())
    raw(client, b"{not json")
    # the server still answers, and has shown nothing
    assert [a.title for a in await actions(client, uri, 4, 4, only=["quickfix"])][:1] == [
        "Keep this task (module set)"]
    logged = await until(lambda: len([m for m in client.log_messages if "invalid" in m.message]) >= 3,
                         "three messages logged", lambda: str([m.message for m in client.log_messages]))
    assert logged
    assert client.messages[shown:] == []


async def test_a_module_changed_in_the_editor_rechecks_the_documents_that_use_it(
    client: Client, tmp_path: Path
) -> None:
    """No watch event (many editors send none): the helper is open in the
    editor too.  Its unsaved edits count for the documents that call it, and
    so does its save; closed unsaved, its file counts again."""
    folder = project(tmp_path)
    (folder / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    helpers = folder / "pkg" / "helpers.py"
    dropping = KEEPING_HELPER.replace("    tasks.add(task)\n", "")
    helpers.write_text(dropping, encoding="utf-8")
    main = opened(client, folder / "pkg" / "app.py", USES_HELPER)
    message = f"task returned by spawn() (pkg/helpers.py:6) is not stored; {KEEP_HINT}"
    assert brief(await diagnostics(client, main, 1)) == [(9, 4, 9, 16, "TRF001", message)]
    helper = opened(client, helpers, dropping)
    await diagnostics(client, helper, 1)
    # edited to keep its task (not saved): the finding goes
    count = len(client.published)
    changed(client, helper, 2, KEEPING_HELPER)
    assert await published_after(client, main, count) == []
    # and back: it comes back
    count = len(client.published)
    changed(client, helper, 3, dropping)
    assert brief(await published_after(client, main, count)) == [(9, 4, 9, 16, "TRF001", message)]
    # kept again, and saved; then dropped and saved (the helper is a spawner of the project's again)
    found = [(9, 4, 9, 16, "TRF001", message)]
    for version, text, expected in ((4, KEEPING_HELPER, []), (5, dropping, found)):
        count = len(client.published)
        changed(client, helper, version, text)
        helpers.write_text(text, encoding="utf-8")
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(
            text_document=lsp.TextDocumentIdentifier(uri=helper)))
        await until(lambda: brief([p for p in client.published[count:] if p.uri == main][-1:][0].diagnostics)
                    == expected if [p for p in client.published[count:] if p.uri == main] else False,
                    f"the findings after saving version {version}")
    # kept (unsaved), and closed unsaved: the file's text counts again
    count = len(client.published)
    changed(client, helper, 6, KEEPING_HELPER)
    assert await published_after(client, main, count) == []
    count = len(client.published)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=helper)))
    assert brief(await published_after(client, main, count)) == [(9, 4, 9, 16, "TRF001", message)]


def big_module(lines: int) -> str:
    """A module of ``lines`` statements, one spawn among them (a check of some seconds)."""
    body = "".join(f"    value_{i} = compute({i}) + other(value_{max(i - 1, 0)})\n" for i in range(lines))
    return "import asyncio\n\n\nasync def work() -> None:\n    asyncio.create_task(asyncio.sleep(1))\n" + body


async def test_a_big_document_blocks_no_other(client: Client, tmp_path: Path) -> None:
    """A check of some seconds runs off the loop: a small document opened
    after it gets its diagnostics and its code actions first; the big one's
    first version, replaced at once, is never published."""
    folder = project(tmp_path)
    big = opened(client, folder / "pkg" / "big.py", big_module(60_000))
    changed(client, big, 2, "\n", at=(4, 0, 4, 0))  # a blank line: the spawn is at line 6 now
    small = opened(client, folder / "pkg" / "small.py", MODULE_ONLY)
    assert [d.code for d in await diagnostics(client, small, 1)] == ["TRF001"]
    assert [a.title for a in await actions(client, small, 4, 4, only=["quickfix"])][:1] == [
        "Keep this task (module set)"]
    assert not [p for p in client.published if p.uri == big]  # the big one is still being checked
    found = await diagnostics(client, big, 2, timeout=180)
    assert [(d.range.start.line, d.code) for d in found] == [(5, "TRF001")]
    assert [p.version for p in client.published if p.uri == big][:1] == [2]


def workers(pid: int) -> List[int]:
    """The server's worker processes that are running (Linux's /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        if int(parent) == pid and state != "Z" and b"flake8_taskref.server.worker" in command:
            found.append(int(entry))
    return found


def running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the server's processes in /proc")
async def test_a_big_document_is_checked_in_a_process_of_its_own(
    plain_client: Client, tmp_path: Path,
) -> None:
    """A document of a megabyte or more is checked in the server's worker
    process (issue 33): the small document opened after it has its diagnostics
    first; the worker, killed, is started again for the next version's check;
    shut down, the server leaves no process behind."""
    client = plain_client
    await client.initialize_session(lsp.InitializeParams(capabilities=capabilities()))
    assert client._server is not None
    server = client._server.pid
    folder = project(tmp_path)
    text = big_module(20_000)
    assert len(text) >= 1_000_000
    big = opened(client, folder / "pkg" / "big.py", text)
    small = opened(client, folder / "pkg" / "small.py", MODULE_ONLY)
    assert [d.code for d in await diagnostics(client, small, 1)] == ["TRF001"]
    assert [(d.range.start.line, d.code) for d in await diagnostics(client, big, 1, timeout=180)] == [
        (4, "TRF001")]
    uris = [p.uri for p in client.published]
    assert uris.index(small) < uris.index(big)
    [worker] = workers(server)
    os.kill(worker, signal.SIGKILL)
    await until(lambda: not running(worker), "the worker killed")
    changed(client, big, 2, "\n", at=(4, 0, 4, 0))
    found = await diagnostics(client, big, 2, timeout=180)
    assert [(d.range.start.line, d.code) for d in found] == [(5, "TRF001")]
    [again] = workers(server)
    assert again != worker
    await client.shutdown_session()
    assert client._server.returncode == 0
    assert not running(again) and workers(server) == []


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the server's processes in /proc")
async def test_exit_during_a_big_check_ends_the_worker(plain_client: Client, tmp_path: Path) -> None:
    """``exit`` without ``shutdown`` while the worker checks a big document: no
    worker is left once the server has exited (the server ends it on its way out,
    without waiting for the check; a worker whose server died sees its pipe end)."""
    client = plain_client
    await client.initialize_session(lsp.InitializeParams(capabilities=capabilities()))
    assert client._server is not None
    server = client._server.pid
    opened(client, project(tmp_path) / "pkg" / "big.py", big_module(40_000))
    [worker] = await until(lambda: workers(server), "the worker")
    client.exit(None)
    assert await asyncio.wait_for(client._server.wait(), 60) == 1
    assert not running(worker)


async def test_hover_on_a_noqa_code(client: Client, tmp_path: Path) -> None:
    folder = project(tmp_path)
    text = MODULE_ONLY.replace("asyncio.sleep(1))\n", "asyncio.sleep(1))  # noqa: E501, TRF002,TRF001\n")
    uri = opened(client, folder / "pkg" / "h.py", text)
    await diagnostics(client, uri, 1)
    line = text.splitlines()[4]

    async def hover(character: int) -> Optional[lsp.Hover]:
        return await client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=4, character=character)))

    found = await hover(line.index("TRF001") + 3)
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    assert found.contents.kind == lsp.MarkupKind.Markdown
    assert found.contents.value == (
        "**TRF001** dropped-task\n\nA new task's handle is thrown away at once.\n\n"
        f"[TRF001 dropped-task]({SOURCE.format(code='TRF001')})")
    start = line.index("TRF001")
    assert found.range == lsp.Range(start=lsp.Position(line=4, character=start),
                                    end=lsp.Position(line=4, character=start + 6))
    second = await hover(line.index("TRF002"))
    assert second is not None and isinstance(second.contents, lsp.MarkupContent)
    assert second.contents.value.startswith("**TRF002** unkept-task-binding\n")
    # not on a TRF code of a noqa comment: nothing
    assert await hover(line.index("E501")) is None
    assert await hover(line.index("create_task")) is None


async def test_settings_from_the_editor(plain_client: Client, tmp_path: Path) -> None:
    """initializationOptions, then workspace/configuration (asked at start
    and again when the editor says its settings changed): select,
    extend-select and spawners, over the project's files as options are."""
    client = plain_client
    folder = project(tmp_path, "[flake8]\ntaskref-spawners = lib.start_later\n")
    caps = capabilities()
    assert caps.workspace is not None
    caps.workspace.configuration = True
    client.set_configuration({"spawners": ["lib.start_now"]}, section="flake8-taskref")
    await client.initialize_session(lsp.InitializeParams(
        capabilities=caps, initialization_options={"settings": {"extendSelect": ["TRF006"]}}))
    text = (
        "import asyncio\nfrom lib import start_later, start_now\n\n\n"
        "async def main() -> None:\n    start_now(main())\n    start_later(main())\n"
        "\n\nclass Pool:\n    def __init__(self) -> None:\n        self.tasks = set()\n\n"
        "    async def run(self) -> None:\n        self.tasks.add(asyncio.create_task(asyncio.sleep(1)))\n"
    )
    uri = opened(client, folder / "pkg" / "s.py", text)
    # the editor's spawners take the place of the file's; TRF006 from initializationOptions
    found = await diagnostics(client, uri, 1, ready=lambda found: [
        (d.range.start.line, d.code) for d in found] == [(5, "TRF001"), (14, "TRF006")])
    assert [(d.range.start.line + 1, d.code) for d in found] == [(6, "TRF001"), (15, "TRF006")]
    client.set_configuration({"select": "TRF001,TRF006", "spawners": "lib.start_later"},
                             section="flake8-taskref")
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    # (the latest publication once it is the new settings': one of the check
    # started before the change may still come first)
    found = await diagnostics(client, uri, 1, ready=lambda found: [
        (d.range.start.line, d.code) for d in found] == [(6, "TRF001"), (14, "TRF006")])
    assert [(d.range.start.line + 1, d.code) for d in found] == [(7, "TRF001"), (15, "TRF006")]
    # without editor settings: the project's files
    client.set_configuration({}, section="flake8-taskref")
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    await until(lambda: [(d.range.start.line + 1, d.code) for d in [
        p for p in client.published if p.uri == uri][-1].diagnostics] == [(7, "TRF001"), (15, "TRF006")],
        "the initializationOptions and the project's spawners")
    await client.shutdown_session()
