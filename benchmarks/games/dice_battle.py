"""Dice battle: two fighters trade blows until one falls. A rules file written the plain way.

This is the kind of file a designer writes first: no ``key()``, and every chance node builds its list
of outcomes afresh (all 7,776 ways five six-sided dice can land, each a tuple of faces). It is a
benchmark of the toolkit (``benchmarks/bench_pipeline.py``), not an example to copy for speed.

Each fighter starts with 30 health. On your turn you either attack or rest. An attack throws five
dice: every die showing 5 or 6 hits for its face, and five of a kind hits for 20 more. Resting heals
3 health (never above 30). A fighter at 0 health or below has lost.
"""

from fractions import Fraction
from itertools import product

ATTACK, REST = 0, 1
HEALTH = 30


class DiceBattle:
    """Two fighters, five dice."""

    def num_players(self):
        return 2

    def new_initial_state(self):
        return BattleState()

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
    def __init__(self):
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
        return [(dice, Fraction(1, 6 ** 5)) for dice in product(range(1, 7), repeat=5)]

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
