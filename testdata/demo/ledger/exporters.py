"""Writing a ledger's journal in other formats."""

import json


def export_tsv(ledger, path):
    with open(path, "w", newline="") as out:
        out.write("source\ttarget\tamount\tmemo\n")
        for source, target, amount, memo in ledger.journal:
            out.write(f"{source}\t{target}\t{amount}\t{memo}\n")
    return len(ledger.journal)


def export_json(ledger, path):
    records = []
    for source, target, amount, memo in ledger.journal:
        records.append({"source": source, "target": target, "amount": str(amount), "memo": memo})
    with open(path, "w") as out:
        json.dump(records, out, indent=2)
    return len(records)
