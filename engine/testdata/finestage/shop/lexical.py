def summarize(records):
    total = 0
    count = 0
    amount = sum(record.amount for record in records)
    validate(amount)
    return total, count
