"""The console script's entry point: Ctrl-C, SIGTERM or SIGHUP at any moment ends a run in one line.

The signal handlers are installed before anything heavy is imported, and they do not rely on an
exception travelling up through whatever code is running (Python drops an exception raised in a
finaliser or a callback, and click answers Ctrl-C on its own): they remove the temporary files and
folders the run has open (see :mod:`toolkit.files`), say one line and end the process with the
status shells expect, 130 for Ctrl-C, 143 for SIGTERM and 129 for SIGHUP (the terminal closed). The
run's worker processes (a process pool's, a local Dask cluster's) are killed first, so that none
outlives it, even one stuck in a rules file's code; the cluster's scratch folder is one of the
temporary folders.
"""

import os
import signal
import sys

_exit = os._exit  # the real one: a rules file's watch (toolkit.rules.contain) replaces os._exit
_STOPS = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143)}
if hasattr(signal, "SIGHUP"):  # not on Windows
    _STOPS[signal.SIGHUP] = ("hung up", 129)


def _stop(signum, frame) -> None:
    files = sys.modules.get("toolkit.files")  # not imported (or not yet whole): nothing to clean up
    if getattr(files, "HELD", 0):  # a few steps that must happen together: stop right after them
        files.DEFERRED.append(signum)
        return
    # multiprocessing not imported (or not yet whole): no worker to stop
    for child in getattr(sys.modules.get("multiprocessing"), "active_children", list)():
        child.kill()
    remove_pending = getattr(files, "remove_pending", None)
    if remove_pending is not None:
        remove_pending()
    what, status = _STOPS[signum]
    try:
        # on a terminal: clear the line (a progress bar, or the ^C) and show the cursor a bar hid
        clear = "\r\033[K\033[?25h" if os.isatty(2) else ""
        os.write(2, f"{clear}toolkit: {what}\n".encode())
    except OSError:
        pass
    _exit(status)


def install_signal_handlers() -> None:
    for signum in _STOPS:
        signal.signal(signum, _stop)


def run() -> None:
    install_signal_handlers()
    from toolkit.cli import main

    main()
