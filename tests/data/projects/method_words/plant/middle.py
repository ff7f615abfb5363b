from plant.holder import Holder


class Middle(Holder):
    pass
