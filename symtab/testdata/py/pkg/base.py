class Base:
    def save(self):
        """Write the object."""


class Mixin(Loop):
    def mixed(self):
        pass


class Loop(Mixin):
    pass
