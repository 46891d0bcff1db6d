"""Ladder: climb by drawing steps, fall back on a slip; the first to the top rung wins."""

from toolkit.games.game import Game


class Ladder(Game):
    id = "ladder"
    kinds = ("step", "slip")
    rules = {"rungs": (1, 30)}
    engine_class = "LadderGame"


GAME = Ladder()
