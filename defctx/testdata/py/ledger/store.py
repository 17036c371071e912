from .models import Account


class Store:
    """Accounts by name."""

    def __init__(self, path):
        self.path = path
        self.accounts = {}

    def open(self, name) -> Account:
        """Open the account called name."""
        acc = Account(name)
        self.accounts[name] = acc
        return acc

    def save(self):
        """Write every account."""
