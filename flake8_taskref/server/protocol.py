"""pygls's protocol and server as the editor server needs them, and what it
reads of the editor's messages: its settings, a document's file and text.

``Protocol`` keeps no copy of the open documents (the server keeps its own,
``documents.Document``) and answers a request it cannot read with an error;
``Server`` logs the errors pygls would show in a dialog.
"""
from __future__ import annotations

import logging
import tokenize
from typing import Any, Dict, Generator, Optional, Tuple
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol.language_server import LanguageServerProtocol, lsp_method
from pygls.uris import to_fs_path

__all__ = ["NAME", "SECTION", "EDITOR_SETTINGS", "Protocol", "Server", "attribute", "document_path",
           "editor_options", "text_bytes", "watched"]

logger = logging.getLogger(__name__)

NAME = "flake8-taskref"
# The editor's settings (initializationOptions, workspace/configuration section
# "flake8-taskref"): their names, and the command's options they are.
SECTION = "flake8-taskref"
EDITOR_SETTINGS = {
    "select": "select", "extendSelect": "extend-select", "extend-select": "extend-select",
    "extend_select": "extend-select", "spawners": "taskref-spawners",
}


def attribute(root: Any, dotted: str) -> Any:
    """``root.a.b.c``, None where a part is missing (client capabilities)."""
    for name in dotted.split("."):
        root = getattr(root, name, None)
        if root is None:
            return None
    return root


def document_path(uri: str) -> Optional[str]:
    """The file of a ``file:`` URI (None for any other scheme)."""
    if urlparse(uri).scheme != "file":
        return None
    path = to_fs_path(uri)
    return path if path is not None else unquote(urlparse(uri).path)


class Protocol(LanguageServerProtocol):
    """pygls's protocol, without its copy of the open documents: the server
    keeps its own (``documents.Document``), whose lines are LSP's.  (pygls's
    splits lines as ``str.splitlines`` does, at a form feed too, and may move
    an edit's position within the parameters before the server sees them.)"""

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(
        self, params: types.DidOpenTextDocumentParams,
    ) -> Generator[Any, Any, None]:
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams,
    ) -> Generator[Any, Any, None]:
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(
        self, params: types.DidCloseTextDocumentParams,
    ) -> Generator[Any, Any, None]:
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_CLOSE, params)

    def _user_handler(self, method: str, params: Any) -> Generator[Any, Any, None]:
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    def structure_message(self, data: Dict[str, Any]) -> Any:
        """A message read; one that does not fit its method's parameters is
        logged, and a request answered with InvalidParams (pygls answers
        none: the editor would wait for ever)."""
        try:
            return super().structure_message(data)
        except Exception as exc:
            if not isinstance(data, dict) or "jsonrpc" not in data:
                raise
            method = data.get("method")
            self._logged(f"{NAME}: invalid message{f' {method}' if method else ''}: {exc.__cause__ or exc}")
            if "id" in data and method is not None:
                error = JsonRpcInvalidParams(f"invalid parameters of {method}")
                self._send_response(data["id"], None, error.to_response_error())
            return _REJECTED

    def handle_message(self, message: Any) -> None:
        if message is not _REJECTED:
            super().handle_message(message)

    def _logged(self, message: str) -> None:
        logger.warning("%s", message)
        self.notify(types.WINDOW_LOG_MESSAGE, types.LogMessageParams(type=types.MessageType.Warning,
                                                                     message=message))


_REJECTED = object()  # a message that could not be read (said and answered already)


class Server(LanguageServer):
    """pygls's server, whose errors out of any request (a message that is no
    JSON, a notification that failed) are logged (``window/logMessage``), not
    shown in a dialog for each."""

    def report_server_error(self, error: Exception, source: Any) -> None:
        message = f"{NAME}: invalid message or internal error: {error}"
        logger.warning("%s", message)
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Warning, message=message))


def text_bytes(text: str) -> Optional[bytes]:
    """A document's text as its file would hold it, for the project view (None:
    a coding cookie other than UTF-8's: the view reads the file)."""
    try:
        data = text.encode("utf-8")
        encoding, _ = tokenize.detect_encoding(iter(data.splitlines(keepends=True)[:2]).__next__)
    except (UnicodeError, SyntaxError, StopIteration):
        return None
    return data if encoding in ("utf-8", "utf-8-sig") else None


def editor_options(value: Any) -> Dict[str, str]:
    """The command's options the editor's settings give (``{"settings":
    {...}}``, ``{"flake8-taskref": {...}}`` or the settings themselves; a
    list of codes or a comma-separated string each); others are ignored."""
    for key in ("settings", SECTION):
        if isinstance(value, dict) and isinstance(value.get(key), dict):
            value = value[key]
    options: Dict[str, str] = {}
    if not isinstance(value, dict):
        return options
    for key, name in EDITOR_SETTINGS.items():
        given = value.get(key)
        if isinstance(given, str):
            options[name] = given
        elif isinstance(given, list) and all(isinstance(item, str) for item in given):
            options[name] = ",".join(given)
    return options


def watched() -> Tuple[str, ...]:
    """The configuration's files, and the project's modules (other modules'
    summaries): one glob each (eglot 1.9 refuses a registration with a brace
    glob, and Neovim 0.11's matcher does not match pkg/helpers.py with one)."""
    from flake8_taskref.project.config import CONFIG_FILES

    return tuple(f"**/{name}" for name in CONFIG_FILES) + ("**/*.py", "**/*.pyi")
