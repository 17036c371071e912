# Simple statements and every assignment form.
import os

count = 0
total: int = 0
label: str
first, *rest = items = load()
(a, b), [c, d] = pairs
x = y = z = 1
count += step
self.size = len(rest)
self.cache[key] = value
table[i][j] = cell.value
obj.attr.leaf = obj.other.leaf
f().field = 3
print(f"{count!r} of {total:>{width}}")
result = obj.method(arg, key=word)
assert total >= 0, "negative"
del rest[0], self.cache, label
pass
x = 1; y = x
value = yield count
