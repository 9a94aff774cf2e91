"""The budgets, under the name docs/library.md gave them first: :mod:`minesat.budget`.

The budgets moved below the analysis, which reads them too; this name is kept for scripts
that import it, and nothing in minesat does.
"""

from minesat.budget import *  # noqa: F403
from minesat.budget import __all__  # noqa: F401
