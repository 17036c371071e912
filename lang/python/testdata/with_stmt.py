def copy(src, dst):
    with open(src) as fin, open(dst, "w") as fout:
        fout.write(fin.read())
    with lock:
        shared.count += 1
    with (
        open(src) as a,
        open(dst) as (b, c),
    ):
        pass


async def fetch(session, url):
    async with session.get(url) as response:
        return await response.text()
