def classify(n):
    if n < 0:
        kind = "negative"
    elif n == 0:
        kind = "zero"
    elif (n > 100 and
          n < 1000):
        kind = "large"
    else:
        kind = "positive"
    if n: print(kind)
    if n % 2 == 0:
        return kind
    return None
