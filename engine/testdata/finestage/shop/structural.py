def grand_total(batches):
    total = 0
    for record in batches:
        total += record.amount
        record.settled = True
    return total
