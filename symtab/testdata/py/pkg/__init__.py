"""The package re-exports its models and utilities."""
from .models import Account
from .util import *
