import asyncio


class Tabs:
	def __init__(self):
		self.n = 0

	def start(self):
		asyncio.create_task(self.run())

	async def run(self):
		await asyncio.sleep(1)


async def main():
	asyncio.ensure_future(main())  # café
	tâche = asyncio.create_task(main())
	tâche.add_done_callback(print)
