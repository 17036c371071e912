from .base import Base, Loop
from . import util


class Account(Base):
    """A ledger account."""

    def __init__(self, name, currency="EUR"):
        self.name = name
        self.ledger: "Ledger" = None

    def deposit(self, amount):
        """Add amount to the balance."""
        self.save()

    @property
    def balance(self):
        return 0


class Ledger:
    def post(self, entry):
        pass
