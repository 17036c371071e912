"""A tiny double-entry bookkeeping library."""

from ledger.accounts import Account, Ledger
from ledger.importers import read_csv_entries

__all__ = ["Account", "Ledger", "read_csv_entries"]
