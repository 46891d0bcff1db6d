"""The console script's entry point: Ctrl-C even while the program is still starting ends in one line.

Importing the command line takes a moment (click, then each command's libraries); an interrupt in
that moment would otherwise print a traceback. This module imports nothing heavy itself.
"""

import sys


def run() -> None:
    try:
        from toolkit.cli import main
    except KeyboardInterrupt:
        sys.stderr.write("toolkit: interrupted\n")
        sys.exit(130)
    main()
