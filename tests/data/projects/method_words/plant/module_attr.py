from plant import owner


def go() -> None:
    made = owner.Collector()
    made.start()  # error: TRF001:5
