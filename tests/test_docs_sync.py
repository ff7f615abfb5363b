"""Codes, messages, docs pages and the changelog stay in sync (as in flake8-async)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

from flake8_taskref.analysis.messages import MESSAGES, NAMES, OFF_BY_DEFAULT
from tests.harness import DATA, REPO, expected, lint

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
    from flake8_taskref.analysis.messages import DOCS_URL, SUMMARIES

    assert sorted(SUMMARIES) == CODES
    assert all(SUMMARIES[code].endswith(".") for code in CODES)
    assert DOCS_URL.format(code="TRF001").endswith("/rules/TRF001/")


# --- The examples on the docs pages, through the real flake8 -----------------------------
# A ```python block's line that ends in "# TRF00x" must give exactly that finding; every
# other line none.  Rule pages: the "## Example" blocks carry the page's code (at least
# one line), the "## Use instead" blocks are silent.  Every other page's python blocks
# follow the same marker rule.

DOCS = REPO / "docs"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
_CLAIM = re.compile(r"#\s*(TRF\d{3})\s*$")
Block = Tuple[Path, str, int, str]  # page, section, index on the page, source


def _sections(text: str) -> List[Tuple[str, str]]:
    """(heading, body) for each '## ' section (the text before the first: '')."""
    parts = re.split(r"^(## .*)$", text, flags=re.M)
    return [("", parts[0])] + list(zip(parts[1::2], parts[2::2]))


def _blocks(page: Path) -> List[Block]:
    found: List[Block] = []
    for heading, body in _sections(page.read_text(encoding="utf-8")):
        for match in _BLOCK.finditer(body):
            found.append((page, heading, len(found), match.group(1)))
    return found


def _claims(source: str) -> Set[Tuple[int, str]]:
    return {(number, m.group(1)) for number, line in enumerate(source.splitlines(), 1)
            for m in [_CLAIM.search(line)] if m}


ALL_BLOCKS = [block for page in sorted(DOCS.rglob("*.md")) for block in _blocks(page)]


@pytest.fixture(scope="module")
def block_findings(tmp_path_factory: pytest.TempPathFactory) -> Dict[int, Set[Tuple[int, str]]]:
    """Lint every block in one flake8 run; id of the block -> {(line, code)}."""
    folder = tmp_path_factory.mktemp("doc_blocks")
    files = []
    for number, (_, _, _, source) in enumerate(ALL_BLOCKS):
        path = folder / f"block_{number}.py"
        path.write_text(source, encoding="utf-8")
        files.append(path)
    results = lint(files, "--extend-select", "TRF006,TRF008,TRF010")
    return {number: {(row, code) for row, _, code, _ in results.get(str(path), [])}
            for number, path in enumerate(files)}


def _id(block: Block) -> str:
    page, heading, index, _ = block
    return f"{page.relative_to(DOCS)}#{index}{heading.replace('## ', ':')}"


@pytest.mark.parametrize("number", range(len(ALL_BLOCKS)), ids=[_id(b) for b in ALL_BLOCKS])
def test_docs_block_gives_the_findings_it_claims(
    number: int, block_findings: Dict[int, Set[Tuple[int, str]]]
) -> None:
    page, heading, _, source = ALL_BLOCKS[number]
    assert block_findings[number] == _claims(source), f"{page}, {heading}:\n{source}"


@pytest.mark.parametrize("code", CODES)
def test_rule_page_example_and_use_instead(code: str) -> None:
    """The shape the pages keep: bad example with the page's own code, quiet fix."""
    blocks = _blocks(DOCS / "rules" / f"{code}.md")
    examples = [source for _, heading, _, source in blocks if heading == "## Example"]
    fixes = [source for _, heading, _, source in blocks if heading == "## Use instead"]
    assert examples and fixes
    for source in examples:
        claims = _claims(source)
        assert claims and {c for _, c in claims} == {code}, source
    for source in fixes:
        assert _claims(source) == set(), source


def test_docs_blocks_were_found() -> None:
    """The block pattern is not vacuous: every rule page and the home page have blocks
    with claims, and the pages' blocks are all collected."""
    pages = {page.relative_to(DOCS).as_posix() for page, _, _, source in ALL_BLOCKS
             if _claims(source)}
    assert {f"rules/{code}.md" for code in CODES} | {"index.md", "how-it-works.md"} <= pages
    total = sum(text.count("```python") for text in
                (p.read_text(encoding="utf-8") for p in DOCS.rglob("*.md")))
    assert len(ALL_BLOCKS) == total


def test_every_rule_page_is_in_the_site_navigation() -> None:
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    for code in CODES:
        assert re.search(rf"^\s+- {code} {NAMES[code]}: rules/{code}\.md$", nav, re.M), code
