"""Leduc hold'em, the poker of research papers: a rules file with hidden hands (docs/hidden-information.md).

Six cards: a jack, a queen and a king in each of two suits. Each of two players antes 1 chip and is
dealt one card face down. A round of betting follows, then one card is turned face up on the table and
a second round follows. In a round the players may check or call (1), raise (2: by 2 chips in the first
round, 4 in the second; at most two raises a round) or, facing a raise, fold (0). The first player acts
first in both rounds. At the end, a player whose card pairs the table's wins; else the higher card
wins; equal ranks split the pot. A return is what a player's chips changed by.

What each player knows is its ``information_state_string``: its own card's rank, the table's card once
turned, and every bet so far (the suits never matter, so they are left out).

Published figure this file reproduces: the first player's value with optimal play on both sides is
-0.085606424078 (OpenSpiel's sequence-form test; M. Lanctot et al., "OpenSpiel: a framework for
reinforcement learning in games", 2019, after F. Southey et al., "Bayes' bluff: opponent modelling in
poker", UAI 2005). The rules and the action numbers are OpenSpiel's ``leduc_poker``.
"""

FOLD, CALL, RAISE = 0, 1, 2
RANKS = "JQK"
BETS = (2, 4)  # the raise in each round
WORDS = {FOLD: "fold", CALL: "call", RAISE: "raise"}


class Leduc:
    """Two-player Leduc hold'em."""

    def num_players(self):
        return 2

    def new_initial_state(self):
        return LeducState()

    def action_to_string(self, player, action):
        return WORDS[action]

    def policies(self):
        return {"always-call": lambda state: CALL}


class LeducState:
    def __init__(self):
        self.cards = []  # the first player's, the second's, then the table's (0..5: rank = card // 2)
        self.rounds = [[]]  # the moves of each round of betting
        self.stakes = [1, 1]  # what each player has put in
        self.folded = None

    def current_player(self):
        if self.is_terminal():
            return -4
        if len(self.cards) < 2 or (len(self.rounds) == 2 and len(self.cards) < 3):
            return -1
        return len(self.rounds[-1]) % 2

    def chance_outcomes(self):
        left = [card for card in range(6) if card not in self.cards]
        return [(card, 1) for card in left]

    def legal_actions(self):
        moves = self.rounds[-1]
        actions = [FOLD] if self.stakes[0] != self.stakes[1] else []
        actions.append(CALL)
        if moves.count(RAISE) < 2:
            actions.append(RAISE)
        return actions

    def apply_action(self, action):
        if self.current_player() == -1:
            self.cards.append(action)
            return
        player = len(self.rounds[-1]) % 2
        moves = self.rounds[-1]
        if action == FOLD:
            self.folded = player
        elif action == CALL:
            facing = self.stakes[0] != self.stakes[1]
            self.stakes[player] = max(self.stakes)
            if facing or moves:  # a call of a raise, or a second check: the round is over
                moves.append(action)
                if len(self.rounds) == 1:
                    self.rounds.append([])
                else:
                    self.rounds.append(None)  # the end of the last round: the showdown
                return
        else:
            self.stakes[player] = max(self.stakes) + BETS[len(self.rounds) - 1]
        moves.append(action)

    def is_terminal(self):
        return self.folded is not None or (len(self.rounds) == 3)

    def returns(self):
        if self.folded is not None:
            lost = self.stakes[self.folded]
            return [-lost, lost] if self.folded == 0 else [lost, -lost]
        if not self.is_terminal():
            return [0, 0]
        mine, yours, table = (card // 2 for card in self.cards)
        first = (mine == table, mine)
        second = (yours == table, yours)
        pot = self.stakes[0]
        if first == second:
            return [0, 0]
        return [pot, -pot] if first > second else [-pot, pot]

    def information_state_string(self, player):
        text = RANKS[self.cards[player] // 2]
        for number, moves in enumerate(self.rounds[:2]):
            if number == 1:
                if len(self.cards) < 3:
                    break
                text += f"; table {RANKS[self.cards[2] // 2]}"
            if moves:
                text += ": " + " ".join(_said(moves, i) for i in range(len(moves)))
        return text

    def clone(self):
        twin = LeducState.__new__(LeducState)
        twin.cards = list(self.cards)
        twin.rounds = [list(moves) if moves is not None else None for moves in self.rounds]
        twin.stakes = list(self.stakes)
        twin.folded = self.folded
        return twin

    def __repr__(self):
        cards = " ".join(RANKS[card // 2] for card in self.cards)
        bets = " / ".join(" ".join(WORDS[m] for m in moves) for moves in self.rounds if moves is not None)
        return f"cards {cards or '-'}; bets {bets or '-'}; stakes {self.stakes[0]}-{self.stakes[1]}"


def _said(moves, i):
    """A move in words: a call with nothing to call is a check."""
    if moves[i] == CALL and RAISE not in moves[:i]:
        return "check"
    return WORDS[moves[i]]
