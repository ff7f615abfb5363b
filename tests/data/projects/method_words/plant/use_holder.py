from plant.holder import Annotated, Holder


class User(Holder):
    def go(self) -> None:
        self.collector.start()  # error: TRF001:9


class Reader(Annotated):
    def go(self) -> None:
        self.collector.start()  # error: TRF001:9
