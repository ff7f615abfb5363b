from plant.owner import Collector as Kind


def go() -> None:
    made = Kind()
    made.start()  # error: TRF001:5
