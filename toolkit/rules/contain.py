"""What a rules file's code may do to the process that runs it: nothing but answer.

``watch(filename)`` is called as a rules file is loaded, in every process that loads one (the command's
own and each worker), before the file's code first runs. From then on in that process:

* what the file's code writes to ``sys.stdout`` goes to stderr, so that the command's own output
  (``--json``) stays whole: ``sys.stdout`` becomes a stand-in that looks, on each write, whether a frame
  of a rules file is on the stack (nothing is paid per call of the file's code, only per write);
* ``os._exit`` called under the file's code raises ``Exited`` instead of ending the process;
* a call into the file's code that runs longer than the timeout is interrupted with ``Timeout``: a
  watchdog thread looks at every thread's stack a few times per timeout, and when the outermost frame
  of a rules file is the same frame object as ``timeout`` seconds ago (the same call still running), it
  raises ``Timeout`` in that thread: through SIGALRM in the main thread (which also wakes a sleep), by
  ``PyThreadState_SetAsyncExc`` in another (a Dask task; a busy loop, not a sleep).

The guard (:mod:`toolkit.rules.guard`) catches what the file raises, these included, and says each in one
line (``message``). The timeout travels to worker processes in the environment (``TIMEOUT_ENV``).
``worker_pool`` gives the processes that play a rules file in parallel: one that dies is one line, and
none is waited for when the run stops early (the console script kills them on SIGTERM/SIGINT:
:mod:`toolkit.entry`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from pathlib import Path

DEFAULT_TIMEOUT = 60.0  # seconds a single call of the file's code may take (0: no limit)
TIMEOUT_ENV = "TOOLKIT_RULES_TIMEOUT"  # how --rules-timeout reaches the worker processes
_TOOLKIT = str(Path(__file__).resolve().parent.parent)

FILES: set[str] = set()  # the code files of the loaded rules files (``co_filename``)
_REAL_EXIT = os._exit
_lock = threading.Lock()
_watchdog: threading.Thread | None = None
_overran: dict[int, object] = {}  # thread id -> the frame of the call that overran


class Exited(BaseException):
    """``os._exit(status)`` called by a rules file's code."""

    def __init__(self, status):
        super().__init__(status)
        self.status = status


class Timeout(BaseException):
    """A call of a rules file's code ran longer than the timeout (not an ``Exception``: the file's own
    ``except Exception`` does not swallow it)."""

    def __init__(self, seconds: float | None = None):  # raised in another thread as the bare class
        seconds = timeout() if seconds is None else seconds
        super().__init__(seconds)
        self.seconds = seconds


def timeout() -> float:
    """The seconds a call may take (0: no limit): ``--rules-timeout``, through the environment."""
    try:
        value = float(os.environ.get(TIMEOUT_ENV, DEFAULT_TIMEOUT))
    except ValueError:
        return DEFAULT_TIMEOUT
    return value if value >= 0 else DEFAULT_TIMEOUT


def set_timeout(seconds: float) -> None:
    """The limit of a call, for this process and the workers it starts."""
    os.environ[TIMEOUT_ENV] = repr(float(seconds))


def user_frame(frame):
    """The outermost frame of a rules file's code on the stack that ends at ``frame``, or None."""
    found = None
    files = FILES
    while frame is not None:
        if frame.f_code.co_filename in files:
            found = frame
        frame = frame.f_back
    return found


class _Stdout:
    """``sys.stdout`` once a rules file is loaded: what the file's code writes goes to stderr."""

    def __init__(self, real):
        self._real = real

    def _target(self):
        return sys.stderr if user_frame(sys._getframe(2)) is not None else self._real

    def write(self, text):
        return self._target().write(text)

    def writelines(self, lines):
        return self._target().writelines(lines)

    def __getattr__(self, name):
        return getattr(self._real, name)


def _exit(status=0):
    """``os._exit`` once a rules file is loaded: under the file's code, an ``Exited`` the guard reports."""
    if user_frame(sys._getframe(1)) is not None:
        raise Exited(status)
    _REAL_EXIT(status)


def watch(filename: str) -> None:
    """Contain the code of the file ``filename`` (a rules file's or module's) from now on in this process."""
    if filename.startswith(_TOOLKIT):  # the toolkit's own modules are not a user's code
        return
    FILES.add(filename)
    if not isinstance(sys.stdout, _Stdout) and sys.stdout is not None:
        sys.stdout = _Stdout(sys.stdout)
    os._exit = _exit
    global _watchdog
    with _lock:
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGALRM) is not _alarm:
            signal.signal(signal.SIGALRM, _alarm)
        if _watchdog is None:
            _watchdog = threading.Thread(target=_watch, name="toolkit-rules-watchdog", daemon=True)
            _watchdog.start()


