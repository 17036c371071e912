class Outer(Base, metaclass=Meta):
    limit = 10

    def __init__(self, size):
        self.size = size

    @property
    def area(self):
        def helper(k):
            class Local:
                value = k

            return Local.value * self.size

        return helper(self.limit)

    class Inner:
        def method(self):
            return Outer.limit
