"""The questions `toolkit odds` answers, as a JSON-ready dict, readable lines and an optional chart.

Every figure is exact, or simulated and said to be; a game that may never end has no finite expected
length, and is answered so (``expected_turns`` None, with a ``reason``), never with a finite number.
Work that may be long says what it costs: the exact solvers refuse, before starting, chains their
estimate puts over the limit, and a simulation instead of an exact answer is announced through
``note`` before it starts and bounded in total work (``MAX_WORK`` turns).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Callable

from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.games.registry import get as get_game, make_game, policy_module
from toolkit.odds.draws import draw_odds, parse_pile
from toolkit.games.palaces.opening import opening_odds
from toolkit.sim.report import unfinished_lines

if TYPE_CHECKING:
    from toolkit.odds import engine_chain
    from toolkit.games.diamoniak import solo as diamoniak_solo
    from toolkit.sim.stats import Summary

# Imported by the answers that use them: the chain solvers (and gmpy2 with them) by the models solved
# on a chain, not by the closed formulas (draws, opening); the simulator (and numpy with it) only when
# an answer falls back on it.

# An integer of at most 2,000 bits has at most 603 decimal digits, fewer than the smallest limit Python
# may put on int-to-str conversion (640, sys.set_int_max_str_digits): str() and int() take it.
_SHORT_BITS = 2_000
_SHORT_DIGITS = 600

# The options each model reads (besides --game, --catalogue, --set, --model and --json), by their
# parameter names; any other, given explicitly, would be ignored, so the command line refuses it.
MODEL_OPTIONS = {
    "solo": ("games", "seed", "plot_path"),
    "draws": ("pile", "plot_path"),
    "opening": (),
    # no chart: an exact first-palace answer has no distribution, and which answer comes is known late
    "first-palace": ("policy", "max_states", "games", "seed"),
    "multi": ("players", "policy", "max_states", "games", "seed"),
}
# The models answered on a Markov chain, which --export-chain can write out (the others are closed formulas).
CHAIN_MODELS = ("solo", "first-palace", "multi")
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


def both(value: Fraction, digits: int = 6) -> str:
    """A figure as its exact fraction and a decimal."""
    if value.denominator == 1:
        return int_text(value.numerator)
    return f"{frac(value)} = {float(value):.{digits}f}"


def model_of(catalogue: Catalogue, model: str | None) -> str:
    """The model asked for (the game's first when None), or a one-line error."""
    models = get_game(catalogue.game).odds_models
    model = model or models[0]
    if model not in models:
        raise UserError(f"--model {model}: {catalogue.game} answers {', '.join(models)}")
    return model


def answer(catalogue: Catalogue, model: str | None, *, players: int | None = None, pile: str | None = None,
           policy: str = "default", max_states: int = 100_000, games: int = 20_000, seed: int = 1,
           progress: Callable[[int], None] | None = None, note: Note | None = None,
           export_chain: bool = False) -> OddsReport:
    """The answer of ``model``; with ``export_chain``, also the chain it was solved on (``OddsReport.chain``),
    and a one-line error instead of a simulated answer, which has no chain."""
    model = model_of(catalogue, model)
    if export_chain and model not in CHAIN_MODELS:
        having = " and ".join(m for m in get_game(catalogue.game).odds_models if m in CHAIN_MODELS)
        raise UserError(f"--export-chain: the {model} model is answered by a formula, not a chain; "
                        f"{having} have a chain to export")
    if not 0 <= seed < 2**63:
        raise UserError(f"--seed {seed}: a seed is a whole number from 0 to 2**63-1")
    if catalogue.total == 0 and not (model == "draws" and pile is not None):
        raise UserError(f"{catalogue.source.name}: the deck has no cards (every count is 0): there are no odds "
                        "to give for it")
    if model == "solo":
        return solo(catalogue, games, seed, progress, note, export_chain)
    if model == "draws":
        return draws(catalogue, pile)
    if model == "opening":
        return opening(catalogue)
    if model == "first-palace":
        return first_palace(catalogue, policy, max_states, games, seed, progress, note, export_chain)
    return multi(catalogue, players or 2, policy, max_states, games, seed, progress, note, export_chain)


def progress_length(catalogue: Catalogue, model: str | None, max_states: int, games: int) -> int:
    """How many progress ticks ``answer`` gives at most before any ``note``: pile sizes of the
    solo sweeps, thousands of chance states (first-palace, multi); a note restarts the count."""
    model = model_of(catalogue, model)
    if model == "solo":
        from toolkit.games.diamoniak import solo as diamoniak_solo

        return diamoniak_solo.progress_ticks(diamoniak_solo.SoloDeck.from_catalogue(catalogue))
    if model in ("first-palace", "multi"):
        return max(1, max_states // 1000)
    return 1


def _head(catalogue: Catalogue, model: str) -> dict:
    return {"game": catalogue.game, "model": model, "deck": {c.id: c.count for c in catalogue.cards},
            "total": catalogue.total}


def _tell(note: Note | None, text: str, ticks: int) -> None:
    if note is not None:
        note(text, ticks)


def _no_chain(why: str) -> UserError:
    """--export-chain with an answer that would be simulated: there is no chain behind it."""
    return UserError(f"--export-chain: exact solving is out of reach ({why}), so the answer would be simulated "
                     "and has no chain to export")


def _chain_comments(catalogue: Catalogue, title: str, labels: str) -> list[str]:
    """The comment lines at the top of an exported chain: what it models and how to check it."""
    deck = " ".join(f"{card.id}={card.count}" for card in catalogue.cards)
    return [f"toolkit odds: {catalogue.title['en']}, {title}",
            f"deck ({catalogue.total} cards): {deck}",
            'expected turns (what toolkit odds prints) = R{"turns"}=? [F "end"]; '
            'the chance it never ends = P=? [F "never"]',
            f"labels: {labels}"]


# --- Diamoniak alone --------------------------------------------------------------------------------

def _solo_never(deck: diamoniak_solo.SoloDeck, never: Fraction) -> str:
    """Why a solo castle may never be finished (``never`` > 0), in one sentence."""
    if deck.castle_total == 0:
        return "the deck has no castle cards, so the castle can never be finished"
    small = ", ".join(f"{colour} ({n})" for colour, n in deck.doomed_colours())
    if never == 1:
        return f"no colour has the {deck.size} castle cards a castle needs ({small}), so it can never be finished"
    return (f"with probability {both(never)} the first castle card is a colour with fewer than {deck.size} "
            f"cards ({small}), and that castle can never be finished")


def _p_doomed(deck: diamoniak_solo.SoloDeck) -> Fraction:
    """P(the first castle card's colour has too few cards), exact: that colour is the castle's for good."""
    if deck.castle_total == 0:
        return Fraction(1)
    return Fraction(sum(n for _, n in deck.doomed_colours()), deck.castle_total)


def solo(catalogue: Catalogue, games: int = 20_000, seed: int = 1, progress=None, note: Note | None = None,
         export_chain: bool = False) -> OddsReport:
    from toolkit.odds import engine_chain
    from toolkit.games.diamoniak import solo as diamoniak_solo

    deck = diamoniak_solo.SoloDeck.from_catalogue(catalogue)
    try:
        odds = diamoniak_solo.solo_odds(deck, progress=progress, note=note)
    except engine_chain.TooManyStates as err:
        if export_chain:
            raise _no_chain(f"the chain has {err}") from None
        return _solo_simulated(catalogue, deck, err, games, seed, progress, note)
    report = _solo_exact(catalogue, deck, odds)
    if export_chain:
        report.chain = _solo_chain(catalogue, deck)
    return report


def _solo_chain(catalogue: Catalogue, deck: diamoniak_solo.SoloDeck) -> tuple[bytes, int]:
    """The draw-by-draw chain behind an exact solo answer, in DRN (``drn.solo_drn``), which the solver
    itself never stores: it is walked here, up to ``EXPORT_MAX_STATES`` states."""
    from toolkit.odds import drn

    comments = _chain_comments(catalogue, "solo: one draw a step (the turns are 1 + the witches drawn)",
                               "won and end: the castle is complete; never: it can never be; reshuffle: the "
                               'pile is empty, the next draw reshuffles (P=? [F "reshuffle" | "never"] is the '
                               "chance of a reshuffle); a label is only there when some state has it")
    try:
        return drn.solo_drn(deck, comments, max_states=EXPORT_MAX_STATES)
    except drn.ChainTooLarge as err:
        raise UserError(f"--export-chain: the chain has {err}, the most a file is written for") from None


def _solo_exact(catalogue: Catalogue, deck: diamoniak_solo.SoloDeck, odds: diamoniak_solo.SoloOdds) -> OddsReport:
    expected = odds.expected_turns
    method = ("forward passes pile by pile" if not odds.piles else
              f"forward passes pile by pile, {odds.piles} pile starts chained and solved exactly")
    data = _head(catalogue, "solo")
    data.update({
        "expected_turns": frac(expected) if expected is not None else None,
        "expected_turns_float": float(expected) if expected is not None else None,
        "turns_distribution": [[t, frac(p)] for t, p in enumerate(odds.p) if t and p],
        "distribution_tail": frac(odds.tail),
        "pile_starts": odds.piles,
        "p_reshuffle": frac(odds.p_reshuffle),
        "p_reshuffle_float": float(odds.p_reshuffle),
        "p_never": frac(odds.never),
        "states": odds.states,
        "method": method,
        "exact": True,
    })
    lines = [f"{catalogue.title['en']}, solo: one player draws until a witch ends each turn",
             f"deck: {_deck_line(catalogue)}; a castle of {deck.size}",
             f"chain: {odds.states:,} states ({method})"]
    if expected is None:
        data["reason"] = _solo_never(deck, odds.never)
        lines.append(f"expected turns: infinite: {data['reason']}")
    else:
        lines.append(f"expected turns to finish the castle: {both(expected)}")
    lines.append(f"probability of a reshuffle: {both(odds.p_reshuffle)}")
    if odds.never:
        lines.append(f"probability the castle can never be completed: {both(odds.never)}")
    if not any(odds.p):
        return OddsReport(data, lines, no_chart="the castle is never finished: there is no distribution to draw")
    lines.append("")
    lines.append(" turn   P(finish on this turn)   cumulative   exact")
    cumulative, shown = Fraction(0), 0
    for t, p in enumerate(odds.p):
        if not t or not p:
            continue
        cumulative += p
        shown = t
        lines.append(f"{t:5d}   {float(p):22.6f}   {float(cumulative):10.6f}   {frac(p)}")
        if 1 - cumulative - odds.never < Fraction(1, 10**6):
            break  # the rest is in the JSON; the table stops at 1 in a million
    rest = 1 - cumulative - odds.never
    if rest:
        lines.append(f"later than turn {shown}: {float(rest):.3g} (exactly {frac(rest)})")
    xs = [t for t in range(1, shown + 1)]
    chart = {"xs": xs, "ys": [float(odds.p[t]) for t in xs], "title": f"{catalogue.title['en']} alone: turns to build the castle",
             "xlabel": "turn", "ylabel": "probability"}
    return OddsReport(data, lines, chart)


def _solo_simulated(catalogue: Catalogue, deck: diamoniak_solo.SoloDeck, err: engine_chain.TooManyStates,
                    games: int, seed: int, progress=None, note: Note | None = None) -> OddsReport:
    """The solo figures from the simulator, when the exact chain is out of reach."""
    _tell(note, f"exact solo odds are out of reach (the chain has {err}); simulating {games:,} games instead",
          games)
    from toolkit.sim.simulate import simulate

    summary = simulate(catalogue, players=1, games=games, seed=seed, progress=progress, max_turns=TURN_LIMIT,
                       max_work=MAX_WORK)
    never = _p_doomed(deck)
    played = summary.games
    finished = played - summary.unfinished
    complete = not summary.unfinished  # else the mean of the games that finished is no expected value
    # A game that can never end surely runs through its pile; the simulator stops it when its colour
    # is fixed, in the first pile, so it is not counted among the reshuffled games yet.
    reshuffled = summary.counts["reshuffles"] + summary.stalled
    data = _head(catalogue, "solo")
    data.update({
        "exact": False,
        "states_explored_over": err.limit,
        "state_estimate": err.estimate,
        "simulated_games": played,
        "seed": seed,
        "expected_turns": None,
        "expected_turns_float": summary.mean if complete else None,
        "stderr_turns": summary.stderr if complete else None,
        "mean_turns_finished": summary.mean,
        "stderr_turns_finished": summary.stderr,
        "turns_distribution": [[t, frac(Fraction(n, played))] for t, n in enumerate(summary.lengths) if t and n],
        "p_reshuffle": frac(Fraction(reshuffled, played)),
        "p_reshuffle_float": reshuffled / played,
        "p_never": frac(never),
        "unfinished_games": summary.unfinished,
        "stalled_games": summary.stalled,
        "turn_limit": TURN_LIMIT,
    })
    lines = [f"{catalogue.title['en']}, solo: one player draws until a witch ends each turn",
             f"deck: {_deck_line(catalogue)}",
             f"exact solving is out of reach: the chain has {err}"]
    if never:
        data["reason"] = _solo_never(deck, never)
        lines.append(f"expected turns: infinite: {data['reason']} (exact)")
    lines += _simulated_lines(summary, games, seed, ("a castle can no longer be finished", "had not finished a castle"),
                              "turns to finish the castle", " (of those that did)")
    lines.append(f"  a reshuffle in {100 * reshuffled / played:.2f}% of games")
    xs = [t for t in range(1, len(summary.lengths)) if summary.lengths[t]]
    chart = {"xs": xs, "ys": [summary.lengths[t] / played for t in xs], "title": "turns to build the castle (simulated)",
             "xlabel": "turn", "ylabel": "share of games"}
    no_chart = None if finished else "no simulated game finished a castle: there is no distribution to draw"
    return OddsReport(data, lines, chart if finished else None, no_chart=no_chart)


def _deck_line(catalogue: Catalogue) -> str:
    kinds: dict[str, int] = {}
    for card in catalogue.cards:
        kinds[card.kind] = kinds.get(card.kind, 0) + card.count
    return f"{catalogue.total} cards (" + ", ".join(f"{n} {kind}" for kind, n in kinds.items()) + ")"


def _mean_line(summary: Summary) -> str:
    from toolkit.sim.stats import Z95

    mean, stderr = summary.mean, summary.stderr
    return f"{mean:.3f} ± {stderr:.3f} (95% interval {mean - Z95 * stderr:.3f} to {mean + Z95 * stderr:.3f})"


def _simulated_lines(summary: Summary, asked: int, seed: int, unfinished: tuple[str, ...], length: str,
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
    danger = "witch" if catalogue.game == "diamoniak" else "flood"
    odds = draw_odds(catalogue, parse_pile(catalogue, pile_text), danger)
    data = _head(catalogue, "draws")
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
    lines.append(f"no {danger} in the next k draws:")
    for k, p in enumerate(odds.survival):
        if k:
            lines.append(f"  k = {k:2d}: {both(p)}")
    ks = [k for k in range(1, len(odds.survival))]
    chart = {"xs": ks, "ys": [float(odds.survival[k]) for k in ks], "title": f"no {danger} in the next k draws",
             "xlabel": "k", "ylabel": "probability"}
    return OddsReport(data, lines, chart)


# --- Palaces: the opening hand and the first palace -------------------------------------------------

def opening(catalogue: Catalogue) -> OddsReport:
    odds = opening_odds(catalogue)
    data = _head(catalogue, "opening")
    figures = {
        "p_foundation": (odds.p_foundation, "at least one foundation"),
        "p_palace_kinds": (odds.p_palace_kinds, "a foundation, a floor and a roof of one colour"),
        "p_palace_kinds_with_tower": (odds.p_palace_kinds_with_tower,
                                      "the same, or a tower in place of the floor"),
        "p_tower": (odds.p_tower, "at least one tower"),
    }
    data.update({key: frac(value) for key, (value, _) in figures.items()})
    data.update({key + "_float": float(value) for key, (value, _) in figures.items()})
    data["hands"] = odds.hands
    lines = [f"{catalogue.title['en']}: an opening hand of {odds.hand_size} from {catalogue.total} cards "
             f"({odds.hands:,} kinds of hand)"]
    lines += [f"  {label}: {both(value)}" for value, label in figures.values()]
    return OddsReport(data, lines, no_chart="the opening model has no distribution to draw")


def _never_reason(game, p_never: Fraction, never: str, stuck: str) -> str:
    """Why a game may never end: the deck itself, or how often play reaches a point where ``stuck``."""
    if p_never == 1:
        return f"{never}: {_static_reason(game) or f'every game reaches a point where {stuck}'}"
    return f"with probability {both(p_never)} the game reaches a point where {stuck}"


def _static_reason(game) -> str | None:
    """What in the deck itself makes every game end without a winner, if anything."""
    if hasattr(game, "completable"):  # Palaces
        if not game.completable:
            return "no colour has a foundation, a roof, and a floor or a tower"
        return None
    colours = {c for c, k in zip(game.colours, game.kinds) if k == "castle"}
    if not any(game.colour_total(c) >= game.castle_size for c in colours):
        return f"no colour has the {game.castle_size} castle cards a castle needs"
    return None


def first_palace(catalogue: Catalogue, policy: str, max_states: int, games: int, seed: int,
                 progress=None, note: Note | None = None, export_chain: bool = False) -> OddsReport:
    seats = [policy_module(catalogue.game).parse(policy)]
    game = make_game(catalogue, 1)

    from toolkit.games.palaces.engine import first_palace_complete as done

    data = _head(catalogue, "first-palace")
    data["policy"] = seats[0].name
    lines = [f"{catalogue.title['en']}, alone: turns until a first palace is complete ({seats[0].name})"]
    exact, why, limit = _exact_or_why(game, seats, 1, max_states, done, progress)
    if exact is None and export_chain:
        raise _no_chain(why)
    if exact is None:
        _tell(note, f"exact odds are out of reach ({why}); simulating up to {games:,} games instead "
                    f"(at most {MAX_WORK:,} turns in all)", games)
        return _first_palace_simulated(game, seats, done, games, seed, progress, data, lines, why, limit)
    data.update({"exact": True, "states": exact.states, "p_never": frac(exact.p_never)})
    if exact.expected_turns is None:
        data["reason"] = _never_reason(game, exact.p_never, "a first palace can never be completed",
                                       "no palace can be completed any more")
        data.update({"expected_turns": None, "expected_turns_float": None})
        lines.append(f"exact, {exact.states:,} chance states: expected turns infinite: {data['reason']}")
    else:
        data.update({"expected_turns": frac(exact.expected_turns), "expected_turns_float": float(exact.expected_turns)})
        lines.append(f"exact, {exact.states:,} chance states: {both(exact.expected_turns)} turns")
    chain = _engine_chain(catalogue, game, seats, max_states, done, "alone, until a first palace is complete "
                          f"({seats[0].name}), one chance point of the rules engine a step") if export_chain else None
    return OddsReport(data, lines, no_chart="the exact first-palace answer has no distribution to draw "
                                            "(only a simulated one has)", chain=chain)


def _exact_or_why(game, seats, players: int, max_states: int, done, progress):
    """(the exact answer, None, None), or (None, why not, the state limit passed or None)."""
    from toolkit.odds import engine_chain

    if not all(getattr(seat, "deterministic", True) for seat in seats):
        return None, "the policy decides at random: only a policy that decides by the state alone has an " \
                     "exact chain", None
    try:
        return engine_chain.solve(game.new_initial_state(), seats, players, max_states, done, progress), None, None
    except engine_chain.TooManyStates as err:
        return None, f"the chain has {err}", err.limit


def _engine_chain(catalogue: Catalogue, game, seats, max_states: int, done, title: str) -> tuple[bytes, int]:
    """The chain behind an exact first-palace or multi answer, in DRN: ``engine_chain.build`` walks the
    engine again (``solve`` keeps no chain), with the same limit, and ``drn.engine_drn`` writes it."""
    from toolkit.odds import drn, engine_chain

    start = game.new_initial_state()
    transitions, start_key, turn_reward = engine_chain.build(start, seats, max_states, done)
    # the turn counter where the chain starts: ``solve`` counts the turns from there
    first_turns = engine_chain._advance(start.clone(), seats).turns if start_key != engine_chain.LOOP else 0
    labels = ("win1 .. winN and end: that seat won; "
              + ("done and end: a first palace is complete; " if done is not None else "")
              + "stalled and never: nobody can win any more; loop and never: the policies decide for ever; "
                "never: no end can be reached (a label is only there when some state has it)")
    return drn.engine_drn(transitions, start_key, turn_reward, first_turns,
                          _chain_comments(catalogue, title, labels))


def _first_palace_simulated(game, seats, done, games: int, seed: int, progress, data: dict, lines: list[str],
                            why: str, limit: int | None) -> OddsReport:
    summary = _simulate_until(data["game"], game, seats, done, games, seed, progress)
    complete = not summary.unfinished
    data.update({"exact": False, "states_explored_over": limit, "simulated_games": summary.games, "seed": seed,
                 "mean_turns": summary.mean if complete else None,
                 "stderr_turns": summary.stderr if complete else None,
                 "mean_turns_finished": summary.mean, "stderr_turns_finished": summary.stderr,
                 "stalled_games": summary.stalled, "unfinished_games": summary.unfinished, "turn_limit": TURN_LIMIT,
                 "expected_turns": None, "expected_turns_float": summary.mean if complete else None})
    lines.append(f"exact solving is out of reach: {why}")
    lines += _simulated_lines(summary, games, seed, ("no palace can be completed any more", "had no palace",
                                                     "number of turns"),
                              "turns to a first palace", " (of those that finished one)")
    if summary.mean is None:
        return OddsReport(data, lines, no_chart="no simulated game completed a palace: there is no distribution to draw")
    finished = sum(summary.lengths)
    xs = [t for t in range(1, len(summary.lengths)) if summary.lengths[t]]
    chart = {"xs": xs, "ys": [summary.lengths[t] / finished for t in xs], "title": "turns to a first palace (simulated)",
             "xlabel": "turn", "ylabel": "share of games"}
    return OddsReport(data, lines, chart)


def _simulate_until(game_id: str, game, seats, done, games: int, seed: int, progress=None) -> Summary:
    """Play alone until ``done`` or the end, and count the games in a ``Tally``: a game's length is
    the turn ``done`` first held (0 when it never did: it stalled, or was stopped at TURN_LIMIT).

    No new game starts once all games together have played ``MAX_WORK`` turns.
    """
    import numpy as np

    from toolkit.sim.runner import GameDidNotEnd, play
    from toolkit.sim.simulate import CHUNK, progress_mark
    from toolkit.sim.stats import Tally

    rng = random.Random(seed)
    tally = Tally(1)
    played = work = reported = 0
    while played < games and work < MAX_WORK:
        turns, stalled = [], []
        while len(turns) < CHUNK and played < games and work < MAX_WORK:
            state = game.new_initial_state()
            try:
                play(state, seats, rng, max_turns=TURN_LIMIT, stop=done)
            except GameDidNotEnd:
                turns.append(0)
                stalled.append(False)
            else:
                reached = done(state)  # if not, the game ended without a first palace: it can never have one
                turns.append(state.turns if reached else 0)
                stalled.append(not reached)
            work += state.turns
            played += 1
            if progress:
                mark = progress_mark(played, games, work, MAX_WORK)
                if mark > reported:
                    progress(mark - reported)
                    reported = mark
        lengths = np.array(turns, dtype=np.int64)
        tally.add(lengths, np.where(lengths > 0, 0, -1), {}, np.array(stalled))
    return tally.summary(game=game_id, policies=[seat.name for seat in seats], variants=(), seed=seed,
                         turn_limit=TURN_LIMIT)


# --- two or more players ----------------------------------------------------------------------------

def multi(catalogue: Catalogue, players: int, policy: str, max_states: int, games: int, seed: int,
          progress=None, note: Note | None = None, export_chain: bool = False) -> OddsReport:
    if not 2 <= players <= 4:
        raise UserError(f"--players {players}: the multi-player model takes 2 to 4 players")
    game = make_game(catalogue, players)
    seats = [policy_module(catalogue.game).parse(policy)] * players
    data = _head(catalogue, "multi")
    data.update({"players": players, "policy": seats[0].name})
    lines = [f"{catalogue.title['en']}, {players} players, every seat {seats[0].name}"]
    exact, why, limit = _exact_or_why(game, seats, players, max_states, None, progress)
    if exact is None and export_chain:
        raise _no_chain(why)
    if exact is None:
        _tell(note, f"exact odds are out of reach ({why}); simulating up to {games:,} games instead "
                    f"(at most {MAX_WORK:,} turns in all)", games)
        from toolkit.sim.simulate import simulate

        summary = simulate(catalogue, players=players, games=games, seed=seed,
                           policies={s + 1: policy for s in range(players)}, progress=progress,
                           max_turns=TURN_LIMIT, max_work=MAX_WORK)
        data.update({"exact": False, "states_explored_over": limit, "simulated": summary.as_json()})
        if summary.stalled:  # a game that can stall has no finite expected length, whatever the others did
            data.update({"expected_turns": None,
                         "reason": f"{summary.stalled:,} of {summary.games:,} simulated games reached a point "
                                   "where nobody can win any more"})
        lines.append(f"exact solving is out of reach: {why}")
        lines += _simulated_lines(summary, games, seed, ("nobody can win any more", "were still going"),
                                  "game length in rounds", " (of the games that ended)")
        for seat, (rate, (low, high)) in enumerate(zip(summary.win_rate, summary.win_ci), start=1):
            lines.append(f"  seat {seat} wins {100 * rate:.1f}% (95% interval {100 * low:.1f}% to {100 * high:.1f}%)")
        return OddsReport(data, lines, no_chart="the multi model has no distribution to draw")
    data.update({"exact": True, "states": exact.states,
                 "expected_turns": frac(exact.expected_turns) if exact.expected_turns is not None else None,
                 "expected_turns_float": float(exact.expected_turns) if exact.expected_turns is not None else None,
                 "win_probability": [frac(p) for p in exact.win_probability], "p_stalled": frac(exact.p_stalled),
                 "p_never": frac(exact.p_never)})
    lines.append(f"exact, {exact.states:,} chance states")
    if exact.expected_turns is None:
        data["reason"] = _never_reason(game, exact.p_never, "the game can never be finished", "nobody can win any more")
        lines.append(f"expected turns: infinite: {data['reason']}")
    else:
        lines.append(f"expected turns (all seats together): {both(exact.expected_turns)}")
    for seat, p in enumerate(exact.win_probability, start=1):
        lines.append(f"  seat {seat} wins: {both(p)}")
    if exact.p_never:
        lines.append(f"  the game never ends (no winner): {both(exact.p_never)}")
    chain = _engine_chain(catalogue, game, seats, max_states, None, f"{players} players, every seat {seats[0].name}, "
                          "one chance point of the rules engine a step") if export_chain else None
    return OddsReport(data, lines, no_chart="the multi model has no distribution to draw", chain=chain)
