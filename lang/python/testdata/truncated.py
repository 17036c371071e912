class Cart:
    def total(self, items):
        amount = 0
        for item in items:
            amount += item.
