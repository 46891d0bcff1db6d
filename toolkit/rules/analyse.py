"""``analyse --rules``: the balance figures of a rules game, from as many games as the precision asks
for (the rule of :mod:`toolkit.analysis.analyse`: a first stage, then on until every governed figure's
95% interval is narrow enough, or ``max_games``), and the report's PDF page for it.

The games are those of ``toolkit.sim.records.batches`` (seeded, batched, parallel): game ``i`` of the run seed
``run_seed(seed, players)``, so two runs with one seed give the same report, byte for byte. Where no seat
had a decision to make in any of them (a race with dice and no choice), the figures name no players.
"""

from __future__ import annotations

from toolkit.analysis.analyse import PlayerCount, in_stages, run_seed, shortfall
from toolkit.analysis.metrics import Accumulator, describe
from toolkit.errors import UserError
from toolkit.sim.records import batches
from toolkit.sim.report import NO_DECISIONS

MAX_SEATS = 4  # the balance figures are kept for 1 to 4 seats


def measure(rules, seats, seed: int, precision: float, max_games: int, tick=None) -> tuple[Accumulator, int]:
    """The totals of as many games of ``seed`` as the precision rule asks for (at most ``max_games``), and the
    decisions the seats made in them."""
    acc = Accumulator(rules.players)
    decisions = 0

    def play(start: int, stop: int) -> None:
        nonlocal decisions
        for records in batches(rules, seats, seed, start, stop):
            records.pop("steps")  # the length is counted in turns (the game's, else steps: the same)
            decisions += int(records.pop("decisions").sum())
            acc.add(records)
            if tick:
                tick(int(records["winner"].size))

    return in_stages(acc, play, precision, max_games), decisions


def analyse(rules, seats, seed: int, precision: float, max_games: int, tick=None) -> PlayerCount:
    if not 1 <= rules.players <= MAX_SEATS:
        raise UserError(f"{rules.source}: {rules.name} has {rules.players} players: analyse reports games of 1 to "
                        f"{MAX_SEATS} players (simulate plays any number)")
    config_seed = run_seed(seed, rules.players)
    acc, decisions = measure(rules, seats, config_seed, precision, max_games, tick)
    names = [policy.name for policy in seats] if decisions else []  # no decisions: nobody's play to name
    return PlayerCount(rules.players, names, config_seed, acc, shortfall(acc, precision))


def decided(result: PlayerCount) -> bool:
    """Did any seat have a decision to make in the games (``analyse`` names the players only then)?"""
    return bool(result.policies)


def skill_section(rules, result: PlayerCount, seed: int) -> tuple[list[str], dict, list | None]:
    """How much skill matters (``toolkit.rules.skill.section``): lines, JSON and the figures for the report's
    page; one line and no figures where no seat had a decision to make (skill has nothing to act on)."""
    if not decided(result):
        return [f"how much skill matters: not at all ({NO_DECISIONS})"], {"no_decisions": True}, None
    from toolkit.rules import skill

    return skill.section(rules, seed)


def scored(rules) -> bool:
    """Does the game keep a score (lead changes mean something)?"""
    return rules.players > 1 and rules.new_initial_state().scores() is not None


def figures(rules, result: PlayerCount, options: dict) -> dict:
    """The JSON of ``analyse --rules --json``: every figure with its interval."""
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
           "decisions": decided(result), "policies": result.policies, "seed": options["seed"],
           "precision": options["precision"], "figures": metrics, "wider_than_asked": sorted(result.wide),
           "meanings": meanings}
    if not decided(result):
        out.pop("policies")
    return out


def text_lines(rules, result: PlayerCount, options: dict) -> str:
    out = figures(rules, result, options)
    lines = [f"{out['game']}: {out['players']} players, {out['figures']['games']:,} games (seed {out['seed']})"]
    if decided(result):
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


