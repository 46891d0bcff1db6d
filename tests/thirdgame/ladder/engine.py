"""Ladder's rules: on your turn draw the top card of the pile; a step takes you one rung up, a slip
one rung down (never below the ground). Whoever reaches the top rung first wins; when the pile runs
out, the highest climber wins (the earlier seat on a tie)."""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.games import CHANCE, TERMINAL, check_setup
from toolkit.games.played import PlayedGame, PlayedState

VARIANTS: dict[str, str] = {}
DRAW = 0  # the one action: draw a card


@dataclass(frozen=True)
class LadderGame(PlayedGame):
    game_id = "ladder"
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    counts: tuple[int, ...]
    rungs: int
    players: int

    @classmethod
    def from_catalogue(cls, catalogue, players: int = 2, variants=()) -> LadderGame:
        check_setup(catalogue, "ladder", "Ladder", players, variants, VARIANTS)
        return cls(tuple(c.id for c in catalogue.cards), tuple(c.kind for c in catalogue.cards),
                   tuple(c.count for c in catalogue.cards), catalogue.rules["rungs"], players)

    def new_initial_state(self) -> LadderState:
        return LadderState(self)


class LadderState(PlayedState):
    def __init__(self, game: LadderGame):
        self.game = game
        self.pile = list(game.counts)
        self.heights = [0] * game.players
        self.player = 0
        self.turns = 0
        self.drawing = False
        self.winner: int | None = None
        self.slips = 0

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.drawing else self.player

    def is_terminal(self) -> bool:
        return self.winner is not None or not any(self.pile)

    def legal_actions(self) -> list[int]:
        return [DRAW]

    def chance_outcomes(self) -> list[tuple[int, int]]:
        return [(card, count) for card, count in enumerate(self.pile) if count]

    def apply_action(self, action: int) -> None:
        if not self.drawing:
            self.drawing = True
            return
        self.pile[action] -= 1
        step = self.game.kinds[action] == "step"
        self.slips += not step
        self.heights[self.player] = max(0, self.heights[self.player] + (1 if step else -1))
        self.drawing = False
        self.turns += 1
        if self.heights[self.player] >= self.game.rungs:
            self.winner = self.player
        elif not any(self.pile):
            self.winner = max(range(self.game.players), key=lambda p: (self.heights[p], -p))
        self.player = (self.player + 1) % self.game.players

    def scores(self) -> list[int]:
        return list(self.heights)

    def counters(self) -> dict[str, int]:
        return {"slips": self.slips}
