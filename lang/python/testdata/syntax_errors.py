def ok(a):
    return a


x = (1 +
y = 2


def broken(:
    pass


class Fine:
    value = 1
    if value
        value = 2

print("after")
result = call(a, b
