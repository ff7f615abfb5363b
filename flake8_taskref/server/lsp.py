"""The Language Server: pygls and lsprotocol around ``checking`` and ``fixes``.

One process per editor session (per workspace), over stdio.  The asyncio loop
reads the editor's messages and answers them; the checks and fixes run in a
pool of threads (``WORKERS``), those of a big document in a worker process
(``worker``), so that a big document's check (seconds) delays no other
document's diagnostics nor any answer.  A document has one check running at a
time: edits made meanwhile are checked when it ends (a big document's newer
text ends the worker's check of the older one), and the diagnostics of a
version the editor has replaced are never published.

- A document is checked when it is opened or saved, and ``CHANGE_DELAY``
  after the last of a burst of edits (debounced); the diagnostics name the
  version they are for.  A configuration change (``workspace/
  didChangeWatchedFiles``, registered for the configuration files when the
  editor can watch files) re-checks every open document (``recheck``); a
  check also reads the settings again whenever one of their files changed.
- A module open in the editor: when a burst of its edits is over, the project
  view reads its text (``project.view.set_open_text``) and the open documents
  whose findings consulted it (``Report.uses``) are checked again; when it is
  saved or closed, the file's text counts again, and after a save every open
  document is checked again (its functions may be new spawners).
- Whether the fixer can fix each TRF001/TRF002 site is learnt by fixing the
  whole document once the editor has been idle ``FIX_DELAY`` (right away on
  open and save); a site it leaves gets the reason in its diagnostic's
  ``data`` (TRF003-TRF006 get theirs at once), and the diagnostics are sent
  again only then.
- Code actions are computed when asked for, from the latest check (a pending
  one is run first), and kept for the version they were made for; the whole
  document's fix (``source.fixAll.taskref``) only when it is chosen
  (``codeAction/resolve``), where the editor can ask for it then.
"""
from __future__ import annotations

import asyncio
import importlib
import logging
import os
import re
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor
from typing import (
    TYPE_CHECKING, Any, Awaitable, Callable, Dict, List, Optional, Sequence, Set, Tuple, TypeVar,
)

from lsprotocol import types

from flake8_taskref import __version__
from flake8_taskref.analysis.messages import DOCS_URL, MESSAGES, NAMES, SUMMARIES
from flake8_taskref.fix import FIXABLE, FixOptions
from flake8_taskref.server.documents import Document, line_edits
from flake8_taskref.server.protocol import NAME, SECTION
from flake8_taskref.server.protocol import Protocol as _Protocol
from flake8_taskref.server.protocol import Server as _Server
from flake8_taskref.server.protocol import attribute as _attribute
from flake8_taskref.server.protocol import document_path as _path
from flake8_taskref.server.protocol import editor_options as _editor_options
from flake8_taskref.server.protocol import watched
from flake8_taskref.server.protocol import text_bytes as _bytes

# What ``initialize`` does not need is imported at its first use (issue 33): the
# check (``checking``: the project view, the analysis), preloaded in a thread once
# ``initialize`` is answered; the fixer (``fixes``) by the first fix; the
# configuration's files by the watch registration (tests/test_server.py).
if TYPE_CHECKING:
    from flake8_taskref.server.checking import Projects, Report
    from flake8_taskref.server.fixes import FixAll, SiteFixes
    from flake8_taskref.server.worker import Worker

__all__ = ["TaskRefServer", "SOURCE", "FIX_ALL", "CHANGE_DELAY", "FIX_DELAY"]

logger = logging.getLogger(__name__)

SOURCE = "flake8-taskref"  # the diagnostics' source, as editors show it beside the code
FIX_ALL = "source.fixAll.taskref"
CHANGE_DELAY = 0.025  # seconds after the last edit of a burst before the check
FIX_DELAY = 0.3  # seconds of quiet before the whole fix that tells which sites it leaves
WORKERS = 4  # threads that check and fix documents, off the loop that reads the editor's messages
STACK_SIZE = 64 * 1024 * 1024  # theirs (a deeply nested file is parsed and analysed in one)
_T = TypeVar("_T")
_NOQA = re.compile(r"#\s*noqa\s*:\s*(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*)", re.IGNORECASE)
_CODE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)
KEEP_MODULE = "Keep this task (module set)"
KEEP_INSTANCE = "Keep this task (instance set)"
KEEP_NONE = "Keep this task"
FIX_ALL_TITLE = "Keep every task in this file (flake8-taskref --fix)"
SYNTAX_ERROR = "E999"  # (project.check's)


