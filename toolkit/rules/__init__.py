"""Games written by their designers in a page of Python (a "rules file"), played, analysed and solved by
the toolkit through one interface: :mod:`toolkit.rules.interface` is its reference, :mod:`toolkit.rules.load`
finds a game by its spec, :mod:`toolkit.rules.guard` wraps every call into the file's code."""
