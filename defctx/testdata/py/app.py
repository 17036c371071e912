from ledger.store import Store
from ledger import models


def transfer(store: Store, a, b, amount):
    src = store.open(a)
    dst = models.Account(b)
    src.withdraw(amount)
    dst.deposit(amount)
    store.save()
