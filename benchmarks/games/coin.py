"""Coin pig: Pig played with a coin, two players. A rules file written the plain way (no ``key()``).

On your turn you flip a coin as often as you like. Heads adds a point to the turn total; tails loses
the turn total and ends the turn. Bank to add the turn total to your score and pass the coin. The
first to reach the goal wins, as soon as the score and the turn total reach it.

A benchmark of exact optimal play (``benchmarks/bench_pipeline.py``): at the default goal the walk of
``toolkit odds --rules benchmarks/games/coin.py --model optimal`` meets 16,802 positions (2 x goal^2 x (goal + 1) + 2).
"""

FLIP, BANK = 0, 1
TAILS, HEADS = 0, 1


class CoinPig:
    """Two-player coin pig to ``goal`` points."""

    def __init__(self, goal=20):
        self.goal = goal

    def num_players(self):
        return 2

    def new_initial_state(self):
        return CoinState(self.goal)

    def action_to_string(self, player, action):
        return "flip" if action == FLIP else "bank"

    def policies(self):
        return {"bank-at-4": bank_at_4}


def bank_at_4(state):
    return BANK if state.turn_total >= 4 else FLIP


class CoinState:
    def __init__(self, goal):
        self.goal = goal
        self.scores = [0, 0]
        self.turn_total = 0
        self.player = 0
        self.flipping = False  # the coin is in the air: a chance node

    def current_player(self):
        if self.is_terminal():
            return -4
        return -1 if self.flipping else self.player

    def is_chance_node(self):
        return self.flipping

    def chance_outcomes(self):
        return [(TAILS, 1), (HEADS, 1)]

    def legal_actions(self):
        return [FLIP, BANK]

    def ends_turn(self, action):
        return (self.flipping and action == TAILS) or (not self.flipping and action == BANK)

    def apply_action(self, action):
        if self.flipping:
            self.flipping = False
            if action == HEADS:
                self.turn_total += 1
            else:
                self.turn_total = 0
                self.player = 1 - self.player
        elif action == FLIP:
            self.flipping = True
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
