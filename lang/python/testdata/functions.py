import functools


@functools.cache
@register(name="area", priority=LEVEL)
def area(width: float, height: float = DEFAULT, *args: int, scale=1, **kwargs) -> float:
    return width * height * scale


async def fetch(url, /, timeout=TIMEOUT, *, retries: int = 3):
    await sleep(timeout)
    return url


def generic[T](items: list[T]) -> T:
    return items[0]


def stub(): ...
