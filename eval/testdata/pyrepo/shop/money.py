"""Amounts of money in cents."""

CURRENCIES = {"EUR": 2, "USD": 2, "JPY": 0}


class Money:
    def __init__(self, cents, currency="EUR"):
        if currency not in CURRENCIES:
            raise ValueError("unknown currency: " + currency)
        self.cents = int(cents)
        self.currency = currency

    def add(self, other):
        check_same(self, other)
        return Money(self.cents + other.cents, self.currency)

    def sub(self, other):
        check_same(self, other)
        return Money(self.cents - other.cents, self.currency)

    def times(self, factor):
        cents = round(self.cents * factor)
        return Money(cents, self.currency)

    def __str__(self):
        digits = CURRENCIES[self.currency]
        value = self.cents / (10 ** digits)
        return f"{value:.{digits}f} {self.currency}"


def check_same(a, b):
    if a.currency != b.currency:
        raise ValueError("currency mismatch: " + a.currency + " " + b.currency)


def total(amounts, currency="EUR"):
    result = Money(0, currency)
    for amount in amounts:
        result = result.add(amount)
    return result
