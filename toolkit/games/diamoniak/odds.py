"""Diamoniak's own odds model: one player alone, drawing until a witch ends each turn (``solo``).

``toolkit.odds.report`` reaches it through ``MODELS`` (``Game.odds()``); the exact answer comes
from the solo solver (``toolkit.games.diamoniak.solo``), or from the simulator when the chain is out of
reach, and ``--export-chain`` writes the solver's draw-by-draw chain (``solo_drn``).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING

from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.odds import report
from toolkit.odds.report import (Model, Note, OddsReport, both, chain_comments, deck_line, frac, head, no_chain,
                                 simulated_lines, tell)

if TYPE_CHECKING:
    from toolkit.games.diamoniak import solo as diamoniak_solo
    from toolkit.walk import walker


def _ticks(catalogue: Catalogue, max_states: int) -> int:
    """The progress ticks of the solo solver: the pile sizes of its sweeps."""
    from toolkit.games.diamoniak import solo as diamoniak_solo

    return diamoniak_solo.progress_ticks(diamoniak_solo.SoloDeck.from_catalogue(catalogue))


MODELS = {
    "solo": Model(("games", "seed", "plot_path"),
                  lambda catalogue, ask: solo(catalogue, ask.games, ask.seed, ask.progress, ask.note, ask.export_chain),
                  chain=True, ticks=_ticks),
}


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
    from toolkit.games.diamoniak import solo as diamoniak_solo
    from toolkit.walk import walker

    deck = diamoniak_solo.SoloDeck.from_catalogue(catalogue)
    try:
        odds = diamoniak_solo.solo_odds(deck, progress=progress, note=note)
    except walker.TooManyStates as err:
        if export_chain:
            raise no_chain(f"the chain has {err}") from None
        return _solo_simulated(catalogue, deck, err, games, seed, progress, note)
    exact = _solo_exact(catalogue, deck, odds)
    if export_chain:
        exact.chain = _solo_chain(catalogue, deck)
    return exact


def _solo_chain(catalogue: Catalogue, deck: diamoniak_solo.SoloDeck) -> tuple[bytes, int]:
    """The draw-by-draw chain behind an exact solo answer, in DRN (``solo_drn``), which the solver
    itself never stores: it is walked here, up to ``EXPORT_MAX_STATES`` states."""
    from toolkit.odds import drn

    comments = chain_comments(catalogue, "solo: one draw a step (the turns are 1 + the witches drawn)",
                              "won and end: the castle is complete; never: it can never be; reshuffle: the "
                              'pile is empty, the next draw reshuffles (P=? [F "reshuffle" | "never"] is the '
                              "chance of a reshuffle); a label is only there when some state has it")
    try:
        return solo_drn(deck, comments, max_states=report.EXPORT_MAX_STATES)
    except drn.ChainTooLarge as err:
        raise UserError(f"--export-chain: the chain has {err}, the most a file is written for") from None


def _solo_exact(catalogue: Catalogue, deck: diamoniak_solo.SoloDeck, odds: diamoniak_solo.SoloOdds) -> OddsReport:
    expected = odds.expected_turns
    method = ("forward passes pile by pile" if not odds.piles else
              f"forward passes pile by pile, {odds.piles} pile starts chained and solved exactly")
    data = head(catalogue, "solo")
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
             f"deck: {deck_line(catalogue)}; a castle of {deck.size}",
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
    title = {lang: catalogue.title[lang] for lang in ("en", "ru") if lang in catalogue.langs}
    chart = {"xs": xs, "ys": [float(odds.p[t]) for t in xs],
             "title": {"en": f"{title.get('en', catalogue.title[catalogue.langs[0]])} alone: turns to build the castle",
                       "ru": f"{title.get('ru', catalogue.title[catalogue.langs[0]])} в одиночку: ходы до готового замка"},
             "xlabel": report.TURN, "ylabel": report.PROBABILITY}
    return OddsReport(data, lines, chart)


def _solo_simulated(catalogue: Catalogue, deck: diamoniak_solo.SoloDeck, err: walker.TooManyStates,
                    games: int, seed: int, progress=None, note: Note | None = None) -> OddsReport:
    """The solo figures from the simulator, when the exact chain is out of reach."""
    tell(note, f"exact solo odds are out of reach (the chain has {err}); simulating {games:,} games instead",
         games)
    from toolkit.sim.simulate import simulate

    summary = simulate(catalogue, players=1, games=games, seed=seed, progress=progress, max_turns=report.TURN_LIMIT,
                       max_work=report.MAX_WORK)
    never = _p_doomed(deck)
    played = summary.games
    finished = played - summary.unfinished
    complete = not summary.unfinished  # else the mean of the games that finished is no expected value
    # A game that can never end surely runs through its pile; the simulator stops it when its colour
    # is fixed, in the first pile, so it is not counted among the reshuffled games yet.
    reshuffled = summary.counts["reshuffles"] + summary.stalled
    data = head(catalogue, "solo")
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
        "turn_limit": report.TURN_LIMIT,
    })
    lines = [f"{catalogue.title['en']}, solo: one player draws until a witch ends each turn",
             f"deck: {deck_line(catalogue)}",
             f"exact solving is out of reach: the chain has {err}"]
    if never:
        data["reason"] = _solo_never(deck, never)
        lines.append(f"expected turns: infinite: {data['reason']} (exact)")
    lines += simulated_lines(summary, games, seed, ("a castle can no longer be finished", "had not finished a castle"),
                             "turns to finish the castle", " (of those that did)")
    lines.append(f"  a reshuffle in {100 * reshuffled / played:.2f}% of games")
    xs = [t for t in range(1, len(summary.lengths)) if summary.lengths[t]]
    chart = {"xs": xs, "ys": [summary.lengths[t] / played for t in xs], "title": {"en": "turns to build the castle (simulated)", "ru": "ходы до готового замка (симуляция)"},
             "xlabel": report.TURN, "ylabel": report.SHARE_OF_GAMES}
    no_chart = None if finished else "no simulated game finished a castle: there is no distribution to draw"
    return OddsReport(data, lines, chart if finished else None, no_chart=no_chart)


def solo_drn(deck: diamoniak_solo.SoloDeck, comments: Iterable[str] = (), max_states: int | None = None) -> tuple[bytes, int]:
    """The solo draw-by-draw chain (``diamoniak_solo.moves``: one draw a step) as DRN.

    Its reward is the chance that the draw is a witch, so its expected total is the witches drawn
    before the castle is complete, and the turns are 1 more (collected at the start). Labels: ``won``
    and ``end`` on the finished castle, ``never`` on a game that cannot end (its colour is too small,
    or a deck with no castle cards runs out), ``reshuffle`` on each state whose pile is empty (the
    next draw reshuffles the discard): ``P=? [F "reshuffle" | "never"]`` is the chance of a reshuffle.
    """
    from toolkit.games.diamoniak.solo_model import DOOMED, WON, moves, pile_size
    from toolkit.odds.drn import write_drn

    def step(state):
        if state == WON or state == DOOMED:
            return (), 0
        pairs, witches, total = [], 0, 0
        for weight, after, is_witch in moves(deck, state):
            pairs.append((weight, after))
            total += weight
            if is_witch:
                witches += weight
        # no moves: an empty pile with nothing to reshuffle, the game stops here unfinished
        return (pairs, (witches, total)) if pairs else ((), 0)

    def labels(state):
        if state == WON:
            return ("won", "end")
        if state == DOOMED:
            return ("never",)
        if pile_size(deck, state) == 0:
            return ("reshuffle", "never") if not moves(deck, state) else ("reshuffle",)
        return ()

    return write_drn(deck.start(), step, labels, initial_reward=1, comments=comments, max_states=max_states)


def sweep_figures(catalogue: Catalogue, turn_limit: int) -> dict:
    """A sweep's exact figures of a solo game (``Game.exact_figures``): the exact expected length, within
    the solver's budget for many decks (``REACH``, about a minute: a grid has up to 10,000 of them), and
    where the solver's distribution of lengths is whole (no tail left) and within ``turn_limit``, the
    exact shares too: every game ends, by the player's win."""
    from toolkit.games.diamoniak.solo import REACH, SoloDeck, solo_odds
    from toolkit.walk.graph import TooManyStates

    deck = SoloDeck.from_catalogue(catalogue)
    try:
        odds = solo_odds(deck, max_states=REACH)
    except TooManyStates as err:
        return {"note": f"exact solo figures out of reach (the chain has {err}): simulated"}
    if odds.expected_turns is None or odds.never:
        return {"note": f"the castle may never be completed (probability {float(odds.never):.6g}, exactly "
                        f"{_frac(odds.never)}): the lengths are of the simulated games that ended"}
    value = float(odds.expected_turns)
    exact = {"exact": "mean_turns mean_rounds", "mean_turns_exact": _frac(odds.expected_turns)}
    for name in ("mean_turns", "mean_rounds"):  # alone, a round is a turn
        exact.update({name: value, f"{name}_low": value, f"{name}_high": value})
    if odds.tail == 0 and len(odds.p) - 1 <= turn_limit:  # every game ends, and within the turn limit
        for name, share in (("completion", 1.0), ("win_rate_1", 1.0), ("stall_rate", 0.0), ("over_limit_rate", 0.0)):
            exact.update({name: share, f"{name}_low": share, f"{name}_high": share})
        exact["exact"] += " completion win_rate_1 stall_rate over_limit_rate"
    return exact


def _frac(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
