"""Diamoniak: a push-your-luck castle-building game for children (54 cards).

Everything of the game lives in this package: its catalogue, engine, players, compiled kernel, chain
walk, solo solver, card art, rulebook figures, deck checks and table picture, texts. The toolkit
reaches it through ``GAME`` (entry point ``toolkit.games``).
"""

from toolkit.games.game import TOOLKIT_ART, Game


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
    odds_models = ("solo", "draws", "multi")  # what `toolkit odds --model` answers; the first is the default
    rulebook_model = "solo"  # the odds model the rulebook solves for its figures
    art_module = "art"
    art_folder = TOOLKIT_ART  # its art paths start with "diamoniak/"
    figures_module = "figures"
    table_module = "table"
    deck_module = "deck"
    variant_names = {
        "diamonds-to-discard": {"ru": "Бриллианты — в сброс", "en": "Diamonds to the discard"},
        "free-colour": {"ru": "Свободный цвет", "en": "A free colour"},
    }


GAME = Diamoniak()
