"""toolkit: print-and-play sheets, rulebooks and exact odds for castle-building card games."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("toolkit")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
