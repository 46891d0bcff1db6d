"""The console script's entry point: Ctrl-C or SIGTERM at any moment ends a run in one line.

The signal handlers are installed before anything heavy is imported, and they do not rely on an
exception travelling up through whatever code is running (Python drops an exception raised in a
finaliser or a callback, and click answers Ctrl-C on its own): they remove the temporary files and
folders the run has open (see :mod:`toolkit.files`), say one line and end the process with the
status shells expect, 130 for Ctrl-C and 143 for SIGTERM.
"""

import os
import signal
import sys

_STOPS = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143)}


def _stop(signum, frame) -> None:
    files = sys.modules.get("toolkit.files")  # not imported yet: nothing of it to clean up
    if files is not None:
        files.remove_pending()
    what, status = _STOPS[signum]
    try:
        clear = "\r\033[K" if os.isatty(2) else ""  # a progress bar or the terminal's ^C on this line
        os.write(2, f"{clear}toolkit: {what}\n".encode())
    except OSError:
        pass
    os._exit(status)


def install_signal_handlers() -> None:
    for signum in _STOPS:
        signal.signal(signum, _stop)


def run() -> None:
    install_signal_handlers()
    from toolkit.cli import main

    main()
