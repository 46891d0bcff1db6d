"""Where a sweep's configurations are played: Dask's own client, on a local cluster or an existing one.

By default a ``dask.distributed.LocalCluster`` of one single-threaded worker process per core of this
machine; ``--scheduler tcp://HOST:8786`` (or ``DASK_SCHEDULER_ADDRESS``) connects a ``Client`` to a
cluster that is already running, whose workers must have the toolkit installed (a job carries its
catalogue, so they read no file). ``--in-process`` plays the configurations one after another in this
process, without Dask. Each piece of a configuration (``sweep.PIECE`` games) is one task; the rows are
handed back as their configurations finish, in whatever order, and they depend neither on the worker
that played a piece nor on how many there were (``toolkit.analysis.sweep``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
from concurrent.futures import CancelledError
from typing import Callable, Iterable, Iterator

from toolkit.errors import UserError

SCHEDULER_ENV = "DASK_SCHEDULER_ADDRESS"
CONNECT_TIMEOUT = "20s"
LOCAL_HTTP = "127.0.0.1:0"  # where a local cluster's scheduler serves HTTP: any free port
_ADDRESS = re.compile(r"(tcp|tls|ws|wss)://[^\s/:]+(:[0-9]{1,5})?/?")


def check_workers(workers: int | None) -> None:
    """More local workers than the machine has cores would only queue behind each other (and take
    minutes to start): refused in one line."""
    cores = os.cpu_count() or 1
    if workers is not None and workers > cores:
        raise UserError(f"--workers {workers}: this machine has {cores} cores: choose 1 to {cores} (a cluster of "
                        "more machines plays with --scheduler)")


def load_dask() -> None:
    """Import Dask before any work: it reads its configuration files (and the folder or file
    ``DASK_CONFIG`` names) as it is imported, so a broken one is one line naming it."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise
    except Exception as err:  # Dask's own ValueError names the file; YAML's errors, whatever their type
        where = f"DASK_CONFIG={os.environ['DASK_CONFIG']}: " if "DASK_CONFIG" in os.environ else ""
        first = str(err).splitlines()[0].split(", original error")[0]  # the file, without YAML's lines
        raise UserError(f"{where}Dask cannot read its configuration: {first}") from None


def scheduler_address(option: str | None) -> tuple[str | None, str]:
    """The scheduler to connect to (None: start a local cluster) and where the address came from."""
    if option is not None:
        address, source = option.strip(), "--scheduler"
    else:
        address, source = os.environ.get(SCHEDULER_ENV, "").strip() or None, SCHEDULER_ENV
        if address is None:
            return None, ""
    if not _ADDRESS.fullmatch(address):
        raise UserError(f"{source} {address!r}: expected a Dask scheduler address like tcp://HOST:8786")
    return address, source


@contextlib.contextmanager
def dask_client(address: str | None, source: str, workers: int | None) -> Iterator[object]:
    """A Dask client: connected to ``address``, or to a new LocalCluster of ``workers`` processes."""
    import dask
    from dask.distributed import Client, LocalCluster

    from toolkit.files import scratch_folder
    from toolkit.rules.contain import quiet_resource_tracker

    if address is not None:
        try:
            client = Client(address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as err:
            raise UserError(f"{source} {address}: cannot reach the Dask scheduler: {err}") from None
        with client:
            yield client
        return
    quiet_resource_tracker()
    # no dashboard, and the scheduler's HTTP routes on a free local port: with the default port taken
    # (another sweep running) Dask would otherwise print a warning about it among the sweep's lines
    count = workers or os.cpu_count() or 1
    # the kernels' own threads (numba) share the cores among the workers, so that workers x threads
    # never asks for more cores than the machine has
    threads = max(1, (os.cpu_count() or 1) // count)
    # the scheduler's and workers' lock files in a scratch folder of this run, not left in $TMPDIR
    with scratch_folder("toolkit-dask-") as scratch, dask.config.set({"temporary-directory": str(scratch)}):
        cluster = LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                               dashboard_address=LOCAL_HTTP, scheduler_kwargs={"dashboard": False},
                               silence_logs=logging.CRITICAL, env={"NUMBA_NUM_THREADS": str(threads)})
        with cluster, Client(cluster) as client:
            yield client


def _warm() -> None:
    """Import what a job needs, on a worker, before the clock of the progress bar starts."""
    from importlib import import_module

    for name in ("toolkit.analysis.metrics", "toolkit.analysis.sweep", "toolkit.sim.records"):
        import_module(name)


def run_all(jobs: Iterable, done: Callable[[object, dict], None], *, in_process: bool,
            address: str | None = None, source: str = "", workers: int | None = None,
            started: Callable[[], None] = lambda: None) -> None:
    """Play every job (``toolkit.analysis.sweep``) and call ``done(job, row)`` as each one finishes;
    ``started()`` is called once the workers are ready (a local cluster takes seconds to start).

    On Dask each piece of a job is a task (``sweep.pieces``); a job's row is made here from its
    pieces' totals once they are all in (``sweep.finish``).
    """
    from toolkit.analysis import sweep

    jobs = list(jobs)
    if not jobs:
        return
    if in_process:
        started()
        for job in jobs:
            done(job, sweep.run_job(job))
        return
    from dask.distributed import as_completed
    from distributed.scheduler import KilledWorker

    with dask_client(address, source, workers) as client:
        try:
            client.run(_warm)
        except Exception as err:  # a worker without the toolkit: the import fails there, whatever its type
            raise UserError(f"the Dask workers cannot load the toolkit ({type(err).__name__}: {err}): install it "
                            f"on every worker") from None
        started()
        futures, waiting = {}, {}
        for number, job in enumerate(jobs):
            parts = sweep.pieces(job)
            waiting[number] = [None] * len(parts)
            for place, piece in enumerate(parts):
                futures[client.submit(sweep.play_piece, piece, pure=False)] = (number, place)
        try:
            for future in as_completed(futures):
                number, place = futures[future]
                job = jobs[number]
                try:
                    waiting[number][place] = future.result()
                except KilledWorker:
                    raise UserError(f"the workers playing configuration {job.key} died again and again: the "
                                    f"rows stored so far are kept (--resume continues)") from None
                except (CancelledError, asyncio.CancelledError, OSError) as err:  # the scheduler went away
                    raise UserError(f"lost the Dask cluster ({type(err).__name__}: {err}): the rows stored so "
                                    f"far are kept (--resume continues)") from None
                future.release()
                if all(part is not None for part in waiting[number]):
                    done(job, sweep.finish(job, waiting.pop(number)))
        finally:
            client.cancel(list(futures))
