"""Kuhn poker, the smallest poker with bluffing: a rules file with hidden hands (docs/hidden-information.md).

Three cards, jack, queen and king. Each of two players antes 1 chip and is dealt one card, which the
other does not see. The first player checks (passes) or bets 1 chip. After a check the second player
checks (the higher card takes the pot of 2) or bets; after a bet the other player folds (passes: the
bettor takes the pot) or calls (bets too: the higher card takes the pot of 4). A return is what a
player's chips changed by.

What each player knows is its ``information_state_string``: its own card and the moves so far. That
is what makes it a game of hidden information: the toolkit's optimal play is then the equilibrium of
the game as it is played, cards face down.

Published figures this file reproduces: the first player's value with optimal play on both sides is
-1/18 (H. W. Kuhn, "A simplified two-person poker", Contributions to the Theory of Games I, 1950); a
best reply to a player choosing every action with equal chance gains 1/2 in the first seat and 5/12
in the second (OpenSpiel's exploitability of the uniform policy, 11/24, is their mean).
The rules and the action numbers are OpenSpiel's ``kuhn_poker``: 0 is pass, 1 is bet.
"""

from fractions import Fraction

PASS, BET = 0, 1
CARDS = "JQK"


class Kuhn:
    """Two-player Kuhn poker."""

    def num_players(self):
        return 2

    def new_initial_state(self):
        return KuhnState()

    def max_game_length(self):
        return 5

    def action_to_string(self, player, action):
        return "pass" if action == PASS else "bet"

    def policies(self):
        return {"always-bet": lambda state: BET, "bet-the-king": bet_the_king}


def bet_the_king(state):
    """Bet or call with the king, pass with anything else."""
    return BET if state.cards[state.current_player()] == 2 else PASS


class KuhnState:
    def __init__(self):
        self.cards = []  # the dealt cards, the first player's first (0 jack, 1 queen, 2 king)
        self.moves = []  # the players' moves, in order

    def current_player(self):
        if self.is_terminal():
            return -4
        if len(self.cards) < 2:
            return -1
        return len(self.moves) % 2

    def chance_outcomes(self):
        left = [card for card in range(3) if card not in self.cards]
        return [(card, Fraction(1, len(left))) for card in left]

    def legal_actions(self):
        return [PASS, BET]

    def apply_action(self, action):
        if len(self.cards) < 2:
            self.cards.append(action)
        else:
            self.moves.append(action)

    def is_terminal(self):
        moves = self.moves
        return len(moves) == 3 or (len(moves) == 2 and moves != [PASS, BET])

    def returns(self):
        if not self.is_terminal():
            return [0, 0]
        moves = self.moves
        pot = 1 + (BET in moves and moves[-1] == BET)  # each player's stake: the ante, and the bet when called
        if moves[-1] == PASS and BET in moves:  # a fold: the bettor takes the ante of the one who folded
            bettor = moves.index(BET) % 2
            return [1, -1] if bettor == 0 else [-1, 1]
        first_wins = self.cards[0] > self.cards[1]
        return [pot, -pot] if first_wins else [-pot, pot]

    def information_state_string(self, player):
        said = " ".join("pass" if move == PASS else "bet" for move in self.moves)
        return f"{CARDS[self.cards[player]]}" + (f", after {said}" if said else "")

    def __repr__(self):
        cards = " ".join(CARDS[card] for card in self.cards)
        said = " ".join("pass" if move == PASS else "bet" for move in self.moves)
        return f"cards {cards or '-'}; moves {said or '-'}"
