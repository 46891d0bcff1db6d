"""The analysis as readable text and as one JSON object."""

from __future__ import annotations

import math

from toolkit.analysis.analyse import MAX_TURNS, scored
from toolkit.analysis.metrics import describe
from toolkit.analysis.rounding import figure


def _pct(value: float, way: str = "near") -> str:
    return figure(100 * value, 1, way) + "%"


def _fixed(digits: int):
    """A figure with ``digits`` decimals, rounded as the PDF report rounds it (``rounding.figure``)."""
    return lambda value, way="near": figure(value, digits, way)


def _interval(low, high, fmt) -> str:
    """The ends of a 95% interval rounded outward, as in the PDF report."""
    return f"95% interval {fmt(low, 'down')} to {fmt(high, 'up')}"


def _points(value: float, digits: int = 1, way: str = "near") -> str:
    from toolkit.analysis.rounding import rounded

    text = f"{rounded(100 * value, digits, way):+.{digits}f}"
    return f"{'+' + text[1:] if text.lstrip('+-').strip('0.') == '' else text} points"


def _gain_interval(value: float, low: float, high: float) -> str:
    """Value and interval in points, with digits enough that a bound that is not 0 shows its sign,
    the ends rounded outward."""
    from toolkit.analysis.rounding import sign_digits

    d = sign_digits(100 * value, 100 * low, 100 * high)
    return f"{_points(value, d)} (95% interval {_points(low, d, 'down')} to {_points(high, d, 'up')})"


def count_lines(result, catalogue) -> list[str]:
    """The block of one player count."""
    from toolkit.analysis.analyse import playing_time

    m = result.acc.metrics()
    n = result.players
    lines = [f"{n} player{'s' if n > 1 else ''}, {m['games']:,} games (run seed {result.seed})"]
    for seat, policy in enumerate(result.policies, start=1):
        lines.append(f"  seat {seat} policy: {policy}")
    lines.append(f"  completion {_pct(m['completion'])} ({_interval(m['completion_low'], m['completion_high'], _pct)}), "
                 f"stalled {_pct(m['stall_rate'])} ({_interval(m['stall_rate_low'], m['stall_rate_high'], _pct)})")
    if m["over_limit_rate"]:
        lines.append(f"  {_pct(m['over_limit_rate'])} of the games were still going after {MAX_TURNS:,} turns and were "
                     "stopped: the lengths, lead changes and events below leave them out (their counts are "
                     "the limit's), and the lengths run short")
    for seat in range(1, n + 1):
        key = f"win_rate_{seat}"
        lines.append(f"  seat {seat} wins {_pct(m[key])} ({_interval(m[key + '_low'], m[key + '_high'], _pct)})")
    if n > 1 and m["first_player_advantage"] is not None:
        acc = result.acc
        shares = ", ".join(f"seat {seat} {_pct(acc.wins[seat - 1] / acc.won)}" for seat in range(1, n + 1))
        lines.append(f"  of the {acc.won:,} won games: {shares} (balance and first-player advantage are read "
                     "from these shares)")
        fpa = m["first_player_advantage"]
        lines.append(f"  first-player advantage {_gain_interval(fpa, m['first_player_advantage_low'], m['first_player_advantage_high'])}"
                     f" (seat 1's share of the won games minus {_pct(1 / n)})")
        three = _fixed(3)
        lines.append(f"  balance {three(m['balance'])} (1 minus the largest gap of two seats' shares of the won games; "
                     f"interval {three(m['balance_low'], 'down')} to {three(m['balance_high'], 'up')}: the gaps the "
                     "seats' 95% intervals allow)")
    if m["mean_turns"] is None:
        lines.append("  no game ended: no length, no playing time")
    else:
        two = _fixed(2)
        lines.append(f"  length: {two(m['mean_turns'])} turns ({_interval(m['mean_turns_low'], m['mean_turns_high'], two)}), "
                     f"{two(m['mean_rounds'])} rounds ({_interval(m['mean_rounds_low'], m['mean_rounds_high'], two)}), "
                     f"median {m['median_rounds']:g} rounds")
        lines.append("  rounds at percentiles: " + ", ".join(f"{q}%: {v}" for q, v in result.acc.percentiles().items()))
        time = playing_time(catalogue, result.acc)
        if time:
            lo, hi = time["box_minutes"]
            one = _fixed(1)
            lines.append(f"  playing time at {time['seconds_per_turn']} s a turn: about {one(time['mean_minutes'])} min "
                         f"({_interval(time['mean_minutes_low'], time['mean_minutes_high'], one)}; "
                         f"10% to 90% of games: {time['p10_minutes']:.1f} to {time['p90_minutes']:.1f} min); "
                         f"the box says {lo}-{hi} min: {time['against_box']}"
                         + ("; the box also counts shuffling, setting up, explaining the rules and the pauses "
                            "between turns, which no turn holds" if time["against_box"] == "shorter" else ""))
    if n > 1 and m["lead_changes"] is None:
        lines.append("  lead changes: no game ended")
    elif n > 1:
        lines.append(f"  lead changes {_fixed(2)(m['lead_changes'])} per game "
                     f"({_interval(m['lead_changes_low'], m['lead_changes_high'], _fixed(2))})")
    if m["comeback_rate"] is not None and n > 1:
        from toolkit.games.registry import get

        game = get(catalogue.game)
        unit = game.comeback_unit("en")
        lines.append(f"  comebacks (the winner once trailed by {game.comeback_points} or more{' ' + unit if unit else ''}): "
                     f"{_pct(m['comeback_rate'])} of the won games "
                     f"({_interval(m['comeback_rate_low'], m['comeback_rate_high'], _pct)})")
    events = [name[: -len("_per_game")] for name in m if name.endswith("_per_game")]
    if events and m[f"{events[0]}_per_game"] is None:
        lines.append("  events per game: no game ended")
    elif events:
        from toolkit.games.registry import get

        words = get(catalogue.game).counter_names
        lines.append("  events per game (mean, 95% interval):")
        for name in events:
            key = f"{name}_per_game"
            three = _fixed(3)
            lines.append(f"    {words.get(name, name.replace('_', ' '))}: {three(m[key])} "
                         f"({three(m[key + '_low'], 'down')} to {three(m[key + '_high'], 'up')})")
    for name, (half, allowed) in result.wide.items():
        lines.append(f"  note: {name} is known to ±{half:.4f}, wider than the asked ±{allowed:.4f} "
                     "(the game limit was reached)")
    return lines


