"""Every registered game keeps the contract (toolkit.game.contract), in the spirit of OpenSpiel's game tests.

Parametrised over every game the toolkit plays: the built-in games at each player count and in a variant
or two (their engines' games, which keep the contract through toolkit.games.played), the examples'
rules files (pig, chutes, dealer, and kuhn, leduc and tricks with hidden hands) and the test package's
third game (tests/thirdgame/ladder, registered here as its entry point would register it). Each game is played to its end with a few seeds
(at random; a game whose random games are long, with one random seat and its default player at the
others), and at every step (the heavier checks at a sample of steps):

* the game, its states and its players are the contract's ``Game``, ``State`` and ``Player``; its
  ``info()`` agrees with it (player counts, named players, the length unit);
* ``current_player`` agrees with ``is_terminal`` and ``is_chance_node``; a decision has legal actions,
  distinct; a chance node's outcomes are distinct, their weights positive and their probabilities sum to
  1 exactly; the game ends within ``max_game_length()`` steps;
* keys are hashable and stable (the same state twice, and its clone, give equal keys), clones are
  independent (playing on a clone leaves the original's key unchanged) and play alike (the same action on
  a state and its clone gives equal keys);
* ``ends_turn`` is a bool and counts the state's turns (``.turns``, as the toolkit's states keep them);
  ``score`` is a number or None, ``events`` whole numbers by name;
* a game of hidden information says what the seat to decide knows (``information_state_string``): a
  string, the same on a clone;
* at the end, ``returns()`` has one number per seat;
* a seed gives the same game twice: the same sequence of actions and outcomes.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest

from conftest import ROOT
from toolkit.game import CHANCE, TERMINAL, Game, GameInfo, Player, State
from toolkit.game.info import LENGTH_UNITS
from toolkit.games import registry
from toolkit.rules.load import load_rules

THIRD_GAME = ROOT / "tests" / "thirdgame"  # as tests/test_third_game.py puts it on the path
EVERY_STEP = 40  # the heavier checks at each of the first steps of a game, then at one step in SAMPLE
SAMPLE = 53


@dataclass(frozen=True)
class Case:
    id: str
    spec: str  # as --rules takes it: a built-in game's id or a rules file's path (from the repository's root)
    params: dict[str, Any] = field(default_factory=dict)
    seeds: tuple[int, ...] = (1, 2)
    third: bool = False  # the outside package's game, registered for the test
    # the named player of every seat but the first (None: every seat plays at random); a game whose random
    # games are long (Palaces: 3,000 to 14,000 steps on the interpreted engine, seconds each) plays its
    # other seats by its default player, about 200 steps
    others: str | None = None


CASES = [
    *(Case(f"diamoniak-{n}p", "diamoniak", {"players": n}) for n in (2, 3, 4)),
    Case("diamoniak-2p-free-colour", "diamoniak", {"players": 2, "variants": "free-colour"}),
    Case("diamoniak-3p-diamonds-to-discard", "diamoniak", {"players": 3, "variants": "diamonds-to-discard"}, (3,)),
    *(Case(f"palaces-{n}p", "palaces", {"players": n}, others="default") for n in (2, 3, 4)),
    Case("palaces-3p-one-per-colour", "palaces", {"players": 3, "variants": "one-per-colour"}, (3,), others="default"),
    Case("palaces-2p-short+face-up", "palaces", {"players": 2, "variants": "short-two-player+exchange-face-up"}, (3,)),
    Case("pig-goal-30", "examples/pig/pig.py", {"goal": 30}, (1, 2, 3)),
    Case("pig", "examples/pig/pig.py"),
    Case("chutes-1p", "examples/chutes/chutes.py", {}, (1, 2, 3)),
    Case("chutes-3p", "examples/chutes/chutes.py", {"players": 3}),
    Case("dealer", "examples/dealer/dealer.py", {}, (1, 2, 3, 4, 5)),
    Case("dealer-up-10", "examples/dealer/dealer.py", {"up": 10}, (1, 2, 3)),
    Case("kuhn", "examples/kuhn/kuhn.py", {}, (1, 2, 3, 4)),
    Case("leduc", "examples/leduc/leduc.py", {}, (1, 2, 3, 4)),
    Case("tricks", "examples/tricks/tricks.py", {}, (1, 2, 3)),
    Case("tricks-bet-2", "examples/tricks/tricks.py", {"bet": 2}, (1, 2)),
    *(Case(f"ladder-{n}p", "ladder", {"players": n}, third=True) for n in (2, 4)),
]


def test_every_registered_game_is_a_case():
    """The cases name every game the registry knows (a new game joins the test) and every example file."""
    assert set(registry.ids()) <= {case.spec for case in CASES}
    examples = {path.relative_to(ROOT).as_posix() for path in (ROOT / "examples").glob("*/*.py")}
    assert examples <= {case.spec for case in CASES}
    assert any(case.third for case in CASES)


@pytest.fixture
def third_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The third game registered beside the built-in ones, as its entry point would register it."""
    monkeypatch.syspath_prepend(str(THIRD_GAME))
    ladder = importlib.import_module("ladder")
    known = {**registry.games(), ladder.GAME.id: ladder.GAME}
    monkeypatch.setattr(registry, "games", lambda: known)


