def search(items, target):
    for i, item in enumerate(items):
        if item is None:
            continue
        if item == target:
            break
    else:
        i = -1
    while i > 0:
        i -= 1
        if check(i):
            break
    else:
        done()
    async for chunk in stream:
        total += len(chunk)
    return i
