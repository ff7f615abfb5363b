from plant.owner import Collector


class Paged:
    def first(self) -> None:
        pass

    def second(self) -> None:
        self.c = Collector()
