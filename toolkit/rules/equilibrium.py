"""Optimal play of a game of hidden information (its state defines ``information_state_string``).

* Two players and no named player: the equilibrium of the zero-sum game (each seat's best play against
  the other's best, knowing only what it knows). Up to ``LP_UP_TO`` states of the tree, by the sequence
  form (``toolkit.solve.sequence_form``): floats first, then each seat's play read as fractions and the
  two exact best replies to them (``toolkit.solve.extensive``); where they meet, the value is exact and
  proven, else it is said as the interval between them. Beyond, by CFR+ (``toolkit.solve.cfr``) with
  the interval its average play's best replies give.
* Otherwise: each seat's best reply, knowing only what the seat knows, to the others' named players
  (``--policy``), exact in fractions, and how much it gains: the exploitability of the named players.

The payoff: the returns where they sum to zero at every end, else the chance to win (``--objective``
chooses); the zero-sum game without zero-sum returns is played for seat 1's chance to win minus seat
2's. The answer says which in its lines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gmpy2 import mpq

from toolkit.errors import UserError
from toolkit.odds.report import OddsReport, both, frac
from toolkit.rules.hidden import HIDDEN, Tree, walk_tree
from toolkit.seats import Policies, rules_players
from toolkit.solve import extensive

LP_UP_TO = 300_000  # states of the tree: up to this many the sequence-form program, beyond it CFR+
LIMITS = (10, 100, 1000, 10**4, 10**6)  # the denominators the float play is read with
SHOWN_SETS = 200  # information sets listed per seat at most (--export-policy writes all)
DIGITS = 9
CFR_TARGET = 1e-3  # CFR+ goes on until the bound is this narrow, in units of the payoff's range


@dataclass
class Play:
    """A seat's play: per information set (by index), the chance of each action (exact or float)."""

    seat: int
    chances: list  # over every slot of the tree; None off the seat's
    exact: bool


@dataclass
class Equilibrium:
    game: str
    payoff: str  # "returns" or "win"
    said: str  # the payoff in words
    nodes: int
    sets: int
    method: str
    tree: Tree
    exact: bool = False
    value: Fraction | None = None
    bounds: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))  # exact bounds: seat 1's value lies between
    first_wins: Fraction | None = None
    plays: list[Play] = field(default_factory=list)
    iterations: int = 0


@dataclass
class Reply:
    seat: int
    value: Fraction  # the best reply's payoff
    own: Fraction  # the seat's named player's payoff against the same others
    others: str
    play: Play


@dataclass
class Replies:
    game: str
    payoff: str
    said: str
    nodes: int
    sets: int
    replies: list[Reply]
    exploitability: Fraction
    reads_hidden: dict[int, str]
    tree: Tree


def _objective(tree: Tree, objective: str | None, zero_sum_game: bool) -> tuple[str, str]:
    """The payoff (``returns`` or ``win``) and how the answer says it."""
    sums_zero = all(sum(r) == 0 for r in tree.returns)
    if objective not in (None, "returns", "win"):
        raise UserError(f"--objective {objective}: a game of hidden information plays for its returns or the "
                        "chance to win (choose returns or win)")
    if objective == "returns" and zero_sum_game and not sums_zero:
        raise UserError("--objective returns: the returns do not sum to zero at every end, so the two seats' "
                        "game is not zero-sum; --objective win plays it for the chance to win")
    chosen = objective or ("returns" if sums_zero else "win")
    default = " (the default" + (": the returns sum to zero at every end" if sums_zero else
                                 ": the returns do not sum to zero at every end") + "; --objective chooses)"
    if chosen == "returns":
        said = "each seat's return" + (default if objective is None else "")
    elif zero_sum_game:
        said = "seat 1's chance to win minus seat 2's" + (default if objective is None else "")
    else:
        said = "each seat's chance to win" + (default if objective is None else "")
    return chosen, said


def _payoffs(tree: Tree, payoff: str, seat: int) -> list:
    if payoff == "returns":
        return [mpq(r[seat].numerator, r[seat].denominator) for r in tree.returns]
    return [mpq(int(w == seat)) for w in tree.winners]


def _zero_sum_payoff(tree: Tree, payoff: str) -> list:
    if payoff == "returns":
        return _payoffs(tree, "returns", 0)
    return [mpq(1 if w == 0 else -1 if w == 1 else 0) for w in tree.winners]


def _walk(game, seats, max_states: int, progress) -> Tree:
    from toolkit.walk.graph import TooManyStates

    try:
        return walk_tree(game, seats, max_states, progress)
    except TooManyStates as err:
        raise UserError(f"{game.source}: optimal play: the game tree has {err} (--max-states)") from None


