from plant.instances import collector


def go() -> None:
    collector.start()
