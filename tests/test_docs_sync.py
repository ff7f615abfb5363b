"""Codes, messages, docs pages and the changelog stay in sync (as in flake8-async)."""
from __future__ import annotations

import re

import pytest

from flake8_taskref.messages import MESSAGES, NAMES, OFF_BY_DEFAULT
from tests.harness import DATA, REPO, expected

CODES = sorted(MESSAGES)
SECTIONS = ("## What it does", "## Why is this bad?", "## Example", "## Use instead",
            "## Options", "## Known problems")


def test_codes_and_names() -> None:
    assert sorted(NAMES) == CODES
    for code in CODES:
        assert re.fullmatch(r"TRF\d{3}", code)
        assert MESSAGES[code].startswith(code + " ")
        assert re.fullmatch(r"[a-z]+(-[a-z]+)+", NAMES[code])
    assert set(OFF_BY_DEFAULT) <= set(CODES)


@pytest.mark.parametrize("code", CODES)
def test_docs_page(code: str) -> None:
    page = REPO / "docs" / "rules" / f"{code}.md"
    text = page.read_text(encoding="utf-8")
    assert text.startswith(f"# {code} {NAMES[code]}")
    positions = [text.index(section) for section in SECTIONS]
    assert positions == sorted(positions), f"{page}: sections out of order"
    if code in OFF_BY_DEFAULT:
        assert "off by default" in text.lower()


@pytest.mark.parametrize("code", CODES)
def test_changelog_and_index_mention_code(code: str) -> None:
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^- .*\b{code}\b", changelog, re.M), f"no CHANGELOG line for {code}"
    index = (REPO / "docs" / "index.md").read_text(encoding="utf-8")
    assert f"rules/{code}.md" in index
    assert NAMES[code] in index


@pytest.mark.parametrize("code", CODES)
def test_every_code_is_asserted_by_a_fixture(code: str) -> None:
    codes = {c for path in DATA.glob("*.py") for _, _, c in expected(path)}
    assert code in codes


def test_no_stray_docs_pages() -> None:
    pages = {p.stem for p in (REPO / "docs" / "rules").glob("*.md")}
    assert pages == set(CODES)


def test_every_code_has_a_summary_and_a_docs_url() -> None:
    from flake8_taskref.messages import DOCS_URL, SUMMARIES

    assert sorted(SUMMARIES) == CODES
    assert all(SUMMARIES[code].endswith(".") for code in CODES)
    assert DOCS_URL.format(code="TRF001").endswith("/rules/TRF001/")