def solve(game, objective: str | None = None, max_states: int = 2_000_000, progress=None, method: str | None = None,
          iterations: int | None = None, target: float | None = None) -> Equilibrium:
    """The equilibrium of the two-player zero-sum game ``game`` (``method``: ``lp``, ``cfr`` or None: the
    program where the tree has at most ``LP_UP_TO`` states)."""
    tree = _walk(game, None, max_states, progress)
    payoff, said = _objective(tree, objective, True)
    pay = _zero_sum_payoff(tree, payoff)
    method = method or ("lp" if len(tree) <= LP_UP_TO else "cfr")
    answer = Equilibrium(game.name, payoff, said, len(tree), len(tree.infosets), method, tree)
    if method == "lp":
        _by_program(answer, tree, pay)
    else:
        from toolkit.solve import cfr

        floats = [float(p) for p in pay]
        if iterations is None and target is None:
            target = CFR_TARGET * ((max(floats) - min(floats)) or 1.0)
        found = cfr.solve(tree, floats, iterations=iterations, target=target)
        answer.iterations = found.iterations
        answer.bounds = (Fraction(found.lower), Fraction(found.upper))
        answer.plays = [Play(0, found.play(0), False), Play(1, found.play(1), False)]
    if answer.exact and payoff == "returns":
        chances = extensive.edge_chances(tree, extensive.merged(tree, *(p.chances for p in answer.plays)))
        answer.first_wins = extensive.to_fraction(extensive.value(tree, chances, _payoffs(tree, "win", 0)))
    return answer


def _by_program(answer: Equilibrium, tree: Tree, pay: list) -> None:
    """The sequence-form program in floats, then exact plays tried until their best replies meet."""
    from toolkit.solve import sequence_form

    form = sequence_form.build(tree, pay)
    floats = sequence_form.solve_floats(form)
    behaviour = [sequence_form.behaviour(tree, s, floats.plans[s], form.index[s]) for s in (0, 1)]
    against = [mpq(-1) * p for p in pay]  # seat 2's payoff

    def candidates(seat: int):
        found = sequence_form.support_solution(tree, form, seat, floats)
        if found is not None:
            yield found
        for limit in LIMITS:
            yield sequence_form.rounded(tree, seat, behaviour[seat], limit)

    best_low = best_high = None
    plays: list[Any] = [None, None]
    low_iter, high_iter = candidates(0), candidates(1)
    for _ in range(len(LIMITS) + 1):
        if best_low is None or best_low != best_high:
            play = next(low_iter, None)
            if play is not None:
                reply, _ = extensive.best_reply(tree, 1, extensive.edge_chances(tree, play), against)
                low = -reply
                if best_low is None or low > best_low:
                    best_low, plays[0] = low, play
        if best_high is None or best_low != best_high:
            play = next(high_iter, None)
            if play is not None:
                high, _ = extensive.best_reply(tree, 0, extensive.edge_chances(tree, play), pay)
                if best_high is None or high < best_high:
                    best_high, plays[1] = high, play
        if best_low == best_high:
            break
    answer.plays = [Play(0, plays[0], True), Play(1, plays[1], True)]
    answer.bounds = (extensive.to_fraction(best_low), extensive.to_fraction(best_high))
    if best_low == best_high:
        answer.exact = True
        answer.value = answer.bounds[0]


def best_replies(game, policy: Policies | None, objective: str | None = None, max_states: int = 2_000_000,
                 progress=None) -> Replies:
    """Each seat's best reply, knowing only what it knows, to the others' players as ``policy`` names them
    (the game's default player where it names none), exact; and the exploitability of the named players."""
    seats = rules_players(game, policy)
    tree = _walk(game, seats, max_states, progress)
    payoff, said = _objective(tree, objective, False)
    chances = extensive.edge_chances(tree, None)
    replies = []
    for seat in range(game.num_players()):
        pay = _payoffs(tree, payoff, seat)
        value, choice = extensive.best_reply(tree, seat, chances, pay)
        own = extensive.value(tree, chances, pay)
        others = ", ".join(f"seat {s + 1} {p.name}" for s, p in enumerate(seats) if s != seat)
        replies.append(Reply(seat, extensive.to_fraction(value), extensive.to_fraction(own), others,
                             Play(seat, extensive.pure(tree, seat, choice), True)))
    gains = sum((r.value - r.own for r in replies), Fraction(0)) / len(replies)
    return Replies(game.name, payoff, said, len(tree), len(tree.infosets), replies, gains, dict(tree.reads_hidden),
                   tree)


