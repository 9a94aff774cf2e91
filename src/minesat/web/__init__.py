"""The local web app behind ``minesat serve``: a second thin face over the library, beside the CLI.

The page (analyse, play, review; ``static/``) and a JSON API (:mod:`.app`'s
routes) over the same functions the commands use: :mod:`.api` computes each
answer, :mod:`.jobs` runs the heavy ones in worker processes it can stop,
:mod:`.games` keeps the games being played. Needs the ``web`` extra
(``pip install 'minesat[web]'``): Starlette and uvicorn.
"""

from __future__ import annotations

__all__: list[str] = []
