"""The blackjack dealer's hand from one deck: how often does the dealer bust? A card game with no
decisions, a rules file for the toolkit (docs/rules-files.md).

The dealer shows an up card (a constructor parameter, 1 for an ace to 10) and draws from the rest of
one 52-card deck (tens, jacks, queens and kings all count 10): the hole card, then more cards until the
total is 17 or more, counting an ace as 11 when that does not pass 21 (the dealer stands on a soft 17).
Over 21 is a bust. The one seat "wins" when the dealer busts, so the win rate is the bust chance.

Published figures this file reproduces (Wizard of Odds, "Dealer Probabilities in Blackjack", blackjack
appendix 2B, table "1 Deck - Dealer Stands on Soft 17", before the dealer peeks): the dealer busts with
probability 0.420823 showing a 6, 0.352973 showing a 2, 0.259854 showing a 7 and 0.11654 showing an ace.
tests/test_rules_examples.py simulates them; the key (the cards left by rank, the total, an ace drawn)
is small, so the exact walk (``toolkit odds --rules``) gives them as fractions.
"""

RANKS = range(1, 11)  # 1 is an ace; 10 stands for the ten and the three faces


class Dealer:
    """The dealer's hand showing ``up`` (1 = ace .. 10)."""

    def __init__(self, up=6):
        if up not in RANKS:
            raise ValueError(f"up {up!r}: a card from 1 (ace) to 10")
        self.up = up

    def num_players(self):
        return 1

    def new_initial_state(self):
        return DealerState(self.up)


class DealerState:
    def __init__(self, up):
        self.left = [4] * 9 + [16]  # cards left in the deck by rank
        self.left[up - 1] -= 1
        self.total = up  # aces counted as 1
        self.ace = up == 1
        self.cards = 1

    def best(self):
        """The hand's total, an ace counted as 11 where that keeps it at 21 or less."""
        return self.total + 10 if self.ace and self.total + 10 <= 21 else self.total

    def current_player(self):
        return -4 if self.is_terminal() else -1

    def is_chance_node(self):
        return not self.is_terminal()

    def chance_outcomes(self):
        return [(rank, count) for rank, count in zip(RANKS, self.left) if count]  # whole weights

    def legal_actions(self):
        return []

    def apply_action(self, rank):
        self.left[rank - 1] -= 1
        self.total += rank
        self.ace = self.ace or rank == 1
        self.cards += 1

    def is_terminal(self):
        return self.cards >= 2 and self.best() >= 17

    def returns(self):
        return [int(self.total > 21)]

    def events(self):
        return {"cards_drawn": self.cards - 1, "soft_17": int(self.ace and self.best() == 17 and self.total == 7)}

    def key(self):
        return (*self.left, self.total, self.ace)

    def __repr__(self):
        return f"total {self.best()}{' (soft)' if self.best() != self.total else ''} after {self.cards} cards"
