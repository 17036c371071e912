# path: pkg/sub/mod.py
"""Module docstring."""
import os
import os.path
import xml.etree.ElementTree as ET, json
from collections import OrderedDict, defaultdict as dd
from . import sibling
from .. import parent_mod
from ..package.module import (
    first,
    second as alias,
)
from .helpers import *
from typing import Optional, List
from __future__ import annotations

MAX_SIZE = 10
logger = os.getenv("X")
a = b = 3
x, (y, z) = 1, (2, 3)


def top(a: int, b: "Account" = None) -> Optional["Account"]:
    """Return the account.

    More text.
    """
    import json as j
    def inner():
        pass
    return None


async def fetch(url) -> List[str]:
    '''
    Fetch a URL.
    '''


@decorator(arg)
class Account(Base, mixins.Printable, Generic[T], metaclass=Meta):
    """An account."""
    KIND = "account"
    rate: float = 0.5

    def __init__(self, name, currency="EUR"):
        self.name = name
        self.balance: Decimal = Decimal(0)
        if currency:
            self._currency = currency
        other.x = 1
        self.parser = parsers.Parser(name)
        self.count = len(name)
        self.name = "again"

    @property
    def currency(self) -> str:
        "The currency."
        return self._currency

    @currency.setter
    def currency(self, value):
        self._currency = value

    @staticmethod
    def parse(text):
        self.nothing = 1

    @classmethod
    def create(cls, *args):
        cls.registry = {}

    class Meta:
        ordering = ["name"]

        class Deep(object):
            def method(self):
                pass

    if sys.version_info >= (3, 8):
        def new_api(self):
            pass
    else:
        def new_api(self):
            pass

    try:
        import fast
    except ImportError:
        fast = None


if __name__ == "__main__":
    def main():
        class Local:
            def m(self):
                pass
        main()
