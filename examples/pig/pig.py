"""Pig, the jeopardy dice game, for two players: a rules file for the toolkit (docs/rules-files.md).

On your turn you roll a die as often as you like. A 1 loses everything rolled this turn and ends the
turn; any other number is added to the turn total. Hold to bank the turn total and pass the die. The
first to reach the goal (100 by default) wins: as soon as the banked score and the turn total reach
it, the game is won (holding then is the only sensible move, so the game is the same as when the
player must hold).

Published figures this file reproduces:

* "hold at 20 or goal" for both players: the first player wins about 0.5347 of the games (Todd W.
  Neller, "First-Player Advantage", Nifty Assignments 2010, nifty.stanford.edu/2010/neller-pig/
  advantage.html). Here that is the player ``hold-at-20`` (tests/test_rules_examples.py simulates it).
* the optimal policy, the one that maximises the chance to win, is computed in T. W. Neller and C. G. M.
  Presser, "Optimal Play of the Dice Game Pig", The UMAP Journal 25(1) (2004) 25-47, over the states
  (i, j, k): the player's score, the opponent's score, the turn total. ``key()`` below is that state
  and the seat to play, so the exact walk (``toolkit odds --rules``) solves the same chain.
"""

from fractions import Fraction

ROLL, HOLD = 0, 1
DIE = tuple((face, Fraction(1, 6)) for face in range(1, 7))  # one tuple, given every time: checked once


class Pig:
    """Two-player Pig to ``goal`` points."""

    def __init__(self, goal=100):
        if not isinstance(goal, int) or goal < 2:
            raise ValueError(f"goal {goal!r}: a whole number of points from 2")
        self.goal = goal

    def num_players(self):
        return 2

    def new_initial_state(self):
        return PigState(self.goal)

    def action_to_string(self, player, action):
        return "roll" if action == ROLL else "hold"

    def policies(self):
        return {"hold-at-20": hold_at(20), "hold-at-25": hold_at(25)}


def hold_at(limit):
    """Roll until the turn total reaches ``limit`` (the goal ends the game by itself)."""
    def policy(state):
        return HOLD if state.turn_total >= limit else ROLL
    return policy


class PigState:
    def __init__(self, goal):
        self.goal = goal
        self.scores = [0, 0]
        self.turn_total = 0
        self.player = 0
        self.rolling = False  # a die is in the air: a chance node
        self.rolls = 0  # dice rolled this game (an event the report counts)
        self.pigs = 0  # turns lost to a 1

    def current_player(self):
        if self.is_terminal():
            return -4
        return -1 if self.rolling else self.player

    def is_chance_node(self):
        return self.rolling

    def chance_outcomes(self):
        return DIE

    def legal_actions(self):
        return [ROLL, HOLD]

    def ends_turn(self, action):
        """A turn ends when the player holds or rolls a 1."""
        return (self.rolling and action == 1) or (not self.rolling and action == HOLD)

    def apply_action(self, action):
        if self.rolling:
            self.rolling = False
            self.rolls += 1
            if action == 1:
                self.pigs += 1
                self.turn_total = 0
                self.player = 1 - self.player
            else:
                self.turn_total += action
        elif action == ROLL:
            self.rolling = True
        else:
            self.scores[self.player] += self.turn_total
            self.turn_total = 0
            self.player = 1 - self.player

    def is_terminal(self):
        return self.scores[self.player] + self.turn_total >= self.goal

    def returns(self):
        if not self.is_terminal():
            return [0, 0]
        return [1, -1] if self.player == 0 else [-1, 1]

    def score(self, player):
        return self.scores[player] + (self.turn_total if player == self.player else 0)

    def events(self):
        return {"rolls": self.rolls, "pigs": self.pigs}

    def key(self):
        return self.scores[0], self.scores[1], self.turn_total, self.player, self.rolling

    def clone(self):
        twin = PigState.__new__(PigState)
        twin.__dict__.update(self.__dict__)
        twin.scores = list(self.scores)
        return twin

    def __repr__(self):
        return (f"scores {self.scores[0]}-{self.scores[1]}, turn total {self.turn_total}, "
                f"player {self.player}{', rolling' if self.rolling else ''}")
