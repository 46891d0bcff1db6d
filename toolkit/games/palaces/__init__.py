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
    engine_class = "PalacesGame"
    kernel_module = "kernel"
    odds_models = ("opening", "first-palace", "draws", "multi")
    rulebook_model = "first-palace"
    art_module = "art"
    art_folder = TOOLKIT_ART  # its art paths start with "palaces/"
    figures_module = "figures"
    table_module = "table"
    deck_module = "deck"
    variant_names = {
        "exchange-face-up": {"ru": "Обмен в открытую", "en": "Open exchange"},
        "palaces-to-pile": {"ru": "Дворцы — обратно в колоду", "en": "Palaces back to the pile"},
        "one-per-colour": {"ru": "Один дворец на цвет", "en": "One palace per colour"},
        "short-two-player": {"ru": "Короткая дуэль", "en": "A short duel"},
        "ruins-card-to-clear": {"ru": "Руины против руин", "en": "Ruins against ruins"},
    }

    def check_rules(self, rules):
        if rules["goal_two_players"] > rules["goal"]:
            return ("goal_two_players",
                    f"the shorter two-player goal ({rules['goal_two_players']}) is more than the goal ({rules['goal']})")
        if rules["exchange_cards"] > rules["hand_size"]:
            return ("exchange_cards",
                    f"an exchange cannot take {rules['exchange_cards']} cards from a hand of {rules['hand_size']}")
        return None


GAME = Palaces()
