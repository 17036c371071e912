"""Reading journal entries from files."""

import csv
from decimal import Decimal, InvalidOperation


def parse_amount(text):
    text = text.strip().replace(",", "")
    if not text:
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def read_csv_entries(path, delimiter=","):
    entries = []
    with open(path, newline="") as fh:
        reader = csv.reader(fh, delimiter=delimiter)
        header = next(reader)
        for row in reader:
            if len(row) != len(header):
                continue
            record = dict(zip(header, row))
            amount = parse_amount(record.get("amount", ""))
            if amount is None:
                continue
            entries.append((record["source"], record["target"], amount, record.get("memo", "")))
    return entries


def read_tsv_entries(path):
    return read_csv_entries(path, delimiter="\t")


def apply_entries(ledger, entries):
    applied = 0
    failed = []
    for source, target, amount, memo in entries:
        try:
            ledger.transfer(source, target, amount, memo)
        except (KeyError, ValueError) as exc:
            failed.append((source, target, str(exc)))
            continue
        applied += 1
    return applied, failed
