squares = [n * n for n in numbers if n > limit]
pairs = {k: v for k, v in table.items()}
unique = {word.lower() for line in lines for word in line.split()}
total = sum(x for x in values)
nested = [[cell for cell in row] for row in grid]
shadow = [x for x in x]
key = lambda item: item.score + bonus
adder = lambda a, b=start, *rest, **opts: a + b + offset
sorted(people, key=lambda p: (p.age, p.name))
