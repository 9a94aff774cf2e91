"""Where work runs: this process, local worker processes, or a Dask cluster.

:mod:`minesat.simulation` (games) and :mod:`minesat.perfect` (the first moves of a
search) hand their tasks to a :class:`concurrent.futures.Executor` from here;
Ctrl-C and a hang-up are the parent's, which stops the workers itself; a worker whose
parent is gone (killed outright) ends on its own.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import multiprocessing
import multiprocessing.connection as mp_connection
import os
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, ParamSpec, TypeVar

from minesat.errors import SchedulerError, WorkerLost, one_line

__all__ = [
    "PARENT_CHECK_EVERY",
    "SCHEDULER_TIMEOUT",
    "InProcess",
    "MainGuardMissing",
    "SchedulerError",
    "WorkerLost",
    "check_main_guard",
    "check_scheduler",
    "dask_executor",
    "default_workers",
    "end_with_parent",
    "probe_scheduler",
    "process_pool",
    "run_bounded",
    "stop_workers",
    "worker_pool",
]

Tag = TypeVar("Tag")
P = ParamSpec("P")
T = TypeVar("T")

#: What :class:`WorkerLost` says.
WORKER_LOST = "a worker process ended in the middle of its work (out of memory, or killed)"


class MainGuardMissing(RuntimeError):
    """Worker processes asked for from the top level of a script that lacks ``if __name__ == "__main__":``.

    Each worker process starts by importing the script that started it (the
    ``spawn`` start method, on every platform): a call at the script's top level
    would run again in every worker, each starting workers of its own.
    """


def check_main_guard(workers: int) -> None:
    """Refuse to start ``workers`` processes from the unguarded top level of the ``__main__`` script.

    Checked in the parent, before any process starts, from the call's line in the
    script (a notebook or ``python -c`` has no script file and is never refused),
    and in a worker importing the script, which must not start workers of its own.
    """
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise MainGuardMissing(
            "a worker process is importing the script that started it, and the script starts workers "
            'again: put the call under `if __name__ == "__main__":`'
        )
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and not (frame.f_globals is getattr(main, "__dict__", None)
                                     and frame.f_code.co_name == "<module>"):
        frame = frame.f_back
    if frame is None or not path or not os.path.isfile(path):
        return
    line = frame.f_lineno
    if not _guarded(path, line):
        raise MainGuardMissing(
            f"{os.path.basename(path)}, line {line}: {workers} worker processes asked for at the top level "
            "of the script; every worker imports the script again, so put the call under "
            '`if __name__ == "__main__":` (or play in this process: workers=1)'
        )


def _guarded(path: str, line: int) -> bool:
    """Whether ``line`` of the script at ``path`` is inside an ``if __name__ == "__main__":`` block
    (true too when the script cannot be read or parsed: only a certain mistake is refused)."""
    import ast

    try:
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return True
    for node in tree.body:
        if isinstance(node, ast.If) and node.lineno <= line <= (node.end_lineno or node.lineno):
            test = ast.unparse(node.test).replace("'", '"')
            if test in ('__name__ == "__main__"', '"__main__" == __name__'):
                return True
    return False



def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class InProcess(cf.Executor):
    """Runs each batch when submitted: workers=1 pays no process start-up or pickling."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> cf.Future[T]:
        future: cf.Future[T] = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


#: Seconds to wait for a Dask scheduler to connect and to answer.
SCHEDULER_TIMEOUT = 20.0
#: Largest first message a Dask scheduler's handshake plausibly has (bytes).
_MAX_HANDSHAKE = 1 << 26


