from plant.sub import Sub


def go() -> None:
    made = Sub()
    made.start()  # error: TRF001:5


class Deeper(Sub):
    def go(self) -> None:
        self.start()  # error: TRF001:9
