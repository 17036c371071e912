if (n := len(data)) > 10:
    print(n)
while chunk := stream.read(size):
    process(chunk)
found = [y for x in values if (y := transform(x)) is not None]
print(y, last := found[-1])
