from .cyc_a import thing
