import os
import os.path
import xml.etree.ElementTree as ET, json
from collections import OrderedDict, defaultdict as dd
from . import sibling
from ..package.module import (
    first,
    second as alias,
)
from typing import *
from __future__ import annotations
