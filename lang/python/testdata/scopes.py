counter = 0


def bump():
    global counter
    counter += 1


def make():
    total = 0

    def add(n):
        nonlocal total
        total += n
        return total

    return add
