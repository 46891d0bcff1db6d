"""What the strategy search tries in Palaces: every way to play combined with every way to give.

``toolkit.analysis.strategy`` reaches it through ``Game.strategy()``.
"""

from __future__ import annotations

from toolkit.analysis.strategy import Strategy


class WaysToPlay(Strategy):
    default = "builder,give-worst"
    candidates = tuple(f"{play},{give}" for play in ("builder", "no-attack", "aggressive", "random")
                       for give in ("give-worst", "give-random"))
    named = ("builder", "no-attack", "aggressive", "random", "builder,give-random")
    words = {
        "en": {"builder": "builds", "no-attack": "builds, never attacks", "aggressive": "attacks first",
               "random": "plays at random", "give-worst": "", "give-random": "gives cards at random"},
        "ru": {"builder": "строит", "no-attack": "строит, не нападает", "aggressive": "сначала нападает",
               "random": "играет наугад", "give-worst": "", "give-random": "отдаёт карты наугад"},
    }


STRATEGY = WaysToPlay()
