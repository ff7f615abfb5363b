"""``self.create_task = self.loop.create_task``: the calls of the attribute are a
loop's spawns (TRF001) only while no other store of an attribute so named can be
seen in the file.  Each other store is a case of its own (one silences the whole
file), found by a fresh-eyes review of the first version; run through the
installed flake8."""
from pathlib import Path
from typing import List, Tuple

import pytest

from tests.harness import lint

BASE = '''import asyncio


async def job():
    await asyncio.sleep(1)


class Bot:
    def __init__(self):
        self.loop = asyncio.get_event_loop()
        self.create_task = self.loop.create_task

    def ping(self):
        self.create_task(job())
'''

# each added to BASE: a store the attribute's calls may find instead
OTHER_STORES = {
    "unpacked": '''
    def use(self, spawn):
        self.create_task, self.name = spawn, "custom"
''',
    "setattr": '''
    def use(self, spawn):
        setattr(self, "create_task", spawn)
''',
    "setattr_by_name": '''
    def use(self, name, spawn):
        setattr(self, name, spawn)
''',
    "method_of_the_name": '''
    def create_task(self, coro):
        return asyncio.get_event_loop().create_task(coro)
''',
    "subclass_store": '''

class Tracked(Bot):
    def __init__(self):
        super().__init__()
        self.create_task = self._tracked

    def _tracked(self, coro):
        return coro
''',
    "another_receiver": '''

def wire(bot, spawn):
    bot.create_task = spawn
''',
    "class_attribute": '''
    @classmethod
    def use(cls, spawn):
        cls.create_task = spawn
''',
}


def _lint(tmp_path: Path, text: str) -> List[Tuple[int, int, str]]:
    path = tmp_path / "bot.py"
    path.write_text(text, encoding="utf-8")
    return [(line, col, code) for line, col, code, _ in lint([path]).get(str(path), [])]


def test_the_attribute_is_the_loops(tmp_path: Path) -> None:
    assert _lint(tmp_path, BASE) == [(14, 9, "TRF001")]


@pytest.mark.parametrize("case", sorted(OTHER_STORES))
def test_another_store_leaves_it_unknown(tmp_path: Path, case: str) -> None:
    assert _lint(tmp_path, BASE + OTHER_STORES[case]) == []


def test_cls_is_not_the_instance(tmp_path: Path) -> None:
    text = BASE + '''
    @classmethod
    def spawn(cls):
        cls.create_task(job())
'''
    assert _lint(tmp_path, text) == [(14, 9, "TRF001")]
