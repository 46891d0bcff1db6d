"""Two Tricks, a small card game of our own with hidden hands: a rules file (docs/hidden-information.md).

Six cards numbered 1 to 6. Each of two players antes 1 chip and is dealt two cards face down; the
other two cards are not used. The first player may raise (put in 1 chip more; ``--param bet=N``: N chips)
or check. After a raise the second player folds (the first player takes the antes) or calls (puts in as
much).

Then two tricks are played. The first player leads one card face up and the second player answers with
one of theirs: the higher card wins the trick. The last two cards are then turned up as the second
trick. Whoever wins both tricks takes the pot; one trick each, and each player takes back what they put
in. A return is what a player's chips changed by.

What each player knows is its ``information_state_string``: its own hand, the bets, and the cards
played so far. The questions the toolkit answers: the game's value to each seat, and when to raise with
a weak hand (a bluff), when to call, which card to lead, which to answer with.
"""

from fractions import Fraction
from itertools import combinations

CHECK, RAISE, FOLD, CALL = 0, 1, 2, 3
PLAY = 10  # PLAY + card: play that card
HANDS = tuple(combinations(range(1, 7), 2))  # every hand of two cards, lowest first


class TwoTricks:
    """Two Tricks for two players; a raise puts in ``bet`` chips (1 by default)."""

    def __init__(self, bet=1):
        if not isinstance(bet, int) or bet < 1:
            raise ValueError(f"bet {bet!r}: a whole number of chips from 1")
        self.bet = bet

    def num_players(self):
        return 2

    def new_initial_state(self):
        return TwoTricksState(self.bet)

    def action_to_string(self, player, action):
        return {CHECK: "check", RAISE: "raise", FOLD: "fold", CALL: "call"}.get(action, f"play {action - PLAY}")

    def policies(self):
        return {"honest": honest}


def honest(state):
    """Raise and call with a 5 or 6 in hand, never bluff; lead the higher card, answer with the lowest card that
    wins the trick, else the lowest."""
    hand = state.hands[state.current_player()]
    actions = state.legal_actions()
    if RAISE in actions:
        return RAISE if max(hand) >= 5 else CHECK
    if CALL in actions:
        return CALL if max(hand) >= 5 else FOLD
    if not state.led:
        return PLAY + max(hand)
    winning = [card for card in hand if card > state.led[0]]
    return PLAY + (min(winning) if winning else min(hand))


class TwoTricksState:
    def __init__(self, bet=1):
        self.bet = bet
        self.hands = []  # each player's two cards
        self.bets = []  # the moves of the betting: check, or raise then fold or call
        self.led = []  # the cards played to the first trick: the first player's, then the second's

    def current_player(self):
        if self.is_terminal():
            return -4
        if len(self.hands) < 2:
            return -1
        if not self.bets or self.bets == [RAISE]:
            return len(self.bets)
        return len(self.led)

    def chance_outcomes(self):
        if not self.hands:
            return [(hand, Fraction(1, 15)) for hand in HANDS]
        return [(hand, Fraction(1, 6)) for hand in HANDS if not set(hand) & set(self.hands[0])]

    def legal_actions(self):
        if not self.bets:
            return [CHECK, RAISE]
        if self.bets == [RAISE]:
            return [FOLD, CALL]
        return [PLAY + card for card in self.hands[len(self.led)]]

    def apply_action(self, action):
        if len(self.hands) < 2:
            self.hands.append(action)
        elif action in (CHECK, RAISE, FOLD, CALL):
            self.bets.append(action)
        else:
            self.led.append(action - PLAY)

    def is_terminal(self):
        return self.bets == [RAISE, FOLD] or len(self.led) == 2

    def returns(self):
        if not self.is_terminal():
            return [0, 0]
        if self.bets == [RAISE, FOLD]:
            return [1, -1]
        stake = 1 + self.bet if self.bets == [RAISE, CALL] else 1
        first = self.led[0] > self.led[1]
        kept = [next(c for c in self.hands[p] if c != self.led[p]) for p in (0, 1)]
        second = kept[0] > kept[1]
        if first and second:
            return [stake, -stake]
        if not first and not second:
            return [-stake, stake]
        return [0, 0]

    def information_state_string(self, player):
        low, high = self.hands[player]
        text = f"hand {low} {high}"
        if self.bets:
            text += "; " + " ".join(("check", "raise", "fold", "call")[b] for b in self.bets)
        if self.led:
            text += f"; led {self.led[0]}"
        return text

    def __repr__(self):
        hands = " / ".join(f"{a} {b}" for a, b in self.hands)
        return f"hands {hands or '-'}; bets {self.bets}; played {self.led}"