def probe_scheduler(address: str, timeout: float = SCHEDULER_TIMEOUT) -> None:
    """Check that a ``tcp://`` address answers like a Dask scheduler, within ``timeout`` seconds.

    A Dask server speaks first: on a new connection it sends its handshake, a
    frame whose first 8 bytes are its length. Dask's own client waits for it with
    no time limit (a silent listener hangs it for good) and trusts the length
    (another program's banner makes it try to allocate exabytes), so those two
    cases are told apart here, with one clear :class:`SchedulerError`.

    >>> probe_scheduler("tcp://127.0.0.1:1", timeout=1)
    Traceback (most recent call last):
    ...
    minesat.errors.SchedulerError: cannot reach the Dask scheduler at tcp://127.0.0.1:1: Connection refused
    """
    scheme, _, location = address.rpartition("://")
    if scheme not in ("", "tcp"):
        return  # tls, inproc, ...: leave them to Dask
    host, _, port = location.rpartition(":")
    if not host or not port.isdigit():
        raise SchedulerError(f"bad scheduler address {address!r}: expected tcp://HOST:PORT")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout) as conn:
            conn.settimeout(timeout)
            head = b""
            while len(head) < 8:
                chunk = conn.recv(8 - len(head))
                if not chunk:
                    raise SchedulerError(
                        f"{address} closed the connection without a word: not a Dask scheduler"
                    )
                head += chunk
    except TimeoutError:
        raise SchedulerError(
            f"{address} did not answer like a Dask scheduler within {timeout:g} s"
        ) from None
    except OSError as exc:
        raise SchedulerError(
            f"cannot reach the Dask scheduler at {address}: {exc.strerror or exc}"
        ) from None
    if struct.unpack("<Q", head)[0] > _MAX_HANDSHAKE:
        raise SchedulerError(f"{address} answered, but not like a Dask scheduler (it sent {head!r})")


def check_scheduler(address: str, timeout: float = SCHEDULER_TIMEOUT) -> None:
    """Raise :class:`SchedulerError` unless Dask is installed and ``address`` answers like its scheduler.

    A command that stores what it computes asks this before it makes its store, so a
    scheduler that is not there leaves nothing behind.
    """
    try:
        import dask.distributed  # noqa: F401
    except ImportError as exc:
        raise SchedulerError(
            "--scheduler needs Dask: install the extra with  pip install 'minesat[dask]'"
        ) from exc
    from distributed.comm.addressing import parse_address
    from distributed.comm.registry import get_backend

    try:  # a scheme Dask does not speak is known at once, before any store is made
        get_backend(parse_address(address, strict=False)[0])
    except (ValueError, ImportError) as exc:
        raise SchedulerError(f"cannot reach the Dask scheduler at {address}: {one_line(str(exc))}") from None
    probe_scheduler(address, timeout)


def dask_executor(
    address: str, timeout: float = SCHEDULER_TIMEOUT
) -> tuple[cf.Executor, Callable[[], None], int]:
    """A concurrent.futures view of a Dask cluster, its closer, and its thread count."""
    check_scheduler(address, timeout)
    from dask.distributed import Client

    try:
        client = Client(address, timeout=f"{timeout}s")
    except Exception as exc:  # Dask raises many kinds; each means "no usable scheduler here"
        reason = one_line(str(exc)) or type(exc).__name__
        raise SchedulerError(f"cannot reach the Dask scheduler at {address}: {reason}") from exc
    threads = sum(client.nthreads().values()) or 1
    # pure=False: tasks are never deduplicated or cached by their arguments.
    return client.get_executor(pure=False), client.close, threads


