"""The CI recipes of docs/ci.md and docs/usage.md: the GitHub problem matcher reads
flake8's output, flake8-json's output parses, and the command's SARIF is what
code scanning expects."""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

from tests.harness import REPO, flake8

DOCS = REPO / "docs"
EXAMPLE = "docs/examples/service.py"
# What the example gives (tests/test_readme.py checks the codes, this the places).
EXPECTED = [(14, 9, "TRF001"), (15, 9, "TRF001"), (26, 16, "TRF002"), (32, 26, "TRF003")]


def _doc_block(page: str, language: str, containing: str) -> str:
    text = (DOCS / page).read_text(encoding="utf-8")
    blocks = [b for b in re.findall(rf"^```{language}\n(.*?)^```", text, re.M | re.S)
              if containing in b]
    assert len(blocks) == 1, (page, containing)
    return blocks[0]


def test_problem_matcher_reads_flake8_output() -> None:
    matcher = json.loads(_doc_block("ci.md", "json", "problemMatcher"))
    (entry,) = matcher["problemMatcher"]
    (pattern,) = entry["pattern"]
    regexp = re.compile(pattern["regexp"])  # the JS pattern uses no JS-only syntax
    proc = flake8(["--isolated", "--select", "TRF", EXAMPLE], cwd=REPO)
    assert proc.returncode == 1, proc.stderr
    read: List[Tuple[str, int, int, str]] = []
    for line in proc.stdout.splitlines():
        match = regexp.match(line)
        assert match is not None, line
        read.append((match.group(pattern["file"]), int(match.group(pattern["line"])),
                     int(match.group(pattern["column"])), match.group(pattern["code"])))
        assert match.group(pattern["message"]) == line.split(" ", 2)[2]
    assert read == [(EXAMPLE, row, col, code) for row, col, code in EXPECTED]


def test_ci_workflow_requires_the_plugin() -> None:
    workflow = _doc_block("ci.md", "yaml", "add-matcher")
    assert "::add-matcher::.github/flake8-matcher.json" in workflow
    assert "--require-plugins flake8-taskref" in workflow


def test_require_plugins_fails_without_the_plugin() -> None:
    """`--require-plugins` (docs/usage.md, pre-commit, CI) names our distribution as
    flake8 knows it: the run passes with it installed and fails for a missing one."""
    ok = flake8(["--isolated", "--require-plugins", "flake8-taskref", "--select", "TRF", EXAMPLE],
                cwd=REPO)
    assert ok.returncode == 1 and "TRF001" in ok.stdout, ok.stderr
    missing = flake8(["--isolated", "--require-plugins", "flake8-taskref-missing", EXAMPLE],
                     cwd=REPO)
    assert missing.returncode == 1, missing.stderr
    assert "- missing: flake8-taskref-missing" in missing.stdout
    assert "TRF00" not in missing.stdout  # nothing was linted


def test_flake8_json_output_parses() -> None:
    """docs/usage.md: JSON through the flake8-json formatter, with our plugin."""
    proc = flake8(["--isolated", "--select", "TRF", "--format", "json", EXAMPLE], cwd=REPO)
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert list(report) == [EXAMPLE]
    got = [(item["line_number"], item["column_number"], item["code"]) for item in report[EXAMPLE]]
    assert got == EXPECTED
    assert all(item["filename"] == EXAMPLE and item["text"] for item in report[EXAMPLE])


def _command() -> List[str]:
    return [sys.executable, "-m", "flake8_taskref"]


def test_command_sarif_for_code_scanning() -> None:
    """docs/ci.md: the command's --format sarif, as upload-sarif reads it."""
    proc = subprocess.run([*_command(), "--format", "sarif", EXAMPLE], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    sarif = json.loads(proc.stdout)
    assert sarif["version"] == "2.1.0"
    (run,) = sarif["runs"]
    assert run["tool"]["driver"]["name"] == "flake8-taskref"
    got = []
    for result in run["results"]:
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uri"].endswith("docs/examples/service.py")
        got.append((physical["region"]["startLine"], result["ruleId"]))
    assert got == [(row, code) for row, _, code in EXPECTED]


def test_the_sarif_step_fails_on_a_misspelled_path(tmp_path: Path) -> None:
    """docs/ci.md's step (`|| [ $? -eq 1 ]`) went green on a misspelled path: the
    SARIF held an E902 alert and nothing failed.  A path named on the command
    line that does not exist exits 2, which the step lets through no more; a
    run with findings (exit 1) still lets the upload step run."""
    recipe = _doc_block("ci.md", "yaml", "upload-sarif")
    (line,) = [row.strip()[len("- run: "):] for row in recipe.splitlines() if "--format sarif" in row]
    assert line == "flake8-taskref --format sarif src/ > taskref.sarif || [ $? -eq 1 ]"
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(
        "import asyncio\n\n\nasync def main():\n    asyncio.create_task(asyncio.sleep(1))\n")
    script = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))  # the console script
    assert script is not None
    command = shlex.quote(script)
    step = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c"]  # GitHub's shell for run:
    green = subprocess.run([*step, line.replace("flake8-taskref", command, 1)], cwd=tmp_path,
                           capture_output=True, text=True, timeout=300)
    assert green.returncode == 0, green.stderr
    assert json.loads((tmp_path / "taskref.sarif").read_text())["runs"][0]["results"][0]["ruleId"] == "TRF001"
    misspelled = line.replace("flake8-taskref", command, 1).replace("src/", "scr/")
    red = subprocess.run([*step, misspelled], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert red.returncode == 1
    assert red.stderr == "flake8-taskref: error: scr/: no such file or folder (named on the command line)\n"
    assert json.loads((tmp_path / "taskref.sarif").read_text())["runs"][0]["results"][0]["ruleId"] == "E902"
