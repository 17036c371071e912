class Account:
    """A ledger account."""

    def __init__(self, name, currency="EUR"):
        self.name = name
        self.entries = []

    def deposit(self, amount):
        """Add amount to the balance."""
        self.entries.append(amount)

    def withdraw(self, amount):
        """Take amount from the balance."""
        self.entries.append(-amount)

    @property
    def balance(self):
        """The sum of the entries."""
        return sum(self.entries)


class Savings(Account):
    RATE = 0.02

    def accrue(self):
        self.deposit(self.balance * self.RATE)