def _watch() -> None:
    """The watchdog: a call seen running at two looks ``timeout`` seconds apart is interrupted."""
    seen: dict[int, tuple[object, float]] = {}  # thread id -> (the call's frame, when first seen)
    me = threading.get_ident()
    while True:
        limit = timeout()
        time.sleep(min(1.0, limit / 4) if limit else 1.0)
        now = time.monotonic()
        frames = sys._current_frames()
        for ident in list(seen):
            if ident not in frames:
                del seen[ident]
        for ident, frame in frames.items():
            if ident == me:
                continue
            call = user_frame(frame)
            if call is None:
                seen.pop(ident, None)
                continue
            before = seen.get(ident)
            if before is None or before[0] is not call:
                seen[ident] = (call, now)
            elif limit and now - before[1] >= limit and _overran.get(ident) is not call:
                _overran[ident] = call
                _interrupt(ident)
        del frames, frame


def _interrupt(ident: int) -> None:
    if ident == threading.main_thread().ident and signal.getsignal(signal.SIGALRM) is _alarm:
        signal.pthread_kill(ident, signal.SIGALRM)  # wakes a sleep too; _alarm raises in the thread
        return
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(Timeout))


def _alarm(signum, frame) -> None:
    """SIGALRM from the watchdog: raise ``Timeout`` in the call that overran, if it is still running."""
    call = _overran.get(threading.get_ident())
    while frame is not None and frame is not call:
        frame = frame.f_back
    if frame is not None:
        raise Timeout()


def real_interrupt() -> bool:
    """Whether a KeyboardInterrupt can be the user's Ctrl-C here: in the command's own process with
    Python's own handler of SIGINT (the console script ends on Ctrl-C itself, and a worker's Ctrl-C is
    its command's): else it is the file's code that raised it."""
    import multiprocessing

    return signal.getsignal(signal.SIGINT) is signal.default_int_handler and multiprocessing.parent_process() is None


def message(err: BaseException) -> str | None:
    """What the file's code did, for what is not an ordinary mistake (an exception): else None."""
    if isinstance(err, Timeout):
        return (f"still running after {err.seconds:g} s (the limit of a call; --rules-timeout SECONDS sets it): "
                "stuck in a loop or waiting?")
    if isinstance(err, Exited):
        return f"called os._exit({err.status!r}): a rules file must not end the command (raise an exception instead)"
    if isinstance(err, SystemExit):
        return f"called sys.exit({err.code!r}): a rules file must not end the command (raise an exception instead)"
    if isinstance(err, KeyboardInterrupt):
        return "raised KeyboardInterrupt: a rules file must not (raise an exception instead)"
    return None


def quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with its leak warning off.

    Ctrl-C ends the toolkit at once (``toolkit.entry``), without closing the local cluster or a pool; the
    tracker then frees their semaphores itself, as it should, but would also print a warning
    about them after the one line that says the run was interrupted. The tracker takes its warning
    filters from this process' ``sys.warnoptions`` when it starts, so it is started here with one.
    """
    import sys
    from multiprocessing import resource_tracker

    rule = "ignore::UserWarning:multiprocessing.resource_tracker"
    sys.warnoptions.append(rule)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(rule)


@contextlib.contextmanager
def worker_pool(workers: int, source: str):
    """A pool of ``workers`` processes playing the rules file ``source``. A worker that dies (killed, or
    ended where the file's code could not be stopped) is one line; when the run stops early (an error,
    the batches no longer wanted) the queued work is cancelled and the workers killed, not waited for:
    one may be stuck in the file's code."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from toolkit.errors import UserError

    quiet_resource_tracker()  # killed workers leave semaphores to the tracker: no warning after the one line
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    # Every worker the pool starts (it starts them as work is submitted), kept here: once the pool breaks,
    # its own table may already be emptied, and with it how the dead one died.
    started: dict = {}
    submit = pool.submit

    def submit_and_note(*args, **kwargs):
        future = submit(*args, **kwargs)
        started.update(pool._processes or {})  # noqa: SLF001 - no public way before Python 3.14
        return future

    pool.submit = submit_and_note  # type: ignore[method-assign]  (Executor.map submits through it too)
    try:
        yield pool
    except BaseException as err:
        from multiprocessing.connection import wait

        started.update(pool._processes or {})  # noqa: SLF001
        processes = list(started.values())
        ended = wait([process.sentinel for process in processes], timeout=0)  # the dead one, before the kills
        for process in processes:
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        if not isinstance(err, BrokenProcessPool):
            raise
        for process in processes:
            process.join(5)
        dead = [process for process in processes if process.sentinel in ended]
        # The pool's own thread may be reaping the dead one at this moment (its exit code is None until it
        # has): wait for it a little.
        deadline = time.monotonic() + 5
        while any(process.exitcode is None for process in dead) and time.monotonic() < deadline:
            time.sleep(0.01)
        codes = [process.exitcode for process in dead]
        raise UserError(f"{source}: a worker process playing the rules file died ({_death(codes)})") from None
    pool.shutdown()


def _death(codes: list) -> str:
    """How a worker died, from the exit codes of the workers that had ended when the pool broke (the pool
    stops the others with SIGTERM)."""
    codes = [code for code in codes if code != -signal.SIGTERM] or codes
    if not codes or codes[0] is None:
        return "how is not known"
    if codes[0] >= 0:
        return f"exit code {codes[0]}"
    try:
        return f"killed by signal {signal.Signals(-codes[0]).name}"
    except ValueError:
        return f"killed by signal {-codes[0]}"
