from . import cyc_a


def helper(x):
    """Help with x."""
    return x


def _private():
    pass