# --- for people -------------------------------------------------------------------------------------


def _floor(x: Fraction) -> str:
    return f"{math.floor(x * 10**DIGITS) / 10**DIGITS:.{DIGITS}f}"


def _ceil(x: Fraction) -> str:
    return f"{math.ceil(x * 10**DIGITS) / 10**DIGITS:.{DIGITS}f}"


def _exact(value: Fraction) -> str:
    """An exact figure: its fraction and a decimal, or a decimal of 12 digits where the fraction is long
    (the JSON gives the fraction)."""
    if value.denominator <= 10**9:
        return both(value)
    digits = len(str(value.denominator))
    return f"{float(value):.12f} (exact: a fraction with a {digits}-digit denominator, which --json gives)"


def between(bounds: tuple[Fraction, Fraction]) -> str:
    """Exact bounds rounded outward: ``between a and b``."""
    return f"between {_floor(bounds[0])} and {_ceil(bounds[1])}"


def play_rows(game, tree: Tree, play: Play, as_json: bool = True) -> list[dict]:
    """A seat's play per information set, in the order the walk met them: the set, whether the seat's
    own play reaches it, and each action's chance (a fraction "P/Q" where exact, else a float; as
    Fractions and floats when not ``as_json``)."""
    rows = []
    reached = _reached(tree, play)
    for i, info in enumerate(tree.infosets):
        if info.player != play.seat:
            continue
        actions = []
        for a, action in enumerate(info.actions):
            p = play.chances[info.slot + a]
            chance: Any = _fraction(p) if play.exact else float(p)
            actions.append({"action": game.action_name(info.player, action),
                            "chance": frac(chance) if as_json and play.exact else chance})
        rows.append({"seat": info.player + 1, "information_state": info.key, "reached": reached[i],
                     "actions": actions})
    return rows


def _fraction(value) -> Fraction:
    return value if isinstance(value, Fraction) else extensive.to_fraction(value)


def _reached(tree: Tree, play: Play) -> list[bool]:
    """Per information set of the seat: whether its own play gives it a positive chance (the chance of
    its moves before it)."""
    out = [False] * len(tree.infosets)
    plan: dict[int, Any] = {}
    for i, info in enumerate(tree.infosets):  # a set's own move before it is met earlier in the walk
        if info.player != play.seat:
            continue
        before = 1 if info.parent < 0 else plan.get(info.parent, 0)
        out[i] = before > 0
        for a in range(len(info.actions)):
            plan[info.slot + a] = before * play.chances[info.slot + a]
    return out


def _play_lines(game, tree: Tree, play: Play, title: str, limit: int = SHOWN_SETS) -> list[str]:
    """A seat's play for people: the information states where it has a choice and its own play may lead,
    each with the chance of each action it takes (the JSON and --export-policy have every state)."""
    rows = [row for row in play_rows(game, tree, play, as_json=False) if len(row["actions"]) > 1]
    shown = [row for row in rows if row["reached"]]
    lines = [title]
    for row in shown[:limit]:
        taken = [a for a in row["actions"] if a["chance"] > (0 if play.exact else 5e-5)]
        if len(taken) == 1 and (play.exact or taken[0]["chance"] > 1 - 5e-5):
            what = taken[0]["action"]
        else:
            what = ", ".join(f"{a['action']} {_said_chance(a['chance'])}" for a in taken)
        lines.append(f"  {row['information_state']}: {what}")
    if len(shown) > limit:
        lines.append(f"  ... {len(shown) - limit:,} more information states (--export-policy writes them all)")
    if len(shown) < len(rows):
        lines.append(f"  ({len(rows) - len(shown):,} information states the seat's own play never leads to are left "
                     "out: any play there keeps the value; --export-policy lists them)")
    return lines


def _said_chance(chance) -> str:
    return str(chance) if isinstance(chance, Fraction) else f"{chance:.4f}"