def strategy_lines(rows: list[dict], tournament: dict | None, precision: float) -> list[str]:
    lines = []
    if rows:
        lines.append("strategy: the best policy at each seat, the other seats playing the default")
        lines.append(f"  (each candidate screened on the same card orders, up to {rows[0]['screen_games']:,}, the best "
                     f"two played on beside the default until the gain is known to ±{100 * precision:.1f} points or "
                     "the weaker cannot beat the other by more than that; each comparison is its own sample, the "
                     "default's share there is not the one above)")
        for kind, (low, high) in (rows[0].get("searched") or {}).items():
            lines.append(f"  searched: {kind}-{low} to {kind}-{high} (the whole range where the rule can stop)")
        for row in rows:
            c = row["challenger"]
            if row["beaten"]:
                head = f"best {c['policy']} (the default is beaten)"
            else:
                why = "it beats every challenger" if c["gain_high"] < 0 else "no challenger beats it clearly"
                head = f"best the default, {row['default_policy']} ({why}); strongest challenger {c['policy']}"
            lines.append(f"  {row['players']} players, seat {row['seat']}: {head}: wins {_pct(c['win_rate'])} "
                         f"({_pct(c['win_rate_low'], 'down')} to {_pct(c['win_rate_high'], 'up')}) against the "
                         f"default's {_pct(c['default_win_rate'])} ({_pct(c['default_win_rate_low'], 'down')} to "
                         f"{_pct(c['default_win_rate_high'], 'up')}) on the same {c['games']:,} games: gain "
                         f"{_gain_interval(c['gain'], c['gain_low'], c['gain_high'])}")
            for edge in row.get("edges", []):
                low, high = edge["range"]
                lines.append(f"    note: {edge['rule']} is at the {edge['end']} end of the range searched "
                             f"({edge['kind']}-{low} to {edge['kind']}-{high})")
    if tournament:
        names = tournament["policies"]
        reach = math.ceil(1000 * tournament["half_width"]) / 10
        lines.append(f"tournament, 2 players: the row's share of wins against the column, up to "
                     f"{tournament['games_per_pair']:,} games a pair (each seat half of them; fewer where a share lies "
                     f"far from one half; every share within ±{reach:.1f} points, 95% interval)")
        width = max(len(name) for name in names)
        lines.append("  " + " " * width + "  " + " ".join(f"{i + 1:>6}" for i in range(len(names))) + "   overall")
        for i, a in enumerate(names):
            cells = " ".join("     -" if b == a else f"{_pct(tournament['table'][a][b]):>6}" for b in names)
            lines.append(f"  {a:<{width}}  {cells}   {_pct(tournament['overall'][a])}  ({i + 1})")
    return lines