def report(rules, result: PlayerCount, options: dict, lang: str, skill=None, skill_missing: str | None = None) -> bytes:
    """The report's PDF: the balance page of the built-in games, for this game, and the page of how much
    skill matters (``skill``: ``toolkit.rules.skill.section``'s figures; None with ``skill_missing``, the
    reason it is out of reach, said in a sentence of page 1)."""
    from toolkit.analysis.report_pdf import _num, games_with, rules_report_pdf
    from toolkit.analysis.report_texts import TEXTS, figure_name

    t = TEXTS[lang]
    games = result.acc.games
    counted = games_with(games, result.players, lang)
    points = _num(100 * options["precision"], 1, lang)
    paragraphs = [t["basis"].format(games=counted)]
    if result.wide:
        names = ", ".join(figure_name(name, lang, {}) for name in sorted(result.wide))
        paragraphs.append(t["precision_short"].format(names=names, points=points))
    else:
        paragraphs.append(t["precision"].format(points=points, twice=_num(2 * options["precision"], 3, lang)))
    if decided(result):  # a game of chance alone: nobody's play to describe
        quoted = "«{}»" if lang == "ru" else "“{}”"
        seats = "; ".join(t["seat_plays"].format(seat=seat, words=quoted.format(name))
                          for seat, name in enumerate(result.policies, start=1))
        paragraphs.append(t["seats"].format(seats=seats))
    if skill is None and skill_missing is not None:
        paragraphs.append(SKILL_WORDS[lang]["missing"])
    title = rules.name + (f" ({', '.join(f'{k} {v}' for k, v in rules.params.items())})" if rules.params else "")
    page = skill_page(skill, lang, rules.info().length_unit, bool(getattr(rules, "hidden_information", False))) \
        if skill else None
    spec = rules.spec.strip()
    path = spec[:spec.rindex(".py") + 3] if ".py" in spec else None  # PATH.py[:Class]: the file dates the PDF
    return rules_report_pdf(title, [result], paragraphs, lang, scored(rules), page, files=[path])


SKILL_WORDS = {
    "en": {
        "heading": "How much skill matters",
        "about": "Each seat is measured against beginners: players who choose among the legal moves at random. "
                 "Three players take the seat in turn: a beginner; the best play against those beginners; and a "
                 "clairvoyant, who knows in advance every outcome of chance and every choice the beginners will make, "
                 "and plays the best plan for them. The learning effect is what the best play gains on a beginner, the chance "
                 "effect what knowing the future adds to the best play, and the relative skill is learning effect / "
                 "(learning effect + chance effect): 0 in a game of pure chance, 1 in a game of pure skill.",
        "length_note": "Every play of this game ends the same way, so the players are compared by the expected "
                       "length of a game, in {unit}: less is better.",
        "caption": "Seat {seat} against beginners",
        "win": "chance to win", "length": "expected length ({unit})", "how": "how it is known",
        "rows": ("A beginner", "The best play", "Knowing the future", "Learning effect", "Chance effect",
                 "Relative skill"),
        "exact": "exact", "bounds": "guaranteed bounds", "sampled": "sampled: 95% interval ({n} {word})",
        "sequences": ("sequence", "sequences"),
        "undefined": "undefined", "undefined_how": "neither skill nor chance changes the result",
        "out_of_reach": "out of reach", "out_of_reach_how": "too many plans to follow, or plays without end",
        "units": {"turns": "turns", "steps": "steps"}, "points": " pts",
        "missing": "How much skill matters is not measured for this game: the exact count does not reach it "
                   "(the game is too large, or its play may go on for ever).",
        "perfect": "What the players know: the game does not say what each seat sees, so every seat is taken to "
                   "see the whole game as it stands (perfect information), the best play too.",
        "hidden": "What the players know: each seat sees only what the game shows it; the best play is the best "
                  "reply that knows only that, while the clairvoyant sees every hand.",
    },
    "ru": {
        "heading": "Сколько значит умение",
        "about": "Каждое место измеряется против новичков — игроков, которые выбирают ход среди разрешённых "
                 "наугад. На место по очереди садятся три игрока: новичок; тот, кто играет против этих новичков "
                 "лучше всех; и ясновидящий, который заранее знает всё, что решит случай, и все ходы новичков и "
                 "играет лучший для них план. Эффект обучения — то, что лучшая игра добавляет к игре новичка; "
                 "эффект случая — то, что знание будущего добавляет к лучшей игре; относительное умение — это "
                 "эффект обучения / (эффект обучения + эффект случая): 0 в игре чистого случая, 1 в игре чистого "
                 "умения.",
        "length_note": "Любая партия этой игры кончается одинаково, поэтому игроки сравниваются по ожидаемой "
                       "длине партии {unit}: чем меньше, тем лучше.",
        "caption": "Место {seat} против новичков",
        "win": "шанс выиграть", "length": "ожидаемая длина ({unit})", "how": "как получено",
        "rows": ("Новичок", "Лучшая игра", "Знание будущего", "Эффект обучения", "Эффект случая",
                 "Относительное умение"),
        "exact": "точно", "bounds": "гарантированные границы", "sampled": "выборка: 95-процентный интервал ({n} {word})",
        "sequences": ("последовательность", "последовательности", "последовательностей"),
        "undefined": "не определено", "undefined_how": "ни умение, ни случай не меняют результат",
        "out_of_reach": "вне досягаемости", "out_of_reach_how": "слишком много планов или бесконечные партии",
        "units": {"turns": "в ходах", "steps": "в шагах"}, "points": "\u00a0п.\u00a0п.",
        "missing": "Сколько значит умение, для этой игры не измерено: точный счёт до него не доходит (игра "
                   "слишком велика или может идти бесконечно).",
        "perfect": "Что знают игроки: игра не говорит, что видит каждое место, поэтому считается, что каждый "
                   "видит всю партию как она есть (полная информация), и лучшая игра тоже.",
        "hidden": "Что знают игроки: каждое место видит только то, что игра ему показывает; лучшая игра — лучший "
                  "ответ, который знает только это, а ясновидящий видит все руки.",
    },
}


