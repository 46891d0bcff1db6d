"""OpenSpiel's games through the contract of a game: ``--rules open_spiel:NAME``.

``NAME`` is what ``pyspiel.load_game`` reads, parameters included (``open_spiel:leduc_poker``,
``open_spiel:goofspiel(num_cards=4)``); ``--param NAME=VALUE`` adds parameters to it. A game of
simultaneous moves is played turn by turn (``pyspiel.convert_to_turn_based``: each seat's move is hidden
from the others until all have moved). A game of hidden information gives each seat its
``information_state_string``, so optimal play is its equilibrium; a game of perfect information gives
none, and is solved as one.

OpenSpiel gives chance probabilities as floats. Each is read as the fraction of smallest denominator (up
to ``MAX_DENOMINATOR``) that it stands for, checked: the float must be that fraction rounded (within a
few units in its last place), and the fractions of a chance node must sum to 1 exactly. A probability
that is no such fraction is refused in one line. Returns are read the same way where they are such a
fraction, else as the float's exact value.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from toolkit.errors import UserError

PREFIX = "open_spiel:"
MAX_DENOMINATOR = 10**6
CLOSE = 4  # units in the last place a float may be from the fraction it stands for


def exact(value: float) -> Fraction | None:
    """The small-denominator fraction the float ``value`` stands for, or None."""
    import math

    near = Fraction(value).limit_denominator(MAX_DENOMINATOR)
    if float(near) == value or abs(float(near) - value) <= CLOSE * math.ulp(value):
        return near
    return None


class OpenSpiel:
    """What the guard names as the game's class: its parameters are OpenSpiel's, given in NAME."""

    def __init__(self, **params: Any):
        self.params = params


class OpenSpielGame:
    """A pyspiel game as a rules game (the guard, ``toolkit.rules.guard``, wraps it as it wraps a file's)."""

    def __init__(self, game: Any, name: str):
        self.game = game
        self.name = name
        self.hidden = game.get_type().provides_information_state_string and \
            str(game.get_type().information) != "Information.PERFECT_INFORMATION"

    def num_players(self) -> int:
        return self.game.num_players()

    def new_initial_state(self):
        cls = HiddenState if self.hidden else OpenSpielState
        return cls(self.game.new_initial_state())

    def action_to_string(self, player: int, action: int) -> str:
        return self.game.new_initial_state().action_to_string(player, action)


class OpenSpielState:
    """A pyspiel state with the contract's methods."""

    def __init__(self, state: Any):
        self.state = state

    def current_player(self) -> int:
        return self.state.current_player()

    def is_chance_node(self) -> bool:
        return self.state.is_chance_node()

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        out = []
        for outcome, p in self.state.chance_outcomes():
            near = exact(p)
            if near is None:
                raise ValueError(f"the probability {p!r} of outcome {outcome} stands for no fraction with a "
                                 f"denominator up to {MAX_DENOMINATOR:,}")
            out.append((outcome, near))
        return out

    def legal_actions(self) -> list[int]:
        return list(self.state.legal_actions())

    def apply_action(self, action: int) -> None:
        self.state.apply_action(action)

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def returns(self) -> list:
        return [exact(r) or Fraction(r) for r in self.state.returns()]

    def clone(self):
        return type(self)(self.state.clone())

    def key(self):
        return tuple(self.state.history())

    def __repr__(self) -> str:
        return " ".join(str(self.state).split()) or f"history {self.state.history()}"


class HiddenState(OpenSpielState):
    """A pyspiel state of a game of hidden information: what each seat knows."""

    def information_state_string(self, player: int) -> str:
        return self.state.information_state_string(player)


def load(spec: str, params: dict, option: str = "--rules"):
    """The OpenSpiel game ``spec`` (``open_spiel:NAME``, ``params`` added to NAME's), guarded."""
    from toolkit.rules.guard import RulesGame

    name = spec[len(PREFIX):].strip()
    if not name:
        raise UserError(f"{option} {spec}: name an OpenSpiel game, e.g. {PREFIX}kuhn_poker")
    try:
        import pyspiel
    except ImportError:
        raise UserError(f"{option} {spec}: OpenSpiel is not installed (pip install 'toolkit[openspiel]' or "
                        "pip install open_spiel)") from None
    if params:
        given = ",".join(f"{k}={v}" for k, v in params.items())
        name = f"{name[:-1]},{given})" if name.endswith(")") else f"{name}({given})"
    try:
        game = pyspiel.load_game(name)
    except Exception as err:  # noqa: BLE001 - OpenSpiel's own refusal, in one line
        raise UserError(f"{option} {spec}: OpenSpiel cannot load {name}: {' '.join(str(err).split())}") from None
    kind = game.get_type()
    if str(kind.chance_mode) == "ChanceMode.SAMPLED_STOCHASTIC":
        raise UserError(f"{option} {spec}: {name} samples its chance outcomes without listing them: no exact odds")
    if str(kind.dynamics) == "Dynamics.SIMULTANEOUS":
        game = pyspiel.convert_to_turn_based(game)
    rules = RulesGame(OpenSpielGame(game, name), OpenSpiel, spec, spec, None, dict(params))
    rules.name = name
    return rules
