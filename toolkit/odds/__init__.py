"""Exact odds for card games.

``Chain`` and ``InfiniteExpectation`` are looked up in ``toolkit.odds.chain`` when first asked for:
the chain solver brings gmpy2 with it, which a closed formula (``--model draws``, ``opening``)
does not need.
"""

__all__ = ["Chain", "InfiniteExpectation"]


def __getattr__(name: str):
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from toolkit.odds import chain

    return getattr(chain, name)