def skill_page(figures, lang: str, unit: str, hidden: bool = False) -> dict:
    """The page of how much skill matters, for designers: {"heading", "paragraphs", "tables": [(caption,
    header, rows)]}, one table per seat: each figure exact, between guaranteed bounds or sampled with its
    95% interval, and the words saying which."""
    from toolkit.analysis.report_pdf import _count, _num
    from toolkit.plurals import plural
    from toolkit.rules.skill import BOUNDS, EXACT

    w = SKILL_WORDS[lang]
    units = w["units"][unit]
    length = figures[0].objective == "length"
    paragraphs = [w["hidden" if hidden else "perfect"], w["about"]] + \
        ([w["length_note"].format(unit=units)] if length else [])

    def cell(figure, scale: float, digits: int, suffix: str = "") -> tuple[str, str]:
        """The figure (a percentage: "93.70% (92.02–95.05%)", as the balance page; a difference in points:
        "6.84 (6.45–7.21) pts") and how it is known."""
        def say(value, way="near"):
            return _num(scale * float(value), digits, lang, way)
        if figure.how == EXACT:
            return say(figure.value) + suffix, w["exact"]
        span = f"{say(figure.low, 'down')}–{say(figure.high, 'up')}"
        if figure.how == BOUNDS:
            return span + suffix, w["bounds"]
        sampled = w["sampled"].format(n=_count(figure.sequences, lang),
                                      word=plural(figure.sequences, w["sequences"], lang, "report"))
        if suffix == "%":
            return f"{say(figure.value)}% ({span}%)", sampled
        return f"{say(figure.value)} ({span}){suffix}", sampled

    tables = []
    for figure in figures:
        result = (1.0, 2, "") if length else (100.0, 2, "%")
        effect = (1.0, 2, "") if length else (100.0, 2, w["points"])
        rows = [cell(figure.beginner, *result), cell(figure.optimal, *result)]
        if figure.clairvoyant is None:
            rows.append((w["out_of_reach"], w["out_of_reach_how"]))
        else:
            rows.append(cell(figure.clairvoyant, *result))
        rows.append(cell(figure.learning, *effect))
        if figure.clairvoyant is not None:
            rows.append(cell(figure.chance, *effect))
            relative = figure.relative
            rows.append(cell(relative, 1.0, 3) if relative is not None else (w["undefined"], w["undefined_how"]))
        header = ["", w["length"].format(unit=units) if length else w["win"], w["how"]]
        tables.append((w["caption"].format(seat=figure.seat + 1), header,
                       [[label, *row] for label, row in zip(w["rows"], rows)]))
    return {"heading": w["heading"], "paragraphs": paragraphs, "tables": tables}
