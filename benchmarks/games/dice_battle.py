"""Dice battle: two fighters trade blows until one falls. A rules file written the plain way, as a
designer writes one first: no ``key()``, no ``clone()``, and every throw lists its outcomes afresh (all
``6 ** dice`` ways the dice can land, each a tuple of faces: 7,776 for the default five dice). Five dice
make the game of issue 34's speed targets (``benchmarks/bench_pipeline.py``); it is a benchmark, not an
example to copy for speed.

Each fighter starts with 30 health. On your turn you either attack or rest. An attack throws the dice:
every die showing 5 or 6 hits for its face, and all dice alike hit for 20 more. Resting heals 3 health
(never above 30). A fighter at 0 health or below has lost. The test of the tabulated play
(tests/test_tabulated.py) and its benchmark (benchmarks/bench_tabulated.py) play it too; ``keyed=True`` gives
the state a ``key()`` (the same game, named by its health, seat and dice in the air).
"""

from fractions import Fraction
from itertools import product

ATTACK, REST = 0, 1
HEALTH = 30


class DiceBattle:
    """Two fighters, ``dice`` dice a throw."""

    def __init__(self, dice=5, keyed=False):
        self.dice = dice
        self.keyed = keyed

    def num_players(self):
        return 2

    def new_initial_state(self):
        return KeyedState(self.dice) if self.keyed else BattleState(self.dice)

    def action_to_string(self, player, action):
        return "attack" if action == ATTACK else "rest"

    def policies(self):
        return {"always-attack": always_attack, "cautious": cautious}


def always_attack(state):
    return ATTACK


def cautious(state):
    """Rest when hurt badly and the other fighter is not about to fall; attack otherwise."""
    me, other = state.health[state.player], state.health[1 - state.player]
    return REST if me <= 8 and other > 10 else ATTACK


def damage(dice):
    hit = sum(face for face in dice if face >= 5)
    if len(set(dice)) == 1:
        hit += 20
    return hit


class BattleState:
    def __init__(self, dice):
        self.dice = dice
        self.health = [HEALTH, HEALTH]
        self.player = 0
        self.throwing = False  # the dice are in the air: a chance node

    def current_player(self):
        if self.is_terminal():
            return -4
        return -1 if self.throwing else self.player

    def is_chance_node(self):
        return self.throwing

    def chance_outcomes(self):
        return [(dice, Fraction(1, 6 ** self.dice)) for dice in product(range(1, 7), repeat=self.dice)]

    def legal_actions(self):
        return [ATTACK, REST]

    def ends_turn(self, action):
        return self.throwing or action == REST

    def apply_action(self, action):
        if self.throwing:
            self.health[1 - self.player] -= damage(action)
            self.throwing = False
            self.player = 1 - self.player
        elif action == ATTACK:
            self.throwing = True
        else:
            self.health[self.player] = min(HEALTH, self.health[self.player] + 3)
            self.player = 1 - self.player

    def is_terminal(self):
        return min(self.health) <= 0

    def returns(self):
        if not self.is_terminal():
            return [0, 0]
        return [1, -1] if self.health[1] <= 0 else [-1, 1]

    def score(self, player):
        return self.health[player] - self.health[1 - player]


class KeyedState(BattleState):
    def key(self):
        return (*self.health, self.player, self.throwing)
