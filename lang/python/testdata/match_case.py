def describe(command):
    match command.split():
        case [action]:
            return action
        case ["go", direction] | ["move", direction]:
            return direction
        case ["drop", *objects]:
            return objects
        case Point(x=0, y=yy):
            return yy
        case {"name": name, **others}:
            return name, others
        case Color.RED | None | 1 | "s" | -2 | 3 + 4j:
            return Color.RED
        case [x, y] as pair if x > y:
            return pair
        case str() | bytes():
            return command
        case _:
            return None


def first(value):
    match value:
        case (head, *_):
            return head
        case other:
            return other
