def load(path):
    try:
        f = open(path)
        data = f.read()
    except (OSError, ValueError) as err:
        log(err)
        raise
    except KeyError:
        data = None
    else:
        f.close()
    finally:
        cleanup(path)
    try:
        run(data)
    except* TimeoutError as group:
        handle(group.exceptions)
    return data
