import asyncio

_background_tasks: "set[object]" = set()


class Tabs:
	def __init__(self):
		self.n = 0

	def start(self):
		run_task = asyncio.create_task(self.run())
		_background_tasks.add(run_task)
		run_task.add_done_callback(_background_tasks.discard)
		del run_task

	async def run(self):
		await asyncio.sleep(1)


async def main():
	sleep_task = asyncio.ensure_future(asyncio.sleep(1))  # café
	_background_tasks.add(sleep_task)
	sleep_task.add_done_callback(_background_tasks.discard)
	del sleep_task
	tâche = asyncio.create_task(asyncio.sleep(1))
	_background_tasks.add(tâche)
	tâche.add_done_callback(_background_tasks.discard)
	tâche.add_done_callback(print)