def load(case: Case) -> Any:
    """The game of the case: a registered game's engine on its own deck (itself a game of the contract,
    through toolkit.games.played), or a rules file."""
    if case.spec in registry.ids() or case.third:
        from toolkit.catalogue import load as load_deck

        variants = str(case.params.get("variants", ""))
        return registry.get(case.spec).make_game(load_deck(case.spec, require_art=False), case.params["players"],
                                                 tuple(variants.split("+")) if variants else ())
    return load_rules(str(ROOT / case.spec), dict(case.params))


def probabilities(outcomes: list[tuple[Any, Any]]) -> list[Fraction]:
    """The chance of each outcome: whole weights over their total, or the Fractions as given."""
    weights = [weight for _, weight in outcomes]
    if all(type(weight) is int for weight in weights):
        total = sum(weights)
        return [Fraction(weight, total) for weight in weights]
    return [Fraction(weight) for weight in weights]


def pick(outcomes: list[tuple[Any, Any]], rng: random.Random) -> Any:
    """An outcome drawn by its exact probability (whole-number arithmetic)."""
    weights = [weight for _, weight in outcomes]
    if not all(type(weight) is int for weight in weights):
        chances = probabilities(outcomes)
        scale = math.lcm(*(p.denominator for p in chances))
        weights = [p.numerator * (scale // p.denominator) for p in chances]
    point = rng.randrange(sum(weights))
    for (outcome, _), weight in zip(outcomes, weights):
        point -= weight
        if point < 0:
            return outcome
    raise AssertionError("unreachable")


def choose(state: Any, rng: random.Random, others: Player | None) -> Any:
    """Chance's outcome, or the action of the seat to decide (at random; ``others`` at every seat but the
    first), at a state that is not over."""
    if state.is_chance_node():
        return pick(state.chance_outcomes(), rng)
    if others is not None and state.current_player() > 0:
        return others.act(state, rng)
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def replay(game: Any, seed: int, others: Player | None) -> list[Any]:
    """The actions and outcomes of a game, nothing checked."""
    rng = random.Random(seed)
    state, applied = game.new_initial_state(), list[Any]()
    while not state.is_terminal():
        applied.append(choose(state, rng, others))
        state.apply_action(applied[-1])
    return applied


def check_state(game: Any, state: Any, thorough: bool) -> None:
    players = game.num_players()
    who = state.current_player()
    assert isinstance(who, int) and (who in (CHANCE, TERMINAL) or 0 <= who < players), who
    assert state.is_terminal() == (who == TERMINAL)
    assert state.is_chance_node() == (who == CHANCE)
    if not thorough:
        return
    if who == CHANCE:
        outcomes = list(state.chance_outcomes())
        assert outcomes, "a chance node without outcomes"
        assert len({outcome for outcome, _ in outcomes}) == len(outcomes), "an outcome twice"
        assert all(weight > 0 for _, weight in outcomes), outcomes
        assert sum(probabilities(outcomes)) == 1
    elif who >= 0:
        legal = list(state.legal_actions())
        assert legal, "a decision without legal actions"
        assert len(set(legal)) == len(legal), f"an action twice: {legal}"
        if getattr(game, "hidden_information", False):  # what the seat knows: a string, the same on a clone
            known = state.information_state(who)
            assert isinstance(known, str) and state.clone().information_state(who) == known
    key = state.key()
    hash(key)
    assert state.key() == key, "the key of one state changed"
    twin = state.clone()
    assert twin is not state and isinstance(twin, State)
    assert twin.key() == key, "a clone's key differs"
    score = [state.score(seat) for seat in range(players)]
    assert all(value is None or isinstance(value, (int, float, Fraction)) for value in score), score
    assert all(isinstance(name, str) and type(count) is int and count >= 0 for name, count in state.events().items())


def check_step(state: Any, action: Any) -> Callable[[], None]:
    """The heavier checks of applying ``action`` to ``state``: call the result once it is applied."""
    key, who = state.key(), state.current_player()
    twin = state.clone()
    twin.apply_action(action)
    assert state.key() == key and state.current_player() == who, "playing on a clone changed the original"

    def after() -> None:
        assert state.key() == twin.key(), "the same action on a state and its clone gave different states"

    return after


def play(game: Any, seed: int, others: Player | None) -> list[Any]:
    """A game, every check made; the actions and outcomes applied."""
    limit = game.max_game_length()
    rng = random.Random(seed)
    state, applied = game.new_initial_state(), list[Any]()
    # The turns that ends_turn counts. A state's ``turns`` counts the turns ended (a rules file's: from 0,
    # and the end of the game ends the turn it is in) or the turn under way (the built-in engines: from 1,
    # and the end adds none): at the end, either is the number of turns played.
    turns = first = state.turns
    assert first in (0, 1)
    while True:
        step = len(applied)
        thorough = step < EVERY_STEP or step % SAMPLE == 0
        check_state(game, state, thorough or state.is_terminal())
        if state.is_terminal():
            break
        assert step < limit, f"the game did not end within max_game_length() = {limit} steps"
        action = choose(state, rng, others)
        if thorough and state.current_player() >= 0:
            assert isinstance(game.action_to_string(state.current_player(), action), str)
        after = check_step(state, action) if thorough else None
        ends = state.ends_turn(action)
        assert type(ends) is bool
        state.apply_action(action)
        applied.append(action)
        if after is not None:
            after()
        turns += (1 - first) if state.is_terminal() else ends
        assert state.turns == turns, f"ends_turn counted {turns} turns, the state {state.turns}"
    returns = state.returns()
    assert len(returns) == game.num_players()
    assert all(isinstance(value, (int, float, Fraction)) and not isinstance(value, bool) for value in returns)
    return applied


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_a_game_keeps_the_contract(case: Case, request: pytest.FixtureRequest) -> None:
    if case.third:
        request.getfixturevalue("third_game")
    game = load(case)
    assert isinstance(game, Game)
    players = game.num_players()
    info = game.info()
    assert isinstance(info, GameInfo) and info.players[0] <= players <= info.players[1]
    assert info.length_unit in LENGTH_UNITS
    policies = game.policies()
    assert info.named_players == tuple(policies) and tuple(policies)[:2] == ("random", "first")
    # a built-in game's player says its whole name ("default" is "until-witch,fairy-first,buy-most")
    assert all(isinstance(player, Player) and isinstance(player.name, str) and player.name for player in policies.values())
    assert [policies[name].name for name in ("random", "first")] == ["random", "first"]
    assert isinstance(game.new_initial_state(), State)
    others = None if case.others is None else policies[case.others]
    for seed in case.seeds:
        assert replay(game, seed, others) == play(game, seed, others), "one seed gave two games"
