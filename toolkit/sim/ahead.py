"""Compile a kernel in a child process while this one plays the first games with the engine.

numba's compiler holds the GIL for the whole compile (seconds to a minute on a fresh machine): a
process compiling a kernel can do nothing else meanwhile. ``Compile`` starts a child Python that
imports the kernel and plays one game of the same game and policies through it (``kernel.batch``),
which compiles exactly what a batch of these games calls and saves it in numba's on-disk cache; this
process plays games with the engine meanwhile, then loads the kernel from that cache in well under a
second (``toolkit.sim.records.record_batches``).

The child belongs to this process. It runs in a session of its own (a Ctrl-C at the terminal reaches
this process only; and where the CPU is shared between sessions first, as Linux's autogroup does, the
compile keeps a whole share of a busy machine beside the games played here), and it ends with it:
``stop`` ends it when this process is interrupted (Ctrl-C, SIGTERM, an error), and the child ends by
itself when this process is gone (its stdin closes). A stop never cuts the saving of a compiled function
into numba's cache in the middle (numba writes an index and then the code it names): the child stops
once that save is whole. When this process has played every game before the child has finished,
``finish_at_exit`` lets the child finish when this process exits (after its output), so that the next
run finds the kernel compiled.
"""

from __future__ import annotations

import atexit
import os
import pickle
import signal
import subprocess
import sys
import threading

# The child's command line: this process's module path (``sys.argv[1:]``), then ``child``.
_BOOT = "import sys; sys.path[:] = sys.argv[1:]; from toolkit.sim.ahead import child; child()"
STOP_WAIT = 5.0  # seconds a stopped child has to end (it may be saving into numba's cache) before it is killed
LONGEST = 600.0  # seconds a child may take at this process's exit: past them it is stopped (it hangs)
STOPPED = 3  # the child's exit status when it was stopped
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)  # what stops this process stops the child


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Compile:
    """A child process compiling ``kernel`` for ``game`` and ``policies`` into numba's cache.

    ``child`` is None when no child could start (a single CPU, where it would only slow this process;
    a game or policies that cannot be pickled; no process to spare): the caller then compiles here.
    """

    def __init__(self, kernel, game, policies):
        self.child: subprocess.Popen | None = None
        self._previous = {}  # the handlers of STOP_SIGNALS before ours, while ours are installed
        if _cpus() < 2:
            return
        try:
            job = pickle.dumps((kernel.__name__, game, policies))
        except (pickle.PicklingError, TypeError, AttributeError):
            return
        try:
            self.child = subprocess.Popen([sys.executable, "-c", _BOOT, *sys.path], stdin=subprocess.PIPE,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                          start_new_session=True)
            self.child.stdin.write(job)  # and stdin stays open: its end tells the child this process is gone
            self.child.stdin.flush()
        except OSError:
            self.stop()
            self.child = None
            return
        self._on_signals()

    def running(self) -> bool:
        return self.child is not None and self.child.poll() is None

    def succeeded(self) -> bool:
        """The child has compiled the kernel into numba's cache (it has ended, with status 0)."""
        return self.child is not None and self.child.poll() == 0

    def wait(self, seconds: float) -> None:
        """Wait ``seconds``, or less if the child ends before."""
        try:
            self.child.wait(seconds)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        """Once the child has ended: let it go (its pipe, the signal handlers)."""
        if self.child is not None:
            self.child.stdin.close()
            self.child.wait()
        self._restore_signals()

    def stop(self) -> None:
        """End the child (once any save into numba's cache it is making is whole) and wait for it."""
        if self.child is not None and self.child.poll() is None:
            self.child.terminate()
            try:
                self.child.wait(STOP_WAIT)
            except subprocess.TimeoutExpired:
                self.child.kill()
        self.close()

    def finish_at_exit(self) -> None:
        """Let a child still compiling finish when this process exits, after what it prints."""
        if self.running():
            atexit.register(self._finish)
        else:
            self.close()

    def _finish(self) -> None:
        sys.stdout.flush()
        if self.child.poll() is None:
            _say("finishing the fast simulator's compile, once on this machine, for the next runs (the "
                 "results above are complete; Ctrl-C stops it)")
            try:
                self.child.wait(LONGEST)
            except (KeyboardInterrupt, subprocess.TimeoutExpired):
                pass
        self.stop()

    # --- Ctrl-C and SIGTERM: while the child lives, what ends this process ends the child too ---------

    def _on_signals(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # only the main thread sets handlers; the child still ends when this process is gone
        for signum in STOP_SIGNALS:
            previous = signal.getsignal(signum)
            if previous not in (signal.SIG_IGN, None):  # an ignored signal (or one handled outside Python) stays so
                self._previous[signum] = previous
                signal.signal(signum, self._stop_signal)

    def _restore_signals(self) -> None:
        while self._previous:
            signal.signal(*self._previous.popitem())

    def _stop_signal(self, signum, frame) -> None:
        # No waiting here (the signal may have come in the middle of a wait for the child): the child
        # stops by itself once any save is whole; then the signal does to this process what it did before
        # (the console script's handlers end it at once: ``toolkit.entry``).
        if self.child.poll() is None:
            self.child.terminate()
        self._restore_signals()
        os.kill(os.getpid(), signum)


def _say(text: str) -> None:
    try:
        print(f"toolkit: note: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def child() -> None:
    """The child's work: compile the kernel for the game and policies pickled on stdin, into numba's cache."""
    name, game, policies = pickle.load(sys.stdin.buffer)
    on_sigterm, on_parent_gone = _whole_saves()
    signal.signal(signal.SIGTERM, on_sigterm)
    threading.Thread(target=_wait_for_eof, args=(sys.stdin.fileno(), on_parent_gone), daemon=True).start()
    from importlib import import_module

    import_module(name).batch(game, policies, 0, 0, 1)


def _wait_for_eof(fd: int, then) -> None:
    """Read ``fd`` (not through ``sys.stdin``, whose lock a thread blocked there would hold at exit) to its end."""
    while os.read(fd, 4096):
        pass
    then()


def _whole_saves():
    """Make every save into numba's cache whole, and return the two ways to end the process: on SIGTERM
    (its handler runs in the main thread, perhaps in the middle of a save: then at the save's end) and
    from another thread (once no save is under way)."""
    from numba.core import caching

    lock = threading.Lock()  # held by a save (in the main thread)
    saving, stopped = [], []
    save = caching.IndexDataCacheFile.save

    def whole_save(self, key, data):
        with lock:
            saving.append(True)
            try:
                save(self, key, data)
            finally:
                saving.clear()
        if stopped:
            os._exit(STOPPED)

    def on_sigterm(signum, frame) -> None:
        if saving:
            stopped.append(True)
        else:
            os._exit(STOPPED)

    def on_parent_gone() -> None:
        with lock:
            os._exit(STOPPED)

    caching.IndexDataCacheFile.save = whole_save
    return on_sigterm, on_parent_gone
