"""The heavy variants of the suite's slowest checks: ``python3 -m pytest benchmarks/heavy``.

The suite (``python3 -m pytest``) runs a small twin of each, which fails when the code is
wrong but plays fewer or smaller cases; here each runs in full, as it did before the suite
was cut to a few minutes. They use the helpers of ``tests/``, put on the path here.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
