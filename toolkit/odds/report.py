"""The questions `toolkit odds` answers, as a JSON-ready dict, readable lines and an optional chart.

Every figure is exact, or simulated and said to be; a game that may never end has no finite expected
length, and is answered so (``expected_turns`` None, with a ``reason``), never with a finite number.
Work that may be long says what it costs: the exact solvers refuse, before starting, chains their
estimate puts over the limit, and a simulation instead of an exact answer is announced through
``note`` before it starts and bounded in total work (``MAX_WORK`` turns).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Callable

from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.games.registry import get as get_game, make_game
from toolkit.odds.draws import draw_odds, parse_pile
from toolkit.odds.hand import hand_odds
from toolkit.seats import Policies, builtin_players
from toolkit.plurals import plural
from toolkit.sim.report import unfinished_lines

# A chart's words in each language it is drawn in (``toolkit odds --plot --lang``, ``plot.in_language``).
PROBABILITY = {"en": "probability", "ru": "вероятность"}
SHARE_OF_GAMES = {"en": "share of games", "ru": "доля партий"}
TURN = {"en": "turn", "ru": "ход"}

if TYPE_CHECKING:
    from toolkit.games.game import Game
    from toolkit.sim.stats import Summary

# Imported by the answers that use them: the chain solvers (and gmpy2 with them) by the models solved
# on a chain, not by the closed formulas (draws); the simulator (and numpy with it) only when
# an answer falls back on it.

# An integer of at most 2,000 bits has at most 603 decimal digits, fewer than the smallest limit Python
# may put on int-to-str conversion (640, sys.set_int_max_str_digits): str() and int() take it.
_SHORT_BITS = 2_000
_SHORT_DIGITS = 600

# Largest chain --export-chain writes: about 500 bytes a state while it is written, 80 in the file.
EXPORT_MAX_STATES = 4_000_000
TURN_LIMIT = 1_000  # a simulated game still going after this many turns is stopped (and said to be)
MAX_WORK = 3_000_000  # turns of all simulated games together, at most (about a minute of play)

Note = Callable[[str, int], None]  # note(text, ticks): say text before work of ``ticks`` progress ticks


@dataclass
class OddsReport:
    data: dict
    lines: list[str]
    chart: dict | None = None  # keyword arguments of plot.bar_chart
    notes: list[str] = field(default_factory=list)
    no_chart: str | None = None  # why there is no chart, when there is none
    chain: tuple[bytes, int] | None = None  # the exact answer's chain in DRN, and its states (export_chain)
    policy: bytes | None = None  # the optimal play as JSON (a rules game's optimal model, export_policy)


def int_text(n: int) -> str:
    """An integer in decimal, however long: exact answers reach thousands of digits (witch=12: about
    5,400), past Python's own limit on int-to-str conversion; gmpy2 has none, and is imported only
    for such a number (a closed-formula answer prints without it)."""
    if n.bit_length() <= _SHORT_BITS:
        return str(n)
    from gmpy2 import mpz

    return mpz(n).digits()


def parse_frac(text: str) -> Fraction:
    """The fraction ``frac`` wrote ("P/Q" or "N"), however long its digits (see ``int_text``)."""
    p, _, q = text.partition("/")
    q = q or "1"
    if len(p) <= _SHORT_DIGITS and len(q) <= _SHORT_DIGITS:
        return Fraction(int(p), int(q))
    from gmpy2 import mpz

    return Fraction(int(mpz(p)), int(mpz(q)))


def frac(value: Fraction) -> str:
    return f"{int_text(value.numerator)}/{int_text(value.denominator)}"


def fraction_text(value: Fraction) -> str:
    """A fraction as ``str`` writes it ("P/Q", or "N" for a whole number), however long its digits."""
    return int_text(value.numerator) if value.denominator == 1 else frac(value)


def both(value: Fraction, digits: int = 6) -> str:
    """A figure as its exact fraction and a decimal."""
    if value.denominator == 1:
        return int_text(value.numerator)
    return f"{frac(value)} = {float(value):.{digits}f}"


@dataclass(frozen=True)
class Ask:
    """The options of one question, whichever model answers it (a model reads those it names)."""

    players: int | None = None
    pile: str | None = None
    policy: Policies | None = None  # the --policy options (toolkit.seats); None: every seat the default
    max_states: int = 100_000
    games: int = 20_000
    seed: int = 1
    progress: Callable[[int], None] | None = None
    note: Note | None = None
    export_chain: bool = False
    hand: int | None = None
    where: tuple[str, ...] = ()
    at_least: int | None = None
    at_most: int | None = None
    exactly: int | None = None


def _one_tick(catalogue: Catalogue, max_states: int) -> int:
    return 1


def state_ticks(catalogue: Catalogue, max_states: int) -> int:
    """The progress ticks of a chain walk: thousands of chance states."""
    return max(1, max_states // 1000)


@dataclass(frozen=True)
class Model:
    """One question ``toolkit odds --model`` answers: the generic ones here (``GENERIC``), a game's own
    in the module its ``Game.odds()`` gives (its ``MODELS``)."""

    # The options it reads (besides --game, --catalogue, --set, --model and --json), by their parameter
    # names; any other, given explicitly, would be ignored, so the command line refuses it.
    options: tuple[str, ...]
    answer: Callable[[Catalogue, Ask], OddsReport]
    chain: bool = False  # answered on a Markov chain, which --export-chain can write out (else a closed formula)
    # progress ticks ``answer`` gives at most before any note, from the catalogue and --max-states
    ticks: Callable[[Catalogue, int], int] = _one_tick


GENERIC = {
    "draws": Model(("pile", "plot_path"), lambda catalogue, ask: draws(catalogue, ask.pile)),
    "hand": Model(("pile", "hand", "where", "at_least", "at_most", "exactly", "plot_path"),
                  lambda catalogue, ask: hand_report(catalogue, ask)),
    "multi": Model(("players", "policy", "max_states", "games", "seed"),
                   lambda catalogue, ask: multi(catalogue, ask),
                   chain=True, ticks=state_ticks),
}


def models(game: Game) -> dict[str, Model]:
    """Every model a game may name in its ``odds_models``: the generic ones and its own."""
    part = game.odds()
    own = part.MODELS if part is not None else {}
    return {**GENERIC, **own}


def __getattr__(name: str):
    if name == "MODEL_OPTIONS":  # the options of every model of the registered games (the command line's)
        from toolkit.games.registry import games

        return {model: spec.options for game in games().values() for model, spec in models(game).items()
                if model in game.odds_models}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def model_of(catalogue: Catalogue, model: str | None) -> str:
    """The model asked for (the game's first when None), or a one-line error."""
    game = get_game(catalogue.game)
    names = game.odds_models
    model = model or names[0]
    if model not in names:
        if game.rules_less and model in __getattr__("MODEL_OPTIONS"):  # a model of a game with rules
            game.require_rules(catalogue, f"the {model} model needs")
        raise UserError(f"--model {model}: {catalogue.game} answers {', '.join(names)}")
    return model


def answer(catalogue: Catalogue, model: str | None, *, players: int | None = None, pile: str | None = None,
           policy: Policies | None = None, max_states: int = 100_000, games: int = 20_000, seed: int = 1,
           progress: Callable[[int], None] | None = None, note: Note | None = None,
           export_chain: bool = False, hand: int | None = None, where: tuple[str, ...] = (),
           at_least: int | None = None, at_most: int | None = None, exactly: int | None = None) -> OddsReport:
    """The answer of ``model``; with ``export_chain``, also the chain it was solved on (``OddsReport.chain``),
    and a one-line error instead of a simulated answer, which has no chain."""
    model = model_of(catalogue, model)
    game = get_game(catalogue.game)
    known = models(game)
    if export_chain and not known[model].chain:
        having = " and ".join(m for m in game.odds_models if known[m].chain)
        raise UserError(f"--export-chain: the {model} model is answered by a formula, not a chain; "
                        f"{having} have a chain to export")
    if not 0 <= seed < 2**63:
        raise UserError(f"--seed {seed}: a seed is a whole number from 0 to 2**63-1")
    if catalogue.total == 0 and not (model in ("draws", "hand") and pile is not None):
        raise UserError(f"{catalogue.source.name}: the deck has no cards (every count is 0): there are no odds "
                        "to give for it")
    return known[model].answer(catalogue, Ask(players, pile, policy, max_states, games, seed, progress, note,
                                              export_chain, hand, tuple(where), at_least, at_most, exactly))


def progress_length(catalogue: Catalogue, model: str | None, max_states: int, games: int) -> int:
    """How many progress ticks ``answer`` gives at most before any ``note`` (e.g. thousands of chance
    states for a chain walk); a note restarts the count."""
    model = model_of(catalogue, model)
    return models(get_game(catalogue.game)).get(model).ticks(catalogue, max_states)


def progress_ceiling(catalogue: Catalogue, model: str | None) -> bool:
    """Whether ``progress_length`` is only the most the answer may take: a model that reads
    --max-states walks a chain up to it, and may end far sooner, or give up and simulate."""
    return "max_states" in models(get_game(catalogue.game))[model_of(catalogue, model)].options


def head(catalogue: Catalogue, model: str) -> dict:
    return {"game": catalogue.game, "model": model, "deck": {c.id: c.count for c in catalogue.cards},
            "total": catalogue.total}


def tell(note: Note | None, text: str, ticks: int) -> None:
    if note is not None:
        note(text, ticks)


def no_chain(why: str) -> UserError:
    """--export-chain with an answer that would be simulated: there is no chain behind it."""
    return UserError(f"--export-chain: exact solving is out of reach ({why}), so the answer would be simulated "
                     "and has no chain to export")


def chain_comments(catalogue: Catalogue, title: str, labels: str) -> list[str]:
    """The comment lines at the top of an exported chain: what it models and how to check it."""
    deck = " ".join(f"{card.id}={card.count}" for card in catalogue.cards)
    return [f"toolkit odds: {catalogue.title['en']}, {title}",
            f"deck ({catalogue.total} cards): {deck}",
            'expected turns (what toolkit odds prints) = R{"turns"}=? [F "end"]; '
            'the chance it never ends = P=? [F "never"]',
            f"labels: {labels}"]


def deck_line(catalogue: Catalogue) -> str:
    kinds: dict[str, int] = {}
    for card in catalogue.cards:
        kinds[card.kind] = kinds.get(card.kind, 0) + card.count
    return f"{catalogue.total} cards (" + ", ".join(f"{n} {kind}" for kind, n in kinds.items()) + ")"


def _mean_line(summary: Summary) -> str:
    from toolkit.sim.stats import Z95

    mean, stderr = summary.mean, summary.stderr
    return f"{mean:.3f} ± {stderr:.3f} (95% interval {mean - Z95 * stderr:.3f} to {mean + Z95 * stderr:.3f})"


def simulated_lines(summary: Summary, asked: int, seed: int, unfinished: tuple[str, ...], length: str,
                     among: str) -> list[str]:
    """How many games were simulated, how many did not end (``unfinished``: the arguments of
    ``unfinished_lines`` after the summary), and the mean ``length`` (of those that ended: ``among``)."""
    lines = [_played_line(summary.games, asked, seed), *unfinished_lines(summary, *unfinished)]
    if summary.mean is not None:
        lines.append(f"  {length}{among if summary.unfinished else ''}: {_mean_line(summary)}")
    return lines


def _played_line(played: int, asked: int, seed: int) -> str:
    if played < asked:
        return (f"simulated (seed {seed}): {played:,} of the {asked:,} games asked for, as a simulation stops once "
                f"its games have played {MAX_WORK:,} turns in all:")
    return f"simulated ({played:,} games, seed {seed}):"


# --- the next draws ---------------------------------------------------------------------------------

def draws(catalogue: Catalogue, pile_text: str | None) -> OddsReport:
    danger = get_game(catalogue.game).danger_kind
    odds = draw_odds(catalogue, parse_pile(catalogue, pile_text), danger)
    data = head(catalogue, "draws")
    data.update({
        "pile": odds.pile,
        "next_card": {k: frac(v) for k, v in odds.next_card.items()},
        "next_kind": {k: frac(v) for k, v in odds.next_kind.items()},
        "danger": danger,
        "survival": [[k, frac(p)] for k, p in enumerate(odds.survival) if k],
    })
    lines = [f"{catalogue.title['en']}: the next card from a pile of {sum(odds.pile.values())}"
             + ("" if pile_text is None else f" ({pile_text})")]
    for kind, p in odds.next_kind.items():
        lines.append(f"  {kind:18s} {both(p)}")
    if danger is None:
        return OddsReport(data, lines, no_chart="the game names no card to draw without: there is no chance of "
                                                "going without it to draw")
    lines.append(f"no {danger} in the next k draws:")
    for k, p in enumerate(odds.survival):
        if k:
            lines.append(f"  k = {k:2d}: {both(p)}")
    ks = [k for k in range(1, len(odds.survival))]
    chart = {"xs": ks, "ys": [float(odds.survival[k]) for k in ks],
             "title": {"en": f"no {danger} in the next k draws",
                       "ru": f"Ни одной карты «{_kind_name(catalogue, danger, 'ru')}» в следующих k картах"},
             "xlabel": "k", "ylabel": PROBABILITY}
    return OddsReport(data, lines, chart)


def hand_report(catalogue: Catalogue, ask: Ask) -> OddsReport:
    if ask.hand is None:
        raise UserError("--hand: say how many cards a hand holds (--model hand --hand N)")
    odds = hand_odds(catalogue, parse_pile(catalogue, ask.pile), ask.hand, ask.where, ask.at_least, ask.at_most,
                     ask.exactly)
    low, high = odds.low, odds.high
    question = (f"exactly {low}" if ask.exactly is not None else f"at least {low}" if high == ask.hand
                else f"at most {high}" if low == 0 else f"{low} to {high}")
    clauses = " and ".join(ask.where)
    data = head(catalogue, "hand")
    data.update({
        "dealt_from": odds.pile,
        "hand": odds.hand,
        "where": list(ask.where),
        "counted": odds.counted,
        "matching": odds.matching,
        "at_least": low,
        "at_most": high,
        "chance": frac(odds.chance),
        "distribution": [[k, frac(p)] for k, p in enumerate(odds.distribution)],
    })
    source = f"a deck of {odds.pile}" if ask.pile is None else f"a pile of {odds.pile} ({ask.pile})"
    lines = [f"{catalogue.title['en']}: a hand of {odds.hand} cards from {source}; {odds.matching} of them "
             f"count ({clauses})",
             f"{question} that count in the hand: {both(odds.chance)}",
             "cards that count in the hand:"]
    lines += [f"  {k:3d}: {both(p)}" for k, p in enumerate(odds.distribution)]
    ks = list(range(len(odds.distribution)))
    in_hand = plural(odds.hand, ("карты", "карт", "карт"), "ru", "the chart")
    chart = {"xs": ks, "ys": [float(p) for p in odds.distribution],
             "title": {"en": f"{clauses} in a hand of {odds.hand}", "ru": f"{clauses}: в руке из {odds.hand} {in_hand}"},
             "xlabel": {"en": "cards in the hand", "ru": "таких карт в руке"}, "ylabel": PROBABILITY}
    return OddsReport(data, lines, chart)


def _kind_name(catalogue: Catalogue, kind: str, lang: str) -> str:
    """The name of the first card of ``kind`` in ``lang`` (a chart's words), else the kind itself."""
    for card in catalogue.cards:
        if card.kind == kind and lang in catalogue.langs:
            return card.name[lang]
    return kind


def never_reason(game, p_never: Fraction, never: str, stuck: str) -> str:
    """Why a game may never end: the deck itself, or how often play reaches a point where ``stuck``."""
    if p_never == 1:
        static = get_game(game.game_id).no_winner_reason(game)
        return f"{never}: {static or f'every game reaches a point where {stuck}'}"
    return f"with probability {both(p_never)} the game reaches a point where {stuck}"


def exact_or_why(game, seats, players: int, max_states: int, done, progress):
    """(the exact answer, None, None), or (None, why not, the state limit passed or None)."""
    from toolkit.odds import engine_chain
    from toolkit.walk import walker

    if not all(getattr(seat, "deterministic", True) for seat in seats):
        return None, "the policy decides at random: only a policy that decides by the state alone has an " \
                     "exact chain", None
    try:
        walked = engine_chain.walk(game.new_initial_state(), seats, max_states, done, progress)
    except walker.TooManyStates as err:
        return None, f"the chain has {err}", err.limit
    return engine_chain.answer(walked, players), None, None


def engine_chain_export(catalogue: Catalogue, walked, done: bool, title: str, done_says: str = "") -> tuple[bytes, int]:
    """The chain behind an exact answer solved on the engine's chain (multi, or a game's own question
    with ``done`` an end: ``done_says`` what it means), in DRN (``drn.engine_drn``)."""
    from toolkit.odds import drn

    labels = ("win1 .. winN and end: that seat won; "
              + (f"done and end: {done_says}; " if done else "")
              + "stalled and never: nobody can win any more; loop and never: the policies decide for ever; "
                "never: no end can be reached (a label is only there when some state has it)")
    return drn.engine_drn(walked, chain_comments(catalogue, title, labels))


def play_until(game, seats, done, rng: random.Random) -> tuple[int, bool | None]:
    """A new game played alone by ``seats`` with ``rng`` until ``done`` or its end: (its turns, whether
    ``done`` holds; None when it passed ``TURN_LIMIT`` turns)."""
    from toolkit.sim.runner import GameDidNotEnd, play

    state = game.new_initial_state()
    try:
        play(state, seats, rng, max_turns=TURN_LIMIT, stop=done)
    except GameDidNotEnd:
        return state.turns, None
    return state.turns, bool(done(state))


def simulate_until(game_id: str, game, seats, done, games: int, seed: int, progress=None, player=None) -> Summary:
    """Play alone until ``done`` or the end, and count the games in a ``Tally``: a game's length is
    the turn ``done`` first held (0 when it never did: it stalled, or was stopped at TURN_LIMIT).

    No new game starts once all games together have played ``MAX_WORK`` turns. ``player``: where a game
    plays its games faster, ``player(rng)`` is a function that plays the next one as ``play_until`` does
    with ``rng`` (the same numbers drawn) and says the same.
    """
    import numpy as np

    from toolkit.sim.simulate import CHUNK, progress_mark
    from toolkit.sim.stats import Tally

    rng = random.Random(seed)
    play_one = player(rng) if player is not None else functools.partial(play_until, game, seats, done, rng)
    tally = Tally(1)
    played = work = reported = 0
    while played < games and work < MAX_WORK:
        turns, stalled = [], []
        while len(turns) < CHUNK and played < games and work < MAX_WORK:
            length, reached = play_one()
            turns.append(length if reached else 0)
            stalled.append(reached is False)  # the game ended first: ``done`` can never hold
            work += length
            played += 1
            if progress:
                mark = progress_mark(played, games, work, MAX_WORK)
                if mark > reported:
                    progress(mark - reported)
                    reported = mark
        lengths = np.array(turns, dtype=np.int64)
        tally.add(lengths, np.where(lengths > 0, 0, -1), {}, np.array(stalled))
    return tally.summary(game=game_id, policies=[seat.name for seat in seats], variants=(), seed=seed,
                         unit="turns", turn_limit=TURN_LIMIT)


# --- two or more players ----------------------------------------------------------------------------

def simulate_turns(game, game_id: str, seats: list, games: int, seed: int, progress=None) -> Summary:
    """The games ``simulate`` plays of ``game`` (the same card orders and batches, each game stopped at
    ``TURN_LIMIT``, none started past ``MAX_WORK`` turns in all), with their lengths counted in turns of
    all seats together, as the exact answer counts them (``simulate`` counts rounds)."""
    import numpy as np

    from toolkit.sim.play import BASE_FIELDS
    from toolkit.sim.records import play_records
    from toolkit.sim.simulate import FAST_FROM, WORK_CHUNK, progress_mark
    from toolkit.sim.stats import Tally

    tally = Tally(len(seats))
    played = work = reported = 0
    while played < games and work < MAX_WORK:
        records = play_records(game, seats, seed, played, min(WORK_CHUNK, games - played), TURN_LIMIT,
                               fast=games >= FAST_FROM)
        before = work + np.cumsum(records["turns"]) - records["turns"]
        keep = int(np.count_nonzero(before < MAX_WORK))  # no game starts past the turn budget
        records = {name: values[:keep] for name, values in records.items()}
        turns = np.where(records["winner"] >= 0, records["turns"], 0)
        counters = {name: values for name, values in records.items() if name not in BASE_FIELDS}
        tally.add(turns, records["winner"], counters, records["stalled"] > 0)
        played += keep
        work += int(records["turns"].sum())
        if progress:
            mark = progress_mark(played, games, work, MAX_WORK)
            if mark > reported:
                progress(mark - reported)
                reported = mark
    return tally.summary(game=game_id, policies=[seat.name for seat in seats], variants=[], seed=seed,
                         unit="turns", turn_limit=TURN_LIMIT)


def simulated_answer(game, game_id: str, seats: list, why: str, limit: int | None, ask: Ask, length: str,
                     key: str) -> tuple[dict, list[str]]:
    """The answer when the chain is out of reach (``why``; ``limit`` the state limit passed): ``ask.games``
    games simulated, said before they start, with the mean ``length`` and each seat's wins as 95%
    intervals; the JSON's ``key`` (the expected length) is None when a game may stall."""
    tell(ask.note, f"exact odds are out of reach ({why}); simulating up to {ask.games:,} games instead "
                   f"(at most {MAX_WORK:,} turns in all)", ask.games)
    summary = simulate_turns(game, game_id, seats, ask.games, ask.seed, ask.progress)
    data: dict = {"exact": False, "states_explored_over": limit, "simulated": summary.as_json()}
    if summary.stalled:  # a game that can stall has no finite expected length, whatever the others did
        data.update({key: None, "reason": f"{summary.stalled:,} of {summary.games:,} simulated games reached a "
                                          "point where nobody can win any more"})
    lines = [f"exact solving is out of reach: {why}"]
    lines += simulated_lines(summary, ask.games, ask.seed, ("nobody can win any more", "were still going"), length,
                             " (of the games that ended)")
    for seat, (rate, (low, high)) in enumerate(zip(summary.win_rate, summary.win_ci), start=1):
        lines.append(f"  seat {seat} wins {100 * rate:.1f}% (95% interval {100 * low:.1f}% to {100 * high:.1f}%)")
    return data, lines


def who_plays(seats) -> str:
    """``every seat NAME``, or each seat's player when they differ."""
    names = [seat.name for seat in seats]
    if len(set(names)) == 1:
        return f"every seat {names[0]}"
    return ", ".join(f"seat {seat} {name}" for seat, name in enumerate(names, start=1))


def multi(catalogue: Catalogue, ask: Ask) -> OddsReport:
    players = ask.players or 2
    if not 2 <= players <= 4:
        raise UserError(f"--players {players}: the multi-player model takes 2 to 4 players")
    game = make_game(catalogue, players)
    seats = builtin_players(catalogue.game, players, ask.policy)
    names = [seat.name for seat in seats]
    data = head(catalogue, "multi")
    # "policy": the one every seat plays (null when they differ), "policies": each seat's
    data.update({"players": players, "policy": names[0] if len(set(names)) == 1 else None, "policies": names})
    lines = [f"{catalogue.title['en']}, {players} players, {who_plays(seats)}"]
    exact, why, limit = exact_or_why(game, seats, players, ask.max_states, None, ask.progress)
    if exact is None and ask.export_chain:
        raise no_chain(why)
    if exact is None:
        more, said = simulated_answer(game, catalogue.game, seats, why, limit, ask,
                                      "expected turns (all seats together)", "expected_turns")
        data.update(more)
        lines += said
        return OddsReport(data, lines, no_chart="the multi model has no distribution to draw")
    turns = exact.expected_length
    data.update({"exact": True, "states": exact.states,
                 "expected_turns": frac(turns) if turns is not None else None,
                 "expected_turns_float": float(turns) if turns is not None else None,
                 "win_probability": [frac(p) for p in exact.win], "p_stalled": frac(exact.p_stalled),
                 "p_never": frac(exact.p_never)})
    lines.append(f"exact, {exact.states:,} chance states")
    if turns is None:
        data["reason"] = never_reason(game, exact.p_never, "the game can never be finished", "nobody can win any more")
        lines.append(f"expected turns: infinite: {data['reason']}")
    else:
        lines.append(f"expected turns (all seats together): {both(turns)}")
    for seat, p in enumerate(exact.win, start=1):
        lines.append(f"  seat {seat} wins: {both(p)}")
    if exact.p_never:
        lines.append(f"  the game never ends (no winner): {both(exact.p_never)}")
    chain = engine_chain_export(catalogue, exact.walked, False, f"{players} players, {who_plays(seats)}, "
                                "one chance point of the rules engine a step") if ask.export_chain else None
    return OddsReport(data, lines, no_chart="the multi model has no distribution to draw", chain=chain)
