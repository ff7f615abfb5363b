from plant.paged import Paged


class Reader(Paged):
    def go(self) -> None:
        self.c.start()  # error: TRF001:9
