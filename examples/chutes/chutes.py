"""Chutes and Ladders (Milton Bradley's board of Snakes and Ladders): a race with a spinner and no
decisions, a rules file for the toolkit (docs/rules-files.md).

Each player starts off the board (square 0). On a turn the player spins 1 to 6 and moves that many
squares; a move that would pass square 100 is not made. Landing on the foot of a ladder climbs it,
landing on the top of a chute slides down it. The first to land exactly on 100 wins.

Published figure this file reproduces: for one player, the expected number of turns to finish is
225837582538403273407117496273279920181931269186581786048583 /
5757472998140039232950575874628786131130999406013041613400, about 39.2251 (S. C. Althoen, L. King and
K. Schilling, "How long is a game of Snakes and Ladders?", The Mathematical Gazette 77 (1993) 71-76,
as quoted by futilitycloset.com, "For What It's Worth", 2018). tests/test_rules_examples.py simulates
it; the exact walk (``toolkit odds --rules``) gives the fraction itself. The key is each player's square
and the seat to spin: 101 states for one player.
"""

from fractions import Fraction

# Where a square sends you: ladders up, chutes down (the Milton Bradley board).
JUMPS = {1: 38, 4: 14, 9: 31, 21: 42, 28: 84, 36: 44, 51: 67, 71: 91, 80: 100,
         16: 6, 47: 26, 49: 11, 56: 53, 62: 19, 64: 60, 87: 24, 93: 73, 95: 75, 98: 78}
SPINNER = tuple((spin, Fraction(1, 6)) for spin in range(1, 7))
LAST = 100


class Chutes:
    """Chutes and Ladders for 1 to 4 players."""

    def __init__(self, players=1):
        if players not in (1, 2, 3, 4):
            raise ValueError(f"players {players!r}: 1 to 4")
        self.players = players

    def num_players(self):
        return self.players

    def new_initial_state(self):
        return ChutesState(self.players)


class ChutesState:
    def __init__(self, players):
        self.squares = [0] * players
        self.player = 0
        self.ladders = 0  # ladders climbed this game (events the report counts)
        self.chutes = 0

    def current_player(self):
        return -4 if self.is_terminal() else -1

    def is_chance_node(self):
        return not self.is_terminal()

    def chance_outcomes(self):
        return SPINNER

    def legal_actions(self):
        return []

    def apply_action(self, spin):
        square = self.squares[self.player] + spin
        if square <= LAST:
            landed = JUMPS.get(square, square)
            self.ladders += landed > square
            self.chutes += landed < square
            self.squares[self.player] = landed
        if not self.is_terminal():
            self.player = (self.player + 1) % len(self.squares)

    def is_terminal(self):
        return LAST in self.squares

    def returns(self):
        return [int(square == LAST) for square in self.squares]

    def score(self, player):
        return self.squares[player]

    def events(self):
        return {"ladders": self.ladders, "chutes": self.chutes}

    def key(self):
        return (*self.squares, self.player)

    def clone(self):
        twin = ChutesState.__new__(ChutesState)
        twin.__dict__.update(self.__dict__)
        twin.squares = list(self.squares)
        return twin

    def __repr__(self):
        return f"squares {self.squares}, player {self.player} to spin"
