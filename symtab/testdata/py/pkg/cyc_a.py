from .cyc_b import thing
