"""The words of the PDF balance report, in English and Russian, worded for designers and players.

Policies are described in plain words (``describe_policy``): the printed page names how a player
plays, never an internal rule name.
"""

from __future__ import annotations

import re

TEXTS = {
    "en": {
        "title": "{game}: balance and strategy",
        "basis": "Every figure comes from {games} games per player count, with its 95% interval: each share is "
                 "known to within ±{points} points. In brackets: the 95% interval; for the playing time, the range of the "
                 "middle 80% of games.",
        "players": "{n} players",
        "win_seat": "seat {seat} wins",
        "first": "first-player advantage",
        "first_note": "seat 1's share of the won games above a fair share",
        "balance": "balance (1 = all seats equal)",
        "completion": "games that end",
        "rounds": "length, rounds",
        "turns": "length, turns",
        "minutes": "playing time, min",
        "box": "box {low}-{high}",
        "lead": "lead changes per game",
        "comeback": "comebacks (winner was {k}+ behind)",
        "chart_wins": "Win rate by seat (bars: 95% interval; line: a fair share)",
        "chart_length": "Length of a game: share of games by rounds",
        "seat": "seat {seat}",
        "rounds_axis": "rounds",
        "events": "Events per game",
        "strategy": "Best way to play each seat, the others playing the usual way",
        "strategy_note": "The usual way: {default}. Each seat tried every candidate; the best were played on until "
                         "the gain was known to ±{points} points.",
        "verdict": "The usual way is clearly beaten at {beaten} of the {seats} seats",
        "verdict_by": ", by at most {gain}",
        "col_count": "players",
        "col_seat": "seat",
        "col_best": "best way to play",
        "col_wins": "wins",
        "col_usual": "usual way",
        "col_gain": "gain (95% interval)",
        "beaten": "better",
        "not_beaten": "no clear gain",
        "usual_better": "usual way better",
        "tournament": "Two-player tournament: how often the row beats the column ({games} games a pair)",
        "overall": "overall",
        "per_game": "per game",
        "events_names": {
            "witch_strikes": "witch strikes", "purchases": "castle cards bought", "reshuffles": "reshuffles",
            "fairies_spent": "fairies spent", "palaces_completed": "palaces completed", "tokens_scored": "tokens won",
            "foundations_laid": "foundations laid", "floods": "floods", "exchanges": "exchanges",
            "general_exchanges": "general exchanges", "ruins_laid": "ruins laid", "ruins_removed": "ruins cleared",
            "discards": "discards", "cards_discarded": "cards discarded", "passes": "passes",
        },
    },
    "ru": {
        "title": "{game}: баланс и стратегия",
        "basis": "Каждая цифра получена из {games} партий на каждое число игроков, с 95-процентным интервалом: "
                 "каждая доля известна с точностью ±{points} п. В скобках: 95-процентный интервал; для времени партии - "
                 "разброс средних 80% партий.",
        "players": "игроков: {n}",
        "win_seat": "побеждает место {seat}",
        "first": "преимущество первого игрока",
        "first_note": "доля побед места 1 сверх равной доли",
        "balance": "баланс (1 = места равны)",
        "completion": "партии доходят до конца",
        "rounds": "длина, круги",
        "turns": "длина, ходы",
        "minutes": "время партии, мин",
        "box": "на коробке {low}-{high}",
        "lead": "смены лидера за партию",
        "comeback": "отыгрыши (победитель отставал на {k}+)",
        "chart_wins": "Доля побед по местам (отрезки: 95-процентный интервал; линия: равная доля)",
        "chart_length": "Длина партии: доля партий по числу кругов",
        "seat": "место {seat}",
        "rounds_axis": "круги",
        "events": "События за партию",
        "strategy": "Лучшая игра на каждом месте, если остальные играют обычно",
        "strategy_note": "Обычная игра: {default}. На каждом месте испытан каждый способ; лучшие сыграли дальше, "
                         "пока выигрыш не стал известен с точностью ±{points} п.",
        "verdict": "Обычную игру явно превосходят на {beaten} местах из {seats}",
        "verdict_by": ", самое большее на {gain}",
        "col_count": "игроков",
        "col_seat": "место",
        "col_best": "лучший способ игры",
        "col_wins": "победы",
        "col_usual": "обычно",
        "col_gain": "выигрыш (95% интервал)",
        "beaten": "лучше",
        "not_beaten": "явного выигрыша нет",
        "usual_better": "обычная игра лучше",
        "tournament": "Турнир вдвоём: как часто строка побеждает столбец ({games} партий на пару)",
        "overall": "в среднем",
        "per_game": "за партию",
        "events_names": {
            "witch_strikes": "удары ведьм", "purchases": "куплено карт замка", "reshuffles": "перемешивания",
            "fairies_spent": "использовано фей", "palaces_completed": "достроено дворцов",
            "tokens_scored": "получено жетонов", "foundations_laid": "заложено фундаментов", "floods": "наводнения",
            "exchanges": "обмены", "general_exchanges": "общие обмены", "ruins_laid": "положено руин",
            "ruins_removed": "убрано руин", "discards": "сбросы", "cards_discarded": "сброшено карт",
            "passes": "пропуски хода",
        },
    },
}

_RULES = {
    "en": {
        "until-witch": "always draws on", "stop-on-castle": "stops after a castle card",
        "stop-after": "stops after {n} cards", "risk": "stops when a witch would take more than {n}",
        "odds": "stops when a witch is {n}% likely", "fairy-first": "", "buy-most": "",
        "keep-diamonds": "keeps diamonds from the witch", "save-fairy": "saves the fairy",
        "never-buy": "never buys",
        "builder": "builds", "no-attack": "builds, never attacks", "aggressive": "attacks first",
        "random": "plays at random", "give-worst": "", "give-random": "gives cards at random",
    },
    "ru": {
        "until-witch": "тянет до ведьмы", "stop-on-castle": "останавливается после карты замка",
        "stop-after": "останавливается после {n} карт", "risk": "останавливается, если ведьма отнимет больше {n}",
        "odds": "останавливается при шансе ведьмы {n}%", "fairy-first": "", "buy-most": "",
        "keep-diamonds": "бережёт бриллианты от ведьмы", "save-fairy": "бережёт фею",
        "never-buy": "никогда не покупает",
        "builder": "строит", "no-attack": "строит, не нападает", "aggressive": "сначала нападает",
        "random": "играет наугад", "give-worst": "", "give-random": "отдаёт карты наугад",
    },
}
_OR = {"en": " or ", "ru": " или "}


def describe_policy(name: str, lang: str) -> str:
    """A policy's rule names (``stop-after-3,risk-2``) in plain words (``stops after 3 cards or ...``)."""
    rules = _RULES[lang]
    draws, others = [], []
    for part in name.split(","):
        part = part.strip()
        match = re.fullmatch(r"([a-z-]+?)-([0-9]+)", part)
        if part in rules:
            words = rules[part]
            kind = part
        elif match and match.group(1) in rules:
            words = rules[match.group(1)].format(n=match.group(2))
            kind = match.group(1)
        else:
            words, kind = part, part
        if not words:
            continue
        (draws if kind in ("until-witch", "stop-on-castle", "stop-after", "risk", "odds") else others).append(words)
    text = ", ".join([_OR[lang].join(draws)] * bool(draws) + others)
    return text or name