def _start_worker() -> None:
    """Worker start-up: Ctrl-C and a hang-up are for the parent, which stops the run,
    keeps what is stored and terminates the workers itself; and the worker ends when its
    parent does, however the parent ends (:func:`end_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    end_with_parent()


#: Seconds between two looks at the parent's process id (the pipe is watched all the time).
PARENT_CHECK_EVERY = 1.0


def end_with_parent() -> None:
    """End this process (a worker) as soon as the process that started it is gone.

    A parent stopped by Ctrl-C or SIGTERM stops its workers itself (:func:`stop_workers`); one
    killed outright (``kill -9``, the out-of-memory killer) cannot, and its workers would wait
    for work for good, keeping the resource tracker alive with them. So a thread watches the
    pipe only the parent writes to (multiprocessing's parent sentinel: it reads as closed once
    the parent is gone) and, in case there is none, the parent's process id.
    """
    parent = multiprocessing.parent_process()
    sentinel = parent.sentinel if parent is not None else None
    started_by = os.getppid()

    def watch() -> None:
        while True:
            if sentinel is not None:
                gone = bool(mp_connection.wait([sentinel], timeout=PARENT_CHECK_EVERY))
            else:
                time.sleep(PARENT_CHECK_EVERY)
                gone = False
            if gone or os.getppid() != started_by:
                os._exit(1)  # nothing of the worker's is worth keeping: its parent took the results

    threading.Thread(target=watch, name="minesat-parent-watch", daemon=True).start()


def process_pool(workers: int) -> cf.Executor:
    # "spawn", not the Linux default "fork": the caller may be running threads
    # (a progress bar, Dask), and forking a threaded process can deadlock.
    return cf.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
    )


def stop_workers(executor: cf.Executor) -> None:
    """Terminate a process pool's workers: a run stopped by a signal must not leave them behind.

    Their batches are lost, but nothing of them was stored, so the next run plays them.
    """
    if not isinstance(executor, cf.ProcessPoolExecutor):
        return
    terminate = getattr(executor, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    # Older Pythons: the pool keeps its processes in a private dict (pid -> Process),
    # which shutdown() forgets: take them first.
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)  # nothing more is sent to the workers
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.terminate()
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            process.join(timeout=5)
    # The pool's manager thread notices its workers are gone and closes its wake-up pipe.
    # Python (before 3.12) wakes every pool's manager thread at exit without a lock, so a
    # pipe closed at that moment prints "Exception ignored ... Bad file descriptor" after
    # our one-line message: wait for the thread to end first.
    manager = getattr(executor, "_executor_manager_thread", None)
    if isinstance(manager, threading.Thread) and manager is not threading.current_thread():
        manager.join(timeout=5)


@contextlib.contextmanager
def worker_pool(
    workers: int | None, scheduler: str | None, tasks: int
) -> Iterator[tuple[cf.Executor, int]]:
    """Where ``tasks`` games are played: ``(executor, slots)``, closed when the block ends.

    ``scheduler`` (a Dask address) wins over ``workers``, and the cluster's threads
    are the slots; otherwise ``workers`` local processes (default: every core, never
    more than ``tasks``), one of them meaning this process. Leaving the block by an
    error or an interrupt stops the workers at once: what they were playing was not
    stored, so the next run plays it.
    """
    close: Callable[[], None] | None = None
    if scheduler is not None:
        executor, close, slots = dask_executor(scheduler)
    else:
        slots = max(1, workers if workers is not None else default_workers())
        slots = min(slots, max(1, tasks))  # never start more processes than there is work
        if slots > 1:
            check_main_guard(slots)
        executor = InProcess() if slots == 1 else process_pool(slots)
    finished = False
    try:
        yield executor, slots
        finished = True
    finally:
        if not finished:
            stop_workers(executor)
        executor.shutdown(wait=finished)
        if close is not None:
            close()


def run_bounded(
    executor: cf.Executor, calls: Iterator[tuple[Tag, Callable[..., Any], tuple[Any, ...]]], in_flight: int
) -> Iterator[tuple[Tag, Any]]:
    """Submit ``(tag, fn, args)``, at most ``in_flight`` at a time; yield ``(tag, result)`` as each ends.

    Bounding what is submitted keeps memory flat however many calls there are:
    ``calls`` is drawn lazily and results are handed on at once. On an error or
    an interrupt, calls not started are cancelled.

    >>> list(run_bounded(InProcess(), iter([("a", abs, (-2,)), ("b", abs, (3,))]), 1))
    [('a', 2), ('b', 3)]
    """
    pending: dict[cf.Future, Tag] = {}
    try:
        for tag, fn, args in calls:
            try:
                future = executor.submit(fn, *args)
            except cf.BrokenExecutor as lost:
                # The worker died after the last results were taken and before this call: the
                # pool refuses new work, which is the loss _finished reports for work in flight.
                raise WorkerLost(WORKER_LOST) from lost
            pending[future] = tag
            while len(pending) >= in_flight:
                yield from _finished(pending)
        while pending:
            yield from _finished(pending)
    finally:
        for future in pending:
            future.cancel()


def _finished(pending: dict[cf.Future, Tag]) -> Iterator[tuple[Tag, Any]]:
    """Wait for at least one of ``pending`` to end; take the ended ones out and yield them."""
    done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
    for future in done:
        # A process pool's worker died (BrokenExecutor), or a task took several of Dask's workers
        # down (its KilledWorker, named so as not to import Dask): the worker's work is lost.
        lost = future.exception()
        if isinstance(lost, cf.BrokenExecutor) or type(lost).__name__ == "KilledWorker":
            raise WorkerLost(WORKER_LOST) from lost
        yield pending.pop(future), future.result()
