from .. import models
from ..models import Account as Acc
from ..models import Account
import pkg.base
from pkg import helper
import missing.module
from .cyc import nothing


def Account(x):
    """Shadows the imported Account."""


class Report(Acc):
    def run(self, ledger: models.Ledger):
        self.deposit(1)
