"""Palaces: a hand-management race to complete palaces of three storeys.

Everything of the game lives in this package: its catalogue, engine, players, compiled kernel, chain
walk, opening odds, card art, rulebook figures, deck checks and table picture, texts. The toolkit
reaches it through ``GAME`` (entry point ``toolkit.games``).
"""

from toolkit.games.game import TOOLKIT_ART, Game


class Palaces(Game):
    id = "palaces"
    kinds = ("foundation", "floor", "roof", "tower", "ruins", "exchange", "general-exchange", "flood")
    coloured_kinds = frozenset({"foundation", "floor", "roof"})
    rules = {
        "hand_size": (1, 15),
        "max_palaces": (1, 10),
        "goal": (1, 100),
        "goal_two_players": (1, 100),
        "exchange_cards": (1, 10),
    }
    odds_models = ("opening", "first-palace", "draws", "hand", "multi")
    rulebook_model = "first-palace"
    art_folder = TOOLKIT_ART  # its art paths start with "palaces/"
    variant_names = {
        "exchange-face-up": {"ru": "Обмен в открытую", "en": "Open exchange"},
        "palaces-to-pile": {"ru": "Дворцы — обратно в колоду", "en": "Palaces back to the pile"},
        "one-per-colour": {"ru": "Один дворец на цвет", "en": "One palace per colour"},
        "short-two-player": {"ru": "Короткая дуэль", "en": "A short duel"},
        "ruins-card-to-clear": {"ru": "Руины убирают картой", "en": "A card to clear ruins"},
    }

    # --- the odds, the analysis and the reports -------------------------------------------------
    danger_kind = "flood"  # the draws model: no flood in the next k draws
    counter_labels = {
        "en": {"palaces_completed": "palaces completed", "tokens_scored": "tokens won",
               "foundations_laid": "foundations laid", "floods": "floods", "exchanges": "exchanges",
               "general_exchanges": "general exchanges", "ruins_laid": "ruins laid", "ruins_removed": "ruins cleared",
               "discards": "discards", "cards_discarded": "cards discarded", "passes": "turns nobody could act",
               "reshuffles": "reshuffles"},
        "ru": {"palaces_completed": "достроено дворцов", "tokens_scored": "получено жетонов",
               "foundations_laid": "заложено фундаментов", "floods": "наводнения", "exchanges": "обмены",
               "general_exchanges": "всеобщие обмены", "ruins_laid": "положено руин", "ruins_removed": "убрано руин",
               "discards": "сбросы", "cards_discarded": "сброшено карт", "passes": "ходы без возможного действия",
               "reshuffles": "перемешивания"},
    }
    counter_names = {"ruins_removed": "ruins cleared"}
    # Points come a palace at a time, three or more at once (3.4 on average with the builder), so the
    # winner's deficit (default games, 2-4 players) sits in lumps: 0, one palace (3-5: 39%, 47% and 46%
    # of the won games at 2, 3 and 4 players, 33-36% at exactly 3) and two (6-8: 12%, 28% and 36%).
    # Trailing by one palace, which one turn's finished palace makes up, is ordinary play, not a
    # comeback; trailing by two (six points, the two smallest) is: 14%, 35% and 45% of the won games.
    comeback_points = 6
    score_unit = {"en": ("point", "points"), "ru": ("очко", "очка", "очков")}

    def no_winner_reason(self, game):
        if not game.completable:
            return "no colour has a foundation, a roof, and a floor or a tower"
        return None

    def check_rules(self, rules):
        if rules["goal_two_players"] > rules["goal"]:
            return ("goal_two_players",
                    f"the shorter two-player goal ({rules['goal_two_players']}) is more than the goal ({rules['goal']})")
        if rules["exchange_cards"] > rules["hand_size"]:
            return ("exchange_cards",
                    f"an exchange cannot take {rules['exchange_cards']} cards from a hand of {rules['hand_size']}")
        return None

    # --- its parts, imported when first asked for (typed in toolkit.games.game) ----------------------

    def engine(self):
        from toolkit.games.palaces import engine

        return engine

    def game_class(self):
        from toolkit.games.palaces.engine import PalacesGame

        return PalacesGame

    def policies(self):
        from toolkit.games.palaces import policies

        return policies

    def kernel(self):  # the players, as the compiled kernel plays them: supports, batch
        from toolkit.games.palaces import policies

        return policies

    def odds(self):
        from toolkit.games.palaces import odds

        return odds

    def strategy(self):
        from toolkit.games.palaces import strategy

        return strategy

    def view(self):  # the policy table's words: card ids for the state's fields and actions
        from toolkit.games.palaces import view

        return view

    def compiled_walk(self):
        from toolkit.games.palaces import walk

        return walk

    def art(self):
        from toolkit.games.palaces import art

        return art

    def rulebook_figures(self):
        from toolkit.games.palaces import figures

        return figures

    def table(self):
        from toolkit.games.palaces import table

        return table

    def deck_check(self):
        from toolkit.games.palaces import deck

        return deck


GAME = Palaces()
