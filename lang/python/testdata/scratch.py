@dec(x)
async def f(a, b: int = 3, *args, c=d, **kw) -> T:
    global g
    x: int = 1
    a, *b = c = d
    y += 1
    print(f"{x!r:>{w}}")
    del a[0], b.c
    match p:
        case Point(x=0, y=yy) | [1, *rest] as q if q > 0:
            pass
        case {"k": v, **kw}:
            pass
        case _:
            pass
    try:
        pass
    except* ValueError as e:
        pass
    else:
        pass
    finally:
        pass
    with open(f) as (a, b), g:
        pass
    for i, j in z:
        break
    else:
        continue
    if a: b()
    elif c:
        pass
    else:
        pass
    lambda q: q + r
    [i for i in range(n) if i]
    import a.b.c as d, e.f
    from .m import x as y, z
    from m import *
    type X = int
    print >> f, x
