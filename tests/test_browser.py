"""The docs site as a reader sees it: the built site opened in headless Chromium
(Debian's `chromium` package).  Marked ``browser``, opt-in with TASKREF_BROWSER=1.

Each page is loaded over HTTP from a local server and its DOM dumped after the
scripts ran (`--dump-dom` with a virtual time budget): the home page and every rule
page show their title and their code blocks (with the theme's copy buttons, which
only its script adds), and the page's search script fetches the search index, which
lists every rule page."""
from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import threading
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


def test_search_index_is_fetched(site: str) -> None:
    _Handler.requests.clear()
    _dom(f"{site}/rules/TRF003/")
    assert ("/search/search_index.json", 200) in _Handler.requests, _Handler.requests
    with urllib.request.urlopen(f"{site}/search/search_index.json") as reply:
        index = json.load(reply)
    titles = {doc["title"] for doc in index["docs"] if doc["location"].startswith("rules/")}
    for code in MESSAGES:
        assert f"{code} {NAMES[code]}" in " ".join(titles)
