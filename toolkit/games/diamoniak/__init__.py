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
    odds_models = ("solo", "draws", "hand", "multi")  # what `toolkit odds --model` answers; the first is the default
    rulebook_model = "solo"  # the odds model the rulebook solves for its figures
    art_folder = TOOLKIT_ART  # its art paths start with "diamoniak/"
    variant_names = {
        "diamonds-to-discard": {"ru": "Бриллианты — в сброс", "en": "Diamonds to the discard"},
        "free-colour": {"ru": "Свободный цвет", "en": "A free colour"},
    }

    # --- the odds, the analysis and the reports -------------------------------------------------
    danger_kind = "witch"  # the draws model: no witch in the next k draws
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
        return self.odds().sweep_figures(catalogue, turn_limit)

    # --- its parts, imported when first asked for (typed in toolkit.games.game) ----------------------

    def engine(self):
        from toolkit.games.diamoniak import engine

        return engine

    def game_class(self):
        from toolkit.games.diamoniak.engine import DiamoniakGame

        return DiamoniakGame

    def policies(self):
        from toolkit.games.diamoniak import policies

        return policies

    def kernel(self):  # the compiled kernel
        from toolkit.games.diamoniak import kernel

        return kernel

    def odds(self):
        from toolkit.games.diamoniak import odds

        return odds

    def strategy(self):
        from toolkit.games.diamoniak import strategy

        return strategy

    def view(self):  # the policy table's words: card ids for the state's fields and actions
        from toolkit.games.diamoniak import view

        return view

    def compiled_walk(self):
        from toolkit.games.diamoniak import walk

        return walk

    def art(self):
        from toolkit.games.diamoniak import art

        return art

    def rulebook_figures(self):
        from toolkit.games.diamoniak import figures

        return figures

    def table(self):
        from toolkit.games.diamoniak import table

        return table

    def deck_check(self):
        from toolkit.games.diamoniak import deck

        return deck


GAME = Diamoniak()
