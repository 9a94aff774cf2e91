"""minesat's version, on the ground floor: what records a run or a replay names it from here, and
the front door (``minesat.__version__``) re-exports it, without importing the whole package.

>>> __version__
'0.1.0'
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