def equilibrium_lines(game, answer: Equilibrium) -> list[str]:
    tree = answer.tree
    what = "the value of the game to seat 1 with optimal play on both sides"
    size = f"{answer.nodes:,} states, {answer.sets:,} information states"
    if answer.exact and answer.value is not None:
        lines = [f"{what}: {_exact(answer.value)}",
                 f"  exact; proven: seat 1's play below gets at least this value whatever seat 2 does and seat 2's "
                 f"holds seat 1 to at most it (exact best replies, each knowing only what its seat knows, over "
                 f"{size})"]
    else:
        low, high = answer.bounds
        lines = [f"{what}: {between(answer.bounds)}",
                 f"  bounded: seat 1's play below gets at least {_floor(low)} whatever seat 2 does and seat 2's "
                 f"holds seat 1 to at most {_ceil(high)} (best replies to them, each knowing only what its seat "
                 f"knows, over {size})"]
    how = ("the sequence-form linear program (Koller, Megiddo and von Stengel) in floats, each seat's play then "
           "read as fractions" if answer.method == "lp" else f"CFR+ ({answer.iterations:,} iterations), its "
           "average play")
    lines.append(f"  payoff: {answer.said}; solved by {how}")
    if answer.first_wins is not None:
        lines.append(f"seat 1's chance to win, both playing so: {_exact(answer.first_wins)}")
    for play in answer.plays:
        lines += _play_lines(game, tree, play, f"seat {play.seat + 1}'s play (the chance of each action, by what "
                                               "the seat knows):")
    return lines


def replies_lines(game, answer: Replies) -> list[str]:
    lines = [f"payoff: {answer.said}"]
    for reply in answer.replies:
        lines.append(f"seat {reply.seat + 1}'s best reply, knowing only what seat {reply.seat + 1} knows, to "
                     f"{reply.others}: {both(reply.value)} (exact)")
        lines.append(f"  it gains {both(reply.value - reply.own)} over the seat's own named player "
                     f"({both(reply.own)})")
    lines.append(f"exploitability of the named players (the mean gain of the best replies): "
                 f"{both(answer.exploitability)} (exact, over {answer.nodes:,} states, {answer.sets:,} "
                 "information states)")
    for seat, name in sorted(answer.reads_hidden.items()):
        lines.append(f"note: seat {seat + 1}'s player {name} plays differently at states the seat cannot tell "
                     "apart: it reads what the seat does not know")
    for reply in answer.replies:
        lines += _play_lines(game, answer.tree, reply.play, f"seat {reply.seat + 1}'s best reply (its action at "
                                                            "each information state):")
    return lines


def _equilibrium_data(game, answer: Equilibrium) -> dict:
    data: dict[str, Any] = {"objective": "zero-sum", "payoff": answer.payoff, "seats": [1, 2],
                            "label": "exact" if answer.exact else "bounded", "exact": answer.exact,
                            "states": answer.nodes, "information_states": answer.sets, "method": answer.method}
    if answer.exact and answer.value is not None:
        data.update({"value": frac(answer.value), "value_float": float(answer.value)})
    data["value_between"] = [float(_floor(answer.bounds[0])), float(_ceil(answer.bounds[1]))]
    data["value_between_exact"] = [frac(answer.bounds[0]), frac(answer.bounds[1])]
    if answer.iterations:
        data["iterations"] = answer.iterations
    if answer.first_wins is not None:
        data.update({"first_wins": frac(answer.first_wins), "first_wins_float": float(answer.first_wins)})
    return data


def _replies_data(game, answer: Replies) -> list[dict]:
    out = []
    for reply in answer.replies:
        out.append({"objective": "best-reply", "payoff": answer.payoff, "seats": [reply.seat + 1], "label": "exact",
                    "exact": True, "states": answer.nodes, "information_states": answer.sets,
                    "value": frac(reply.value), "value_float": float(reply.value), "own": frac(reply.own),
                    "gain": frac(reply.value - reply.own), "others": reply.others})
    return out


def report(game, policy: Policies | None, objective: str | None, max_states: int, export_policy: bool,
           progress) -> OddsReport:
    """``odds --model optimal`` for a game of hidden information."""
    from toolkit.rules.hidden import answer_head, policy_export

    data: dict[str, Any] = {"information": HIDDEN, **answer_head(game, "optimal")}
    lines = [f"{game.name}, optimal play; {HIDDEN}"]
    exported: list[dict] = []
    if game.num_players() == 2 and not policy:
        answer = solve(game, objective, max_states, progress)
        entry = _equilibrium_data(game, answer)
        entry["play"] = [row for play in answer.plays for row in play_rows(game, answer.tree, play)]
        data["answers"] = [entry]
        lines += equilibrium_lines(game, answer)
        exported = [entry]
    else:
        replies = best_replies(game, policy, objective, max_states, progress)
        entries = _replies_data(game, replies)
        for entry, reply in zip(entries, replies.replies):
            entry["play"] = play_rows(game, replies.tree, reply.play)
        data["answers"] = entries
        data["exploitability"] = frac(replies.exploitability)
        data["exploitability_float"] = float(replies.exploitability)
        lines += replies_lines(game, replies)
        exported = entries
    out = OddsReport(data, lines, no_chart="the optimal model has no distribution to draw")
    if export_policy:
        out.policy = policy_export(HIDDEN, exported)
    return out
