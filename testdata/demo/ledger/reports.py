"""Summaries of a ledger for people."""

from decimal import Decimal


def balances_by_kind(ledger):
    totals = {}
    for account in ledger.accounts.values():
        totals.setdefault(account.kind, Decimal("0"))
        totals[account.kind] += account.balance
    return totals


def largest_accounts(ledger, count=3):
    ranked = sorted(ledger.accounts.values(), key=lambda a: a.balance, reverse=True)
    return [(a.name, a.balance) for a in ranked[:count]]


def journal_report(ledger, memo_filter=None):
    lines = []
    for source, target, amount, memo in ledger.journal:
        if memo_filter and memo_filter not in memo:
            continue
        lines.append(f"{source:>12} -> {target:<12} {amount:>10} {memo}")
    return "\n".join(lines)


def export_csv(ledger, path):
    with open(path, "w", newline="") as fh:
        fh.write("source,target,amount,memo\n")
        for source, target, amount, memo in ledger.journal:
            fh.write(f"{source},{target},{amount},{memo}\n")
    return len(ledger.journal)
