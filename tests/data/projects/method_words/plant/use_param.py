from plant.param_typed import Base


class User(Base):
    def go(self) -> None:
        self.c.start()  # error: TRF001:9
