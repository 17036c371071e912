# path: pkg/__init__.py
from .mod import thing
from . import other
from ... import beyond
def f(self):
    pass
class C:
    def g(self, x):
        self.y = x
