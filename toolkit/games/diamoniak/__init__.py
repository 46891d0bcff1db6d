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
    walk_module = "walk"
    view_module = "view"  # the policy table's words: card ids for the state's fields and actions
    odds_models = ("solo", "draws", "hand", "multi")  # what `toolkit odds --model` answers; the first is the default
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

    # --- the odds, the analysis and the reports -------------------------------------------------
    odds_module = "odds"  # the solo model
    danger_kind = "witch"  # the draws model: no witch in the next k draws
    strategy_module = "strategy"  # the stopping rules the strategy search tries
    counter_labels = {
        "en": {"witch_strikes": "witch strikes", "purchases": "castle cards bought", "reshuffles": "reshuffles",
               "fairies_spent": "fairies spent"},
        "ru": {"witch_strikes": "удары ведьм", "purchases": "куплено карт замка", "reshuffles": "перемешивания",
               "fairies_spent": "использовано фей"},
    }
    # The score is castle cards (six of a colour win): a winner who once trailed by three, half a castle,
    # came back. Castle cards come one at a time, so the winner's deficit falls off smoothly (3 or more
    # in 8%, 13% and 16% of the won games at 2, 3 and 4 players, 4 or more in 2-4%): three marks the
    # rare games, and keeps the figures the reports have always printed. No unit: "3+ behind".
    comeback_points = 3

    def no_winner_reason(self, game):
        if game.new_initial_state().stalled:  # the rules' start (``kernel._start``): nobody can ever complete one
            return f"no colour has the {game.castle_size} castle cards a castle needs"
        return None

    def sweep_exact(self, players, policy_names, variants):
        """The exact solo model: one player with the default policy, colours fixed for good."""
        default = self.policies().DiamoniakPolicy().name
        return players == 1 and policy_names == [default] and "free-colour" not in variants

    def exact_figures(self, catalogue, turn_limit):
        return self.module("odds").sweep_figures(catalogue, turn_limit)


GAME = Diamoniak()
