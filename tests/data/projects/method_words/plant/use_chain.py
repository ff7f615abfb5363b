from plant.middle import Middle


class Last(Middle):
    def go(self) -> None:
        self.collector.start()  # error: TRF001:9
