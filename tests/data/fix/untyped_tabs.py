import asyncio


class Tabs:
	def __init__(self):
		self.n = 0

	def start(self):
		asyncio.create_task(self.run())

	async def run(self):
		await asyncio.sleep(1)


async def main():
	asyncio.ensure_future(asyncio.sleep(1))  # café
	tâche = asyncio.create_task(asyncio.sleep(1))
	tâche.add_done_callback(print)
