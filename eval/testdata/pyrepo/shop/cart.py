"""A shopping cart."""

from shop.money import Money, total


class Item:
    def __init__(self, name, price, quantity=1):
        self.name = name
        self.price = price
        self.quantity = quantity

    def cost(self):
        return self.price.times(self.quantity)


class Cart:
    def __init__(self, currency="EUR"):
        self.items = []
        self.currency = currency

    def add(self, name, cents, quantity=1):
        price = Money(cents, self.currency)
        item = Item(name, price, quantity)
        self.items.append(item)
        return item

    def remove(self, name):
        kept = [item for item in self.items if item.name != name]
        removed = len(self.items) - len(kept)
        self.items = kept
        return removed

    def subtotal(self):
        costs = [item.cost() for item in self.items]
        return total(costs, self.currency)

    def discount(self, percent):
        amount = self.subtotal()
        reduction = amount.times(percent / 100)
        return amount.sub(reduction)
