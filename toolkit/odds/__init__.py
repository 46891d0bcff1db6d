"""Exact odds for card games."""

from toolkit.odds.chain import Chain, InfiniteExpectation

__all__ = ["Chain", "InfiniteExpectation"]
