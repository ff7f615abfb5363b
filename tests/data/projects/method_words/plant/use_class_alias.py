from plant.class_alias import Kind


def go() -> None:
    made = Kind()
    made.start()  # error: TRF001:5
