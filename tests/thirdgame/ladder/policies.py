"""Ladder's one player: there is nothing to decide but to draw."""

from toolkit.errors import UserError

NAMES = ("default",)


class Climber:
    name = "default"

    def act(self, state, rng=None) -> int:
        return state.legal_actions()[0]

    def distribution(self, state) -> list[tuple[int, int]]:
        return [(self.act(state), 1)]


def parse(text: str, option: str | None = None) -> Climber:
    if text != "default":
        raise UserError(f"{option or text}: unknown policy (Ladder has one: default)")
    return Climber()
