from .models import Account


def report(acc: Account, out):
    acc.deposit(0)
    out.write(format_balance(acc))


def format_balance(acc):
    """Render the balance of acc."""
    return "%.2f" % acc.balance
