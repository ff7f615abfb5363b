from plant.owner import Collector


class Base:
    def __init__(self, c: Collector) -> None:
        self.c = c
