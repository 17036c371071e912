"""Accounts and the ledger that posts entries to them."""

from decimal import Decimal


class InsufficientFunds(Exception):
    pass


class Account:
    def __init__(self, name, kind="asset", limit=None):
        self.name = name
        self.kind = kind
        self.limit = limit
        self.balance = Decimal("0")
        self.history = []

    def deposit(self, amount, memo=""):
        if amount <= 0:
            raise ValueError("deposit must be positive")
        self.balance += amount
        self.history.append(("deposit", amount, memo))
        return self.balance

    def withdraw(self, amount, memo=""):
        if amount <= 0:
            raise ValueError("withdrawal must be positive")
        if self.limit is not None and self.balance - amount < -self.limit:
            raise InsufficientFunds(self.name)
        self.balance -= amount
        self.history.append(("withdraw", amount, memo))
        return self.balance

    def statement(self):
        lines = []
        running = Decimal("0")
        for kind, amount, memo in self.history:
            if kind == "deposit":
                running += amount
            else:
                running -= amount
            lines.append(f"{kind:10} {amount:>10} {running:>10} {memo}")
        return "\n".join(lines)


class Ledger:
    def __init__(self):
        self.accounts = {}
        self.journal = []

    def open(self, name, kind="asset", limit=None):
        if name in self.accounts:
            raise KeyError(f"account {name} exists")
        account = Account(name, kind, limit)
        self.accounts[name] = account
        return account

    def transfer(self, source, target, amount, memo=""):
        src = self.accounts[source]
        dst = self.accounts[target]
        src.withdraw(amount, memo)
        dst.deposit(amount, memo)
        self.journal.append((source, target, amount, memo))

    def total(self, kind=None):
        total = Decimal("0")
        for account in self.accounts.values():
            if kind is None or account.kind == kind:
                total += account.balance
        return total

    def close(self, name):
        account = self.accounts.pop(name)
        if account.balance != 0:
            self.accounts[name] = account
            raise ValueError(f"account {name} is not empty")
        return account