def text_report(title: str, catalogue, results, rows, tournament, options: dict) -> str:
    lines = [f"{title}: balance report, seed {options['seed']}, every share to ±{100 * options['precision']:.2f} points "
             f"(balance ±{200 * options['precision']:.2f}, mean length ±{100 * options['precision']:.2f}% of itself; "
             "balance and first-player advantage from the shares of the won games)"]
    if options["variants"]:
        lines.append(f"  variants: {', '.join(options['variants'])}")
    for result in results:
        lines += count_lines(result, catalogue)
    lines += strategy_lines(rows, tournament, options["precision"])
    return "\n".join(lines)


def json_report(catalogue, results, rows, tournament, options: dict) -> dict:
    from toolkit.analysis.analyse import playing_time

    return {
        "game": catalogue.game,
        "seed": options["seed"],
        "precision": options["precision"],
        "variants": list(options["variants"]),
        "counts": {card.id: card.count for card in catalogue.cards},
        "player_counts": [{
            "players": r.players, "policies": r.policies, "run_seed": r.seed, "metrics": r.acc.metrics(),
            "percentiles_rounds": r.acc.percentiles("rounds"), "percentiles_turns": r.acc.percentiles("turns"),
            "rounds_distribution": r.acc.length_counts("rounds"), "playing_time": playing_time(catalogue, r.acc),
            "wider_than_asked": {name: {"half_width": h, "asked": a} for name, (h, a) in r.wide.items()},
        } for r in results],
        "strategy": rows,
        "tournament": tournament,
    }


def figures_json(rules, result, options: dict) -> dict:
    """The JSON of ``analyse --json`` of one rules game (``toolkit.analysis.analyse.analyse_game``): every
    figure with its interval; a game without a winner is a "no winner" game, not a stalled one."""
    metrics = result.acc.metrics()
    # every game of a rules file ends (one that does not is a mistake): "stalled" is a game without a winner
    dropped = ("over_limit_rate", "comeback_rate") + (() if scored(rules) else ("lead_changes",))
    metrics = {name.replace("stall_rate", "no_winner_rate"): value for name, value in metrics.items()
               if not name.startswith(dropped) and not (name.startswith("win_rate_") and value is None)
               and not (name.startswith("first_player_advantage") and value is None)}
    meanings = {name: describe(name) for name in metrics if not name.endswith(("_low", "_high"))
                and not name.startswith("no_winner_rate")}
    meanings["no_winner_rate"] = "share of games that ended without a winner"
    out = {"rules": rules.spec, "game": rules.description(), "players": result.players,
           "decisions": bool(result.policies), "policies": result.policies, "seed": options["seed"],
           "precision": options["precision"], "figures": metrics, "wider_than_asked": sorted(result.wide),
           "meanings": meanings}
    if not result.policies:
        out.pop("policies")
    return out


def figures_text(rules, result, options: dict) -> str:
    """``figures_json`` as text: one line a figure, with its interval and meaning."""
    from toolkit.sim.report import NO_DECISIONS

    out = figures_json(rules, result, options)
    lines = [f"{out['game']}: {out['players']} players, {out['figures']['games']:,} games (seed {out['seed']})"]
    if result.policies:
        lines += [f"  seat {seat} plays {name}" for seat, name in enumerate(out["policies"], start=1)]
    else:
        lines.append(f"  {NO_DECISIONS}")
    m = out["figures"]
    for name, meaning in out["meanings"].items():
        if name == "games" or m[name] is None:
            continue
        low, high = m.get(f"{name}_low"), m.get(f"{name}_high")
        interval = f" (95% interval {low:.4g} to {high:.4g})" if low is not None else ""
        lines.append(f"{name}: {m[name]:.4g}{interval}: {meaning}")
    if out["wider_than_asked"]:
        lines.append(f"wider than asked after {m['games']:,} games: {', '.join(out['wider_than_asked'])}")
    return "\n".join(lines)
