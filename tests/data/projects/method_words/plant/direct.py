from plant.owner import Collector


def go() -> None:
    made = Collector()
    made.start()  # error: TRF001:5
