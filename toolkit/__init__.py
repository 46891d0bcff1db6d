"""toolkit: print-and-play sheets, rulebooks and exact odds for castle-building card games."""


def __getattr__(name: str):
    # The version is looked up only when asked for: the lookup costs time at every start.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("toolkit")
        except PackageNotFoundError:  # running from a source tree that was never installed
            return "0+unknown"
    raise AttributeError(name)
