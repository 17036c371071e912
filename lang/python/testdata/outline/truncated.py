# path: app/ledger.py
import os
from .models import Account

class Ledger(object):
    def __init__(self):
        self.accounts = {}

    def add(self, account: Account):
        self.accounts[account.name] = account
        self.
