"""Diamoniak: a push-your-luck castle-building game for children (54 cards).

Everything of the game lives in this package: its catalogue, engine, players, compiled kernel, chain
walk, solo solver, texts. The toolkit reaches it through ``GAME`` (entry point ``toolkit.games``).
"""

from toolkit.games.game import Game


class Diamoniak(Game):
    id = "diamoniak"
    default = True
    kinds = ("castle", "diamond", "witch", "fairy")
    coloured_kinds = frozenset({"castle"})
    rules = {
        "castle_size": (1, 30),  # castle cards of one colour that win the game
        "price": (1, 50),        # diamonds paid for one castle card
        "witch_takes": (1, 50),  # cards a witch takes besides herself
    }
    engine_class = "DiamoniakGame"
    kernel_module = "kernel"
    walk_module = "walk"
    odds_models = ("solo", "draws", "multi")  # what `toolkit odds --model` answers; the first is the default
    rulebook_model = "solo"  # the odds model the rulebook solves for its figures


GAME = Diamoniak()
