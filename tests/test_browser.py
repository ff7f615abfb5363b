"""The docs site as a reader sees it: the built site opened in headless Chromium
(Debian's `chromium` package).  Marked ``browser``, opt-in with TASKREF_BROWSER=1.

Each page is loaded over HTTP from a local server and its DOM dumped after the
scripts ran (`--dump-dom` with a virtual time budget): the home page and every rule
page show their title and their code blocks (with the theme's copy buttons, which
only its script adds), the page's search script fetches the search index, which
lists every rule page, and a query typed into the search box (Material's ``?q=``
deep link) lists the page that holds its words first."""
from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator, List, Tuple

import pytest

from flake8_taskref.analysis.messages import MESSAGES, NAMES
from tests.harness import REPO

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class _Handler(SimpleHTTPRequestHandler):
    requests: List[Tuple[str, int]] = []

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        self.requests.append((self.path, int(code)))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if CHROMIUM is None:
        pytest.fail("TASKREF_BROWSER=1 but no chromium on PATH (apt-get install chromium)")
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode == 0, proc.stderr
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _dom(url: str) -> str:
    assert CHROMIUM is not None
    proc = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                           "--virtual-time-budget=10000", "--dump-dom", url],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def _fenced_blocks(page: Path) -> int:
    return len(re.findall(r"^```", page.read_text(encoding="utf-8"), re.M)) // 2


def _check_page(dom: str, title: str, blocks: int) -> None:
    h1 = re.findall(r"<h1[^>]*>(.*?)</h1>", dom, re.S)
    assert len(h1) == 1 and re.sub(r"<[^>]+>", "", h1[0]).strip().startswith(title), h1
    assert dom.count("<pre") == blocks
    assert dom.count('class="md-code__button') >= blocks  # the theme's script ran
    assert 'class="md-search__input' in dom


def test_home_page(site: str) -> None:
    dom = _dom(f"{site}/")
    _check_page(dom, "flake8-taskref", _fenced_blocks(REPO / "docs" / "index.md"))
    assert "asyncio.create_task(self._watch())" in re.sub(r"<[^>]+>", "", dom)


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_rule_page(site: str, code: str) -> None:
    dom = _dom(f"{site}/rules/{code}/")
    _check_page(dom, f"{code} {NAMES[code]}", _fenced_blocks(REPO / "docs" / "rules" / f"{code}.md"))
    text = re.sub(r"<[^>]+>", "", dom)
    assert f"# {code}" in text  # the marked line of the example


def _cdp_search(url: str, timeout: float = 60) -> Any:
    """Open ``url`` in headless Chromium and wait until the search box has
    answered (``?q=``, Material's deep link, types the query): the result
    line and the links of the results.  The DOM is read over the DevTools
    protocol on a pipe (``--remote-debugging-pipe``: commands on fd 3, replies
    on fd 4, each JSON ending in a NUL), polling, since the search runs in a web
    worker that ``--dump-dom``'s virtual time never lets finish."""
    assert CHROMIUM is not None
    commands_in, commands = os.pipe()
    replies, replies_out = os.pipe()
    # bash moves the pipes to fds 3 and 4 (dash takes one-digit fds only)
    proc = subprocess.Popen(["bash", "-c", f'exec "$@" 3<&{commands_in} 4>&{replies_out}', "bash", CHROMIUM,
                             "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                             "about:blank"], pass_fds=(commands_in, replies_out),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(commands_in)
    os.close(replies_out)
    pending = b""
    sent = 0

    def send(method: str, params: Any = None, session: Any = None) -> Any:
        nonlocal pending, sent
        sent += 1
        message = {"id": sent, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(commands, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in pending:
                chunk = os.read(replies, 1 << 16)
                assert chunk, "chromium closed its pipe"
                pending += chunk
            raw, pending = pending.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == sent:
                assert "error" not in reply, reply
                return reply["result"]

    answered = """(() => {
        const meta = document.querySelector(".md-search-result__meta");
        if (!meta || /Initializing|Type to start/.test(meta.textContent)) return null;
        return {meta: meta.textContent.trim(),
                links: [...document.querySelectorAll(".md-search-result__item a")]
                       .map(a => a.getAttribute("href"))};
    })()"""
    try:
        target = send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        send("Page.navigate", {"url": url}, session)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = send("Runtime.evaluate", {"expression": answered, "returnByValue": True},
                         session)["result"].get("value")
            if value:
                return value
            time.sleep(0.2)
        raise AssertionError(f"no search results for {url} in {timeout} s")
    finally:
        os.close(commands)
        proc.kill()
        proc.wait()
        os.close(replies)


@pytest.mark.parametrize("query,page", [
    ("shield", "rules/TRF004/"),
    ("orphans", "rules/TRF003/"),
    ("SARIF", "ci/"),
])
def test_a_search_query_finds_its_page(site: str, query: str, page: str) -> None:
    """The search box answers a query with results, the first on the page that
    is about it (the index being fetched is not enough: the worker must load
    it and answer); a query no page holds says that nothing matches."""
    answer = _cdp_search(f"{site}/?q={urllib.parse.quote(query)}")
    assert re.fullmatch(r"\d+ matching documents?", answer["meta"]), answer
    assert urllib.parse.urlsplit(answer["links"][0]).path == f"/{page}", answer["links"][:3]
    assert _cdp_search(f"{site}/?q=zqxjkvwp") == {"meta": "No matching documents", "links": []}


def test_search_index_is_fetched(site: str) -> None:
    _Handler.requests.clear()
    _dom(f"{site}/rules/TRF003/")
    assert ("/search/search_index.json", 200) in _Handler.requests, _Handler.requests
    with urllib.request.urlopen(f"{site}/search/search_index.json") as reply:
        index = json.load(reply)
    titles = {doc["title"] for doc in index["docs"] if doc["location"].startswith("rules/")}
    for code in MESSAGES:
        assert f"{code} {NAMES[code]}" in " ".join(titles)