class TaskRefServer:
    """The server: its documents, their latest checks, and the LSP handlers."""

    def __init__(self) -> None:
        self.ls = _Server(
            NAME, __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=_Protocol,
        )
        self._projects: Optional[Projects] = None  # made by the first check (``projects``)
        self.options: Dict[str, str] = {}  # the editor's settings, as the command's options
        self._options_lock = threading.Lock()  # (the first check may make the projects in a thread)
        self.documents: Dict[str, Document] = {}
        self.reports: Dict[str, Report] = {}  # the latest check of each open document
        self.fixed: Dict[str, FixAll] = {}  # the whole fix of the report's version
        self.site_cache: Dict[Tuple[str, Optional[int], int], SiteFixes] = {}
        self.timers: Dict[str, asyncio.TimerHandle] = {}  # pending checks
        self.fix_timers: Dict[str, asyncio.TimerHandle] = {}  # pending whole fixes
        self.told: Set[str] = set()  # error messages shown once
        self.shut_down = False
        # checks and fixes run in threads; a document has one check running at
        # a time, and another is made after it when its text changed meanwhile
        self._pool: Optional[ThreadPoolExecutor] = None
        self.running: Dict[str, "asyncio.Future[Tuple[Report, Optional[Exception]]]"] = {}
        self.again: Dict[str, float] = {}  # a check asked for while one runs (its fix delay)
        self.fixing: Dict[str, Tuple[Report, "asyncio.Future[Any]"]] = {}  # whole fixes being made
        self.fix_tokens: Dict[str, object] = {}  # those of the worker: their token
        self.tasks: Set["asyncio.Future[Any]"] = set()
        # big documents are checked and fixed in a worker process (``worker.BIG``),
        # one job at a time, waited for by a thread of its own
        self._worker: Optional[Worker] = None
        self._waiter: Optional[ThreadPoolExecutor] = None
        # the worker's checks: their future, token and text
        self.in_worker: Dict[str, Tuple["asyncio.Future[Any]", object, str]] = {}
        self.open_texts: Dict[str, bytes] = {}  # what the view was told (set_open_text), for the worker's
        self.generation = 0  # times the view read the project's modules again (forget_all)
        self.initial_options: Dict[str, str] = {}  # the editor's initializationOptions
        self._register()

    @property
    def projects(self) -> Projects:
        """The settings of each project folder (made, and the check's modules
        imported, by its first use, in whichever thread)."""
        with self._options_lock:
            if self._projects is None:
                from flake8_taskref.server.checking import Projects

                self._projects = Projects()
                self._projects.set_options(self.options)
            return self._projects

    def _set_options(self, options: Dict[str, str]) -> bool:
        """The editor's settings (``select``, ``extend-select``,
        ``taskref-spawners``); whether they changed."""
        with self._options_lock:
            if options == self.options:
                return False
            self.options = dict(options)
            if self._projects is not None:
                self._projects.set_options(self.options)
            return True

    # ------------------------------------------------------------ wiring
    def _register(self) -> None:
        # pygls marks the functions it registers: a bound method cannot be
        # marked, so each handler is a function that calls one.
        def on(name: str, method: Callable[[Any], Any], options: Any = None) -> None:
            def handler(params: Any) -> Any:
                return method(params)

            self.ls.feature(name, options)(handler)

        def on_async(name: str, method: Callable[[Any], Awaitable[Any]], options: Any = None) -> None:
            async def handler(params: Any) -> Any:
                return await method(params)

            self.ls.feature(name, options)(handler)

        async def initialized(params: types.InitializedParams) -> None:
            await self._initialized(params)

        self.ls.feature(types.INITIALIZED)(initialized)
        on(types.INITIALIZE, self._initialize)
        on(types.TEXT_DOCUMENT_HOVER, self._hover)
        on(types.TEXT_DOCUMENT_DID_OPEN, self._did_open)
        on(types.TEXT_DOCUMENT_DID_CHANGE, self._did_change)
        on(types.TEXT_DOCUMENT_DID_SAVE, self._did_save, types.SaveOptions(include_text=False))
        on(types.TEXT_DOCUMENT_DID_CLOSE, self._did_close)
        on(types.WORKSPACE_DID_CHANGE_WATCHED_FILES, self._did_change_watched_files)
        on(types.WORKSPACE_DID_CHANGE_CONFIGURATION, self._did_change_configuration)
        on_async(types.TEXT_DOCUMENT_CODE_ACTION, self._code_action,
                 types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL],
                                         resolve_provider=True))
        on_async(types.CODE_ACTION_RESOLVE, self._resolve)
        on(types.SHUTDOWN, self._shutdown)

    def serve(self) -> int:
        """Talk LSP over stdin and stdout until the editor says exit; the exit
        status LSP asks for (0 after shutdown, else 1)."""
        try:
            self.ls.start_io()
        finally:  # (exit raises SystemExit; the editor may end the pipe) no worker outlives the server
            if self._worker is not None:
                self._worker.close()
        return 0 if self.shut_down else 1

    @property
    def _encoding(self) -> str:
        encoding = self.ls.workspace.position_encoding
        if isinstance(encoding, types.PositionEncodingKind):
            return str(encoding.value)
        return str(encoding or "utf-16")

    def _fallback_folder(self) -> str:
        """Where a document without a file gets its configuration: the first
        workspace folder, else the workspace's root, else the server's folder."""
        for folder in self.ls.workspace.folders.values():
            path = _path(folder.uri)
            if path is not None:
                return path
        root = self.ls.workspace.root_path
        return str(root) if root else os.getcwd()

    # ---------------------------------------------------------- handlers
    def _initialize(self, params: types.InitializeParams) -> None:
        self.initial_options = _editor_options(params.initialization_options)
        self._set_options(self.initial_options)
        # the check's modules, imported while the editor reads the answer
        asyncio.get_running_loop().call_soon(
            lambda: self._spawn(self._in_thread(importlib.import_module, "flake8_taskref.server.checking")))

    async def _initialized(self, params: types.InitializedParams) -> None:
        if await self._configuration():
            self.recheck()  # (a document opened meanwhile was checked without them)
        capabilities = self.ls.client_capabilities
        if not _attribute(capabilities, "workspace.did_change_watched_files.dynamic_registration"):
            return
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern=pattern) for pattern in watched()]
        )
        registration = types.Registration(
            id="flake8-taskref-configuration", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=options,
        )
        try:
            await self.ls.client_register_capability_async(
                types.RegistrationParams(registrations=[registration])
            )
        except Exception as exc:  # the editor could not: a check reads changed settings anyway
            logger.warning("could not watch the configuration files: %s", exc)

    async def _configuration(self) -> bool:
        """The editor's settings asked for (``workspace/configuration``, where
        the editor answers it); whether they changed."""
        if not _attribute(self.ls.client_capabilities, "workspace.configuration"):
            return False
        try:
            found = await self.ls.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)]))
        except Exception as exc:  # the editor could not: its initializationOptions stand
            logger.warning("could not read the editor's settings: %s", exc)
            return False
        if not found or found[0] is None:
            return False
        return self._set_options({**self.initial_options, **_editor_options(found[0])})

    def _did_change_configuration(self, params: types.DidChangeConfigurationParams) -> None:
        self._spawn(self._configuration_changed(params.settings))

    async def _configuration_changed(self, pushed: Any) -> None:
        changed = await self._configuration()
        if not _attribute(self.ls.client_capabilities, "workspace.configuration"):
            if isinstance(pushed, dict) and isinstance(pushed.get(SECTION), dict):
                options = {**self.initial_options, **_editor_options(pushed[SECTION])}
                changed = self._set_options(options)
        if changed:
            self.recheck()

    def _hover(self, params: types.HoverParams) -> Optional[types.Hover]:
        """A TRF code in a ``# noqa:`` comment: the rule's name, summary and page."""
        document = self.documents.get(params.text_document.uri)
        position = params.position
        if document is None or not 0 <= position.line < len(document.lines):
            return None
        line = document.lines[position.line].rstrip("\r\n")
        at = document.char_index(position.line, position.character)
        for comment in _NOQA.finditer(line):
            for code in _CODE.finditer(line, comment.start("codes"), comment.end("codes")):
                name = code.group().upper()
                if code.start() <= at <= code.end() and name in MESSAGES:
                    text = (f"**{name}** {NAMES[name]}\n\n{SUMMARIES[name]}\n\n"
                            f"[{name} {NAMES[name]}]({DOCS_URL.format(code=name)})")
                    (row, first), (_, last) = (document.position(position.line, code.start()),
                                               document.position(position.line, code.end()))
                    return types.Hover(
                        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
                        range=types.Range(start=types.Position(line=row, character=first),
                                          end=types.Position(line=row, character=last)),
                    )
        return None

    def _did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        document = Document(item.uri, item.text, item.version, _path(item.uri), self._encoding)
        self.documents[item.uri] = document
        self.check(item.uri, fix_delay=0.0)

    def _did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        document = self.documents.get(uri)
        if document is None:
            return
        for change in params.content_changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                start, end = change.range.start, change.range.end
                document.change((start.line, start.character), (end.line, end.character), change.text)
            else:
                document.change(None, None, change.text)
        document.version = params.text_document.version
        self._cancel(uri)
        self.timers[uri] = asyncio.get_running_loop().call_later(CHANGE_DELAY, self._changed, uri)

    def _changed(self, uri: str) -> None:
        """A burst of edits is over: the document is checked, and the open
        documents whose findings consulted it, with its text as it is now."""
        self.check(uri)
        document = self.documents.get(uri)
        if document is not None and document.path is not None and self._users(document.path, uri):
            self._spawn(self._module_changed(document.path, _bytes(document.text), uri))

    def _did_save(self, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        document = self.documents.get(uri)
        if document is None:
            return
        self.check(uri, fix_delay=0.0)
        if document.path is not None and document.path.endswith((".py", ".pyi")):
            # its text is the file's now; what the project's modules say may
            # have changed (a function that keeps its task, a new spawner)
            self._spawn(self._module_saved(document.path, uri))

    def _did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        self._cancel(uri)
        self._supersede(uri)
        if self._worker is not None:
            self._worker.interrupt(self.fix_tokens.get(uri))
        self._forget(uri)
        document = self.documents.pop(uri, None)
        self.ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        if document is not None and document.path is not None and self._users(document.path, uri):
            self._spawn(self._module_changed(document.path, None, uri))  # the file's text again

    def _users(self, path: str, uri: str) -> List[str]:
        """The other open documents whose latest findings consulted ``path``."""
        absolute = os.path.abspath(path)
        return [other for other, report in self.reports.items() if other != uri and absolute in report.uses]

    async def _module_changed(self, path: str, data: Optional[bytes], uri: str) -> None:
        """The view reads the editor's text of a module (None: the file's), and
        the documents that used the module are checked again."""
        from flake8_taskref.project.view import set_open_text

        self._told_open(path, data)
        await self._in_thread(set_open_text, path, data)
        self.recheck(self._users(path, uri))

    def _told_open(self, path: str, data: Optional[bytes]) -> None:
        """What the view is told of a module the editor holds, kept for the worker's view."""
        if data is None:
            self.open_texts.pop(os.path.abspath(path), None)
        else:
            self.open_texts[os.path.abspath(path)] = data

    async def _module_saved(self, path: str, uri: str) -> None:
        from flake8_taskref.project.view import forget_all, set_open_text

        users = self._users(path, uri)
        self._told_open(path, None)
        self.generation += 1
        await self._in_thread(set_open_text, path, None)
        await self._in_thread(forget_all)
        self.recheck(users)  # first those that used it, then the others (a new spawner)
        self.recheck([other for other in self.documents if other != uri and other not in users])

    def _did_change_watched_files(self, params: types.DidChangeWatchedFilesParams) -> None:
        from flake8_taskref.project.config import CONFIG_FILES

        names = [os.path.basename(_path(change.uri) or "") for change in params.changes]
        if any(name in CONFIG_FILES for name in names):
            self.projects.forget()
        elif not any(name.endswith((".py", ".pyi")) for name in names):
            return
        # a module changed on disk (saved, created, removed): what the project
        # view knows of the modules is read again (from its cache, where the
        # content is the same), and every open document checked again: those
        # that use the changed module get its new summary
        self._spawn(self._forget_and_recheck())

    async def _forget_and_recheck(self) -> None:
        from flake8_taskref.project.view import forget_all

        self.generation += 1
        await self._in_thread(forget_all)
        self.recheck()

    def _shutdown(self, params: None) -> None:
        self.shut_down = True
        for uri in list(self.documents):
            self._cancel(uri)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        if self._waiter is not None:
            self._waiter.shutdown(wait=False, cancel_futures=True)
        if self._worker is not None:
            self._worker.close()  # killed and waited for: no process is left behind

    # ----------------------------------------------------------- threads
    @property
    def pool(self) -> ThreadPoolExecutor:
        if self._pool is None:
            size = threading.stack_size()
            try:
                threading.stack_size(STACK_SIZE)
            except (ValueError, RuntimeError):  # the platform sets it
                pass
            try:
                self._pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="taskref")
                # the threads are made now, with that stack: each waits for the others
                # (a pool makes a thread only when none is idle)
                barrier = threading.Barrier(WORKERS)
                for done in [self._pool.submit(barrier.wait, 10) for _ in range(WORKERS)]:
                    done.result()
            finally:
                threading.stack_size(size)
        return self._pool

    def _in_thread(self, function: Callable[..., _T], *args: Any) -> "asyncio.Future[_T]":
        return asyncio.get_running_loop().run_in_executor(self.pool, function, *args)

    @property
    def worker(self) -> Worker:
        """The worker process of big documents (started by its first job)."""
        if self._worker is None:
            from flake8_taskref.server.worker import Worker

            self._worker = Worker()
        return self._worker

    def _in_worker(self, token: object, name: str,
                   *args: Any) -> "asyncio.Future[Tuple[Any, Optional[Exception]]]":
        """A job of the worker process (``worker.JOBS``), with what its view
        must know now: (its result, None), or (None, why it failed)."""
        from flake8_taskref.server.worker import State

        if self._waiter is None:
            self._waiter = ThreadPoolExecutor(1, thread_name_prefix="taskref-worker")
        state = State(dict(self.options), dict(self.open_texts), self.generation)
        return asyncio.get_running_loop().run_in_executor(
            self._waiter, self.worker.attempt, token, name, state, *args)

    def _big(self, text: str) -> bool:
        from flake8_taskref.server.worker import BIG

        return len(text) >= BIG

    def _spawn(self, coroutine: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: "asyncio.Future[Any]") -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            assert isinstance(exc, Exception)
            self._internal_error(NAME, exc)

    # ------------------------------------------------------------ checks
    def recheck(self, uris: Optional[Sequence[str]] = None) -> None:
        """Check the open documents again (``uris``: those only): after a
        configuration change, and, with the project view, after a change of a
        module they import."""
        for uri in list(self.documents) if uris is None else uris:
            if uri in self.documents:
                self.check(uri, fix_delay=FIX_DELAY)

    def _cancel(self, uri: str) -> None:
        for timers in (self.timers, self.fix_timers):
            timer = timers.pop(uri, None)
            if timer is not None:
                timer.cancel()

    def _forget(self, uri: str) -> None:
        self.reports.pop(uri, None)
        self.fixed.pop(uri, None)
        for key in [key for key in self.site_cache if key[0] == uri]:
            del self.site_cache[key]

    def check(self, uri: str, fix_delay: float = FIX_DELAY) -> None:
        """Check a document (in a thread; a big one in the worker process) and
        publish its diagnostics; then, after ``fix_delay`` of quiet, learn which
        sites the fixer leaves.  A check asked for while one of the document
        runs is made after it, unless the running one is the worker's and of
        another text: that one is ended (a newer version supersedes it).  The
        diagnostics of a version the editor has replaced are not published."""
        self._cancel(uri)
        document = self.documents.get(uri)
        if document is None:
            return
        if uri in self.running:
            held = self.in_worker.get(uri)
            if held is None or held[2] == document.text:
                self.again[uri] = min(fix_delay, self.again.get(uri, fix_delay))
                return
            self._supersede(uri)
        job = self.fixing.get(uri)
        if job is not None and job[0].text != document.text and self._worker is not None:
            self._worker.interrupt(self.fix_tokens.get(uri))  # a fix of a replaced text: ended
        if self._big(document.text):
            token = object()
            future = self._in_worker(token, "check", uri, document.path, document.text, document.version,
                                     self._fallback_folder())
            self.in_worker[uri] = (future, token, document.text)
        else:
            future = self._in_thread(self._check_text, uri, document.path, document.text, document.version,
                                     self._fallback_folder())
        self.running[uri] = future
        future.add_done_callback(lambda done: self._checked(uri, done, fix_delay))

    def _supersede(self, uri: str) -> None:
        """The worker's check of the document is no longer wanted: dropped
        if it waits, ended with its process if it runs."""
        held = self.in_worker.pop(uri, None)
        if held is None:
            return
        future, token, _ = held
        if self.running.get(uri) is future:
            del self.running[uri]
        self.again.pop(uri, None)
        future.cancel()
        if self._worker is not None:
            self._worker.interrupt(token)

    def _check_text(self, uri: str, path: Optional[str], text: str, version: Optional[int],
                    fallback: str) -> Tuple[Report, Optional[Exception]]:
        """(In a thread.)  The report of one version; a bug of ours is
        returned with an empty report, to be said on the loop."""
        from flake8_taskref.server.checking import Report, check_document

        try:
            return check_document(uri, path, text, version, self.projects, fallback), None
        except Exception as exc:
            return Report(version, text, path or uri, "", [], [], []), exc

    def _checked(self, uri: str, done: "asyncio.Future[Tuple[Report, Optional[Exception]]]",
                 fix_delay: float) -> None:
        held = self.in_worker.get(uri)
        if held is not None and held[0] is done:
            del self.in_worker[uri]
        if done.cancelled() or self.shut_down:  # superseded (a newer check runs), or shut down
            if self.running.get(uri) is done:
                del self.running[uri]
            return
        if self.running.get(uri) is done:
            del self.running[uri]
        again = self.again.pop(uri, None)
        document = self.documents.get(uri)
        if document is None or done.cancelled():
            return
        report, exc = done.result()
        if report is None:  # the worker's check failed: an empty report, and why
            from flake8_taskref.server.checking import Report

            report = Report(document.version, document.text, document.path or uri, "", [], [], [])
        current = report.text == document.text
        if current:
            if exc is not None:
                self._internal_error(document.path or uri, exc)
            self._take(uri, document, report, fix_delay)
        if again is not None or (not current and uri not in self.timers):
            self.check(uri, again if again is not None else fix_delay)

    def _take(self, uri: str, document: Document, report: Report, fix_delay: float) -> None:
        """A check of the document's current text: kept, and published."""
        before, known = self.reports.get(uri), self.fixed.get(uri)
        self._forget(uri)
        self.reports[uri] = report
        if report.error is not None:
            self._tell(f"{NAME}: error: {report.error}")
        same = before is not None and before[1:8] == report[1:8]  # the same text and findings (a save)
        if same and known is not None:
            self.fixed[uri] = known
        self._publish(document, report, known.why if same and known is not None else {})
        if any(site is not None and f.code in FIXABLE for f, site in zip(report.findings, report.sites)):
            loop = asyncio.get_running_loop()
            self.fix_timers[uri] = loop.call_later(fix_delay, self._fix_pass, uri, report.version)

    def _fix_pass(self, uri: str, version: Optional[int]) -> None:
        self.fix_timers.pop(uri, None)
        document, report = self.documents.get(uri), self.reports.get(uri)
        if document is None or report is None or report.version != version or document.version != version:
            return
        self._spawn(self._fix_and_publish(uri, document, report))

    async def _fix_and_publish(self, uri: str, document: Document, report: Report) -> None:
        done = await self._fix_all(uri, report)
        if self.reports.get(uri) is not report or report.text != document.text:
            return  # the document changed meanwhile
        if done is not None and any(report.findings[index].code in FIXABLE for index in done.why):
            self._publish(document, report, done.why)

    async def _fix_all(self, uri: str, report: Report) -> Optional[FixAll]:
        """The whole fix of the report's version (made in a thread, once, and
        kept for it)."""
        if uri in self.fixed and self.reports.get(uri) is report:
            return self.fixed[uri]
        job = self.fixing.get(uri)
        if job is None or job[0] is not report:
            options = self._fixing(report)
            if options is None:
                return None
            from flake8_taskref.server.fixes import fix_all

            if self._big(report.text):
                token = self.fix_tokens[uri] = object()
                made = self._in_worker(token, "fix_all", report, options)
            else:
                made = self._in_thread(_guarded, fix_all, report, options)
            job = self.fixing[uri] = (report, made)
        done, exc = await asyncio.shield(job[1])
        if self.fixing.get(uri) is job:
            del self.fixing[uri]
            self.fix_tokens.pop(uri, None)
        if exc is not None:
            document = self.documents.get(uri)
            if document is not None and document.text == report.text and not self.shut_down:  # (else: ended)
                self._internal_error(report.path, exc)
            return None
        if self.reports.get(uri) is report:
            self.fixed[uri] = done
        return done  # type: ignore[no-any-return]

    def _fixing(self, report: Report) -> Optional[FixOptions]:
        """How the fix is written in the document's project (None: its
        configuration cannot be read, which is said once)."""
        from flake8_taskref.project.config import ConfigError

        try:
            return self.projects.settings(report.folder, fixing=True).fixing
        except ConfigError as exc:
            self._tell(f"{NAME}: error: {exc}")
            return None

    def _tell(self, message: str) -> None:
        """An error the user should see (shown, and logged), once."""
        if message not in self.told:
            self.told.add(message)
            self.ls.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))
            self.ls.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Error, message=message)
            )

    def _internal_error(self, where: str, exc: Exception) -> None:
        logger.error("%s: internal error", where, exc_info=exc)
        lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
        self.ls.window_log_message(
            types.LogMessageParams(type=types.MessageType.Error, message="".join(lines))
        )
        self._tell(f"{NAME}: {where}: internal error: {type(exc).__name__}: {exc}".rstrip(": "))

    # ------------------------------------------------------- diagnostics
    def _position(self, document: Document, line: int, char: int) -> types.Position:
        """An LSP position for a character index in a line of the report's
        lines (flake8's: a byte-order mark is not in its first line)."""
        if line == 0 and document.text.startswith("\ufeff"):
            char += 1
        row, column = document.position(line, char)
        return types.Position(line=row, character=column)

    def _range(self, document: Document, report: Report, index: int) -> types.Range:
        from flake8_taskref.project.check import char_col

        finding, site = report.findings[index], report.sites[index]
        line, char = finding.line - 1, finding.char_col - 1
        if site is not None:
            end_line, end_char = site[2] - 1, char_col(report.lines, site[2], site[3])
        else:  # E999: the character at the error, if there is one
            end_line, end_char = line, char + 1
        start = self._position(document, line, char)
        end = self._position(document, end_line, end_char)
        if (end.line, end.character) < (start.line, start.character):
            end = start
        return types.Range(start=start, end=end)

    def _diagnostic(
        self, document: Document, report: Report, index: int, why: Optional[str],
    ) -> types.Diagnostic:
        finding = report.findings[index]
        trf = finding.code in MESSAGES
        return types.Diagnostic(
            range=self._range(document, report, index),
            message=finding.text,
            severity=types.DiagnosticSeverity.Warning if trf else types.DiagnosticSeverity.Error,
            code=finding.code,
            code_description=types.CodeDescription(href=DOCS_URL.format(code=finding.code)) if trf else None,
            source=SOURCE,
            data={"fixable": False, "why": why} if why is not None else None,
        )

    def _diagnostics(
        self, document: Document, report: Report, left: Dict[int, str],
    ) -> List[types.Diagnostic]:
        from flake8_taskref.server.fixes import needs_a_human

        diagnostics = []
        for index, finding in enumerate(report.findings):
            why = left.get(index) if finding.code in FIXABLE else needs_a_human(finding.code)
            if finding.code == SYNTAX_ERROR:
                why = None
            diagnostics.append(self._diagnostic(document, report, index, why))
        return diagnostics

    def _publish(self, document: Document, report: Report, left: Dict[int, str]) -> None:
        self.ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=document.uri, diagnostics=self._diagnostics(document, report, left), version=report.version,
        ))

    # ------------------------------------------------------ code actions
    async def _current(self, uri: str) -> Optional[Tuple[Document, Report]]:
        """The document and the check of its text, made now if one is
        pending, running or stale."""
        for _ in range(100):  # (an editor that edits without pause: the latest made)
            document = self.documents.get(uri)
            if document is None:
                return None
            report = self.reports.get(uri)
            running = self.running.get(uri)
            if running is None and (uri in self.timers or report is None or report.text != document.text):
                self.check(uri)
                running = self.running.get(uri)
            if running is None:
                return None if report is None else (document, report)
            await asyncio.wait([running])
            await asyncio.sleep(0)  # its callback has run
        report = self.reports.get(uri)
        document = self.documents.get(uri)
        return None if report is None or document is None else (document, report)

    async def _code_action(self, params: types.CodeActionParams) -> Optional[List[types.CodeAction]]:
        current = await self._current(params.text_document.uri)
        if current is None:
            return None
        document, report = current
        only = params.context.only

        def wanted(kind: str) -> bool:
            return only is None or any(kind == str(o) or kind.startswith(f"{o}.") for o in only)

        actions: List[types.CodeAction] = []
        if wanted(types.CodeActionKind.QuickFix.value):
            for index in self._asked(document, report, params):
                actions += await self._site_actions(document, report, index)
        if wanted(FIX_ALL) and self._may_fix(document.uri, report):
            action = types.CodeAction(title=FIX_ALL_TITLE, kind=FIX_ALL,
                                      data={"uri": document.uri, "version": document.version})
            if not self._lazy():
                action = await self._resolve(action)
            if action.edit is not None or self._lazy():
                actions.append(action)
        return actions

    def _may_fix(self, uri: str, report: Report) -> bool:
        """May the whole fix change the document: has it a TRF001/TRF002 site
        that the fixer does not leave (as far as it is known yet)?"""
        done = self.fixed.get(uri)
        if done is not None:
            return done.text is not None
        return any(site is not None and f.code in FIXABLE for f, site in zip(report.findings, report.sites))

    def _lazy(self) -> bool:
        """Does the editor ask for a code action's edit only when it is chosen?"""
        capabilities = self.ls.client_capabilities
        properties = _attribute(capabilities, "text_document.code_action.resolve_support.properties")
        return bool(properties) and "edit" in properties

    async def _resolve(self, action: types.CodeAction) -> types.CodeAction:
        """The whole fix's edit, made when the editor applies it (the fix of
        the version it was offered for; none if the document changed since)."""
        data = action.data if isinstance(action.data, dict) else {}
        uri = data.get("uri")
        current = await self._current(uri) if isinstance(uri, str) else None
        if current is None or action.kind != FIX_ALL or data.get("version") != current[0].version:
            return action
        document, report = current
        done = await self._fix_all(uri, report) if isinstance(uri, str) else None
        if done is not None and done.text is not None:
            action.edit = self._edit(document, done.text)
        return action

    def _asked(self, document: Document, report: Report, params: types.CodeActionParams) -> List[int]:
        """The findings the editor asks about: those in the range, and those
        of the diagnostics it names (Neovim names a line's)."""
        named = {
            (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.code)
            for d in params.context.diagnostics if d.source == SOURCE
        }
        asked = params.range
        found = []
        for index, finding in enumerate(report.findings):
            if finding.code == SYNTAX_ERROR:
                continue
            where = self._range(document, report, index)
            start, end = (where.start.line, where.start.character), (where.end.line, where.end.character)
            key = (*start, *end, finding.code)
            overlaps = (start <= (asked.end.line, asked.end.character)
                        and (asked.start.line, asked.start.character) <= end)
            if overlaps or key in named:
                found.append(index)
        return found

    async def _site_actions(self, document: Document, report: Report, index: int) -> List[types.CodeAction]:
        from flake8_taskref.server.fixes import needs_a_human, site_fixes, suppression

        finding = report.findings[index]
        diagnostic = self._diagnostic(document, report, index, None)
        actions: List[types.CodeAction] = []
        options = self._fixing(report)
        if finding.code in FIXABLE and options is not None:
            key = (document.uri, report.version, index)
            fixes = self.site_cache.get(key)
            if fixes is None:
                if self._big(report.text):
                    made, exc = await self._in_worker(None, "site_fixes", report, index, options)
                else:
                    made, exc = await self._in_thread(_guarded, site_fixes, report, index, options)
                if made is None:
                    if exc is not None:
                        self._internal_error(report.path, exc)
                    return []
                fixes = self.site_cache[key] = made
            diagnostic = self._diagnostic(document, report, index, fixes.why)
            preferred = "instance" if options.keep == "instance" and fixes.instance is not None else "module"
            forms = (("module", KEEP_MODULE, fixes.module), ("instance", KEEP_INSTANCE, fixes.instance))
            for form, title, text in forms:
                if text is not None:
                    actions.append(types.CodeAction(
                        title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                        edit=self._edit(document, text), is_preferred=form == preferred,
                    ))
            if fixes.why is not None and _attribute(self.ls.client_capabilities,
                                                    "text_document.code_action.disabled_support"):
                actions.append(types.CodeAction(
                    title=KEEP_NONE, kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                    disabled=types.CodeActionDisabled(reason=fixes.why),
                ))
        else:
            diagnostic = self._diagnostic(document, report, index, needs_a_human(finding.code))
        if not self._noqa_disabled(report):
            edit = suppression(report, index)
            if edit is not None:
                row, start, end, new = edit
                text_edit = types.TextEdit(
                    range=types.Range(start=self._position(document, row, start),
                                      end=self._position(document, row, end)),
                    new_text=new,
                )
                actions.append(types.CodeAction(
                    title=f"Suppress {finding.code} on this line", kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic], edit=self._text_edits(document, [text_edit]),
                ))
        return actions

    def _noqa_disabled(self, report: Report) -> bool:
        from flake8_taskref.project.config import ConfigError

        try:
            return self.projects.settings(report.folder).disable_noqa
        except ConfigError:
            return True

    def _edit(self, document: Document, new_text: str) -> types.WorkspaceEdit:
        """The edits that turn the document's text into ``new_text``, whole lines at a time."""
        edits = []
        for first, after, text in line_edits(document.text, new_text):
            start, end = document.line_start(first), document.line_start(after)
            edits.append(types.TextEdit(
                range=types.Range(start=types.Position(line=start[0], character=start[1]),
                                  end=types.Position(line=end[0], character=end[1])),
                new_text=text,
            ))
        return self._text_edits(document, edits)

    def _text_edits(self, document: Document, edits: List[types.TextEdit]) -> types.WorkspaceEdit:
        """A WorkspaceEdit of the document's version, where the editor takes one."""
        if _attribute(self.ls.client_capabilities, "workspace.workspace_edit.document_changes"):
            identifier = types.OptionalVersionedTextDocumentIdentifier(
                uri=document.uri, version=document.version
            )
            changes: List[Any] = [types.TextDocumentEdit(text_document=identifier, edits=list(edits))]
            return types.WorkspaceEdit(document_changes=changes)
        return types.WorkspaceEdit(changes={document.uri: list(edits)})


def _guarded(function: Callable[..., _T], *args: Any) -> Tuple[Optional[_T], Optional[Exception]]:
    """(In a thread.)  What ``function`` returns, or the exception it raised
    (a bug of ours, said on the loop)."""
    try:
        return function(*args), None
    except Exception as exc:
        return None, exc
