"""Heavy work off the event loop, in worker processes that can be stopped when they take too long.

An analysis of a hostile position or a perfect-play search may run for
minutes; a thread cannot be stopped, a process can. A :class:`WorkerPool`
keeps up to ``size`` worker processes, hands each one job at a time, and
answers within the time given: when a job overruns, its process is killed
(and replaced by a fresh one at the next job) and :class:`JobTimeout` is
raised. Other requests go on meanwhile: the caller's coroutine only awaits
a thread that waits on the worker's pipe.

Workers come from a ``forkserver`` that has imported the library once, so a
new worker starts in milliseconds, not the second an import takes.

A job may tell how far it has got: :func:`report` sends a plain value back
over the pipe, and :meth:`WorkerPool.run` hands each one to its ``progress``
callback as it arrives (the web app shows it while the page waits).

>>> import asyncio
>>> from minesat.web.api import answer, analyze_request
>>> async def one() -> tuple[int, dict]:
...     pool = WorkerPool(1)
...     try:
...         return await pool.run(10.0, answer, analyze_request, {"board": "1?\\n"})
...     finally:
...         pool.close()
>>> asyncio.run(one())[1]["mine"]
[[0, 1]]
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import signal
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import Any

import anyio.to_thread

from minesat import usecases
from minesat.errors import OverBudget

__all__ = ["PRELOAD", "REPORT_EVERY", "JobFailed", "JobTimeout", "PoolBusy", "WorkerPool", "report"]

#: What the forkserver imports once for every worker it starts: the requests, and what the use
#: cases they call load when first called.
PRELOAD = ["minesat.web.api", *usecases.MACHINERY]

#: The pipe of the job running in this process, when it is a worker (see :func:`report`).
_current: Connection | None = None

#: Reports sent closer together than this (seconds) are dropped, so a job may report freely.
REPORT_EVERY = 0.1
_last_report = 0.0


def report(value: Any) -> None:
    """Tell whoever waits for the running job how far it has got (plain, picklable data).

    Outside a worker it does nothing; reports closer together than
    :data:`REPORT_EVERY` seconds are dropped.
    """
    global _last_report
    now = time.monotonic()
    if _current is None or now - _last_report < REPORT_EVERY:
        return
    _last_report = now
    with contextlib.suppress(OSError):
        _current.send(("progress", value))


class JobTimeout(OverBudget):
    """The job did not finish in the time given (``limit`` seconds); its worker was stopped."""

    what = "time"


class PoolBusy(Exception):
    """Every worker stayed busy for the whole time given: the job never started."""


class JobFailed(Exception):
    """The worker died while running the job (killed from outside, out of memory)."""


def _context() -> BaseContext:
    """``forkserver`` where the platform has it (Linux, macOS), else ``spawn`` (Windows)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


def _serve(conn: Connection) -> None:
    """A worker's life: run each job it is sent, send back what it returns, until the pipe closes."""
    # Ctrl-C in the terminal reaches the whole process group: the server stops its workers itself.
    global _current
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _current = conn
    while True:
        try:
            function, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result = function(*args)
        except Exception as err:  # a bug, not a bad request: the caller answers 500
            result = (500, {"error": f"internal error: {type(err).__name__}: {err}"})
        conn.send(("done", result))


class _Worker:
    """One worker process and our end of its pipe."""

    def __init__(self, context: BaseContext) -> None:
        ours, theirs = context.Pipe()
        self.conn = ours
        self.process = context.Process(target=_serve, args=(theirs,), daemon=True)  # type: ignore[attr-defined]
        self.process.start()
        theirs.close()

    def call(
        self,
        function: Callable[..., Any],
        args: tuple[Any, ...],
        seconds: float,
        progress: Callable[[Any], None] | None = None,
    ) -> Any:
        """Run a job; :class:`JobTimeout` (and the worker stopped) past ``seconds``.

        Each :func:`report` of the job goes to ``progress`` on the way.
        """
        deadline = time.monotonic() + seconds
        try:
            self.conn.send((function, args))
            while True:
                if not self.conn.poll(max(0.0, deadline - time.monotonic())):
                    self.stop()
                    raise JobTimeout(f"not done within {seconds:.1f} s", seconds, seconds)
                kind, value = self.conn.recv()
                if kind == "done":
                    return value
                if progress is not None:
                    progress(value)
        except (EOFError, OSError, BrokenPipeError) as err:
            self.stop()
            raise JobFailed(f"the worker stopped ({type(err).__name__})") from None

    @property
    def alive(self) -> bool:
        return self.process.is_alive()

    def stop(self) -> None:
        """Kill the process now: a job past its time is not asked to finish."""
        with contextlib.suppress(Exception):
            self.process.kill()
            self.process.join(2)
        with contextlib.suppress(Exception):
            self.conn.close()


class WorkerPool:
    """Up to ``size`` worker processes, one job each at a time (see the module docstring)."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a pool needs at least one worker, not {size}")
        self.size = size
        self._context: BaseContext | None = None
        self._idle: list[_Worker] = []
        self._running: set[_Worker] = set()
        self._slots: asyncio.Semaphore | None = None

    async def run(
        self,
        seconds: float,
        function: Callable[..., Any],
        *args: Any,
        progress: Callable[[Any], None] | None = None,
    ) -> Any:
        """``function(*args)`` in a worker, within ``seconds`` from now (waiting for a free one included).

        Raises :class:`PoolBusy` when no worker came free in time, :class:`JobTimeout`
        when the job overran (its worker is killed), :class:`JobFailed` when the worker died.
        ``function`` and its arguments must pickle (top-level functions, plain data).
        ``progress`` gets each value the job reports (:func:`report`; called from a thread: keep it short).
        """
        deadline = time.monotonic() + seconds
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        try:
            await asyncio.wait_for(self._slots.acquire(), seconds)
        except TimeoutError:
            raise PoolBusy(f"every worker stayed busy for {seconds:.1f} s") from None
        worker: _Worker | None = None
        try:
            worker = self._idle.pop() if self._idle else await anyio.to_thread.run_sync(self._start)
            self._running.add(worker)
            remaining = deadline - time.monotonic()
            result = await anyio.to_thread.run_sync(
                worker.call, function, args, remaining, progress, abandon_on_cancel=True
            )
            self._running.discard(worker)
            if worker.alive:
                self._idle.append(worker)
            return result
        except BaseException:
            # Timed out, died, or the request went away (cancelled): this worker is not reused.
            if worker is not None:
                self._running.discard(worker)
                worker.stop()
            raise
        finally:
            self._slots.release()

    def _start(self) -> _Worker:
        if self._context is None:
            self._context = _context()
        return _Worker(self._context)

    def close(self) -> None:
        """Stop every worker (idle or running)."""
        for worker in [*self._idle, *self._running]:
            worker.stop()
        self._idle.clear()
        self._running.clear()
