from plant.owner import Collector


class Holder:
    def __init__(self) -> None:
        self.collector = Collector()


class Annotated:
    collector: Collector
