"""The words of the PDF balance report, in English and Russian, worded for designers and players.

Policies are described in plain words (``describe_policy``, from the words the game's strategy gives):
the printed page names how a player plays, never an internal rule name.
"""

from __future__ import annotations

import re

from toolkit.plurals import plural

TEXTS = {
    "en": {
        "title": "{game}: balance and strategy",
        "title_plain": "{game}: balance",
        "basis": "Figures from {games}. In brackets after an estimated figure: its 95% interval (for balance: the "
                 "gaps the seats' intervals allow). Win rates are shares of all games; balance and the first "
                 "player's advantage are read from the shares of the won games, with the share of games that end "
                 "beside them.",
        "count_games": "{games} {word} with {n} {players}",
        "games_word": ("game", "games"),
        "players_with": ("player", "players"),
        "and": " and ",
        "precision": "There were games enough to know every share of games to ±{points} points, balance to "
                     "±{twice} and the mean length to ±{points}% of itself.",
        "precision_short": "The most games allowed were played before {names} reached ±{points} points; the "
                           "intervals say how well each figure is known.",
        "seats_usual": "At every seat the player plays the usual way: {usual}.",
        "seats": "How each seat plays: {seats}.",
        "seat_plays": "the player at seat {seat} {words}",
        "win_seat": "seat {seat} wins",
        "first": "first-player advantage",
        "balance": "balance (1 = all seats equal)",
        "completion": "games that end",
        "rounds": "length, rounds",
        "turns": "length, turns",
        "minutes": "playing time, min: mean (middle 80%)",
        "time_note": "Playing time counts the turns alone, at {seconds} s a turn. The box's {low}–{high} minutes "
                     "also count shuffling, setting up, explaining the rules and the pauses of a family table, "
                     "which no turn holds.",
        "figure_names": {"completion": "the share of games that end", "stall_rate": "the share of stalled games",
                         "over_limit_rate": "the share of games stopped at the turn limit",
                         "mean_turns": "the mean length in turns", "mean_rounds": "the mean length in rounds",
                         "median_rounds": "the median length in rounds", "win_rate": "seat {seat}'s win rate",
                         "first_player_advantage": "the first player's advantage", "balance": "the balance",
                         "lead_changes": "the lead changes per game", "comeback_rate": "the share of comebacks"},
        "lead": "lead changes per game",
        "comeback": "comebacks (winner was {k}+{unit} behind)",
        "chart_wins": "Win rate by seat, share of all games (whiskers: 95% interval; dashed line: a fair share)",
        "chart_length": "Length of a game: share of games by rounds (the longest 1% of games are left off)",
        "seat": "seat {seat}",
        "rounds_axis": "rounds",
        "events": "Events per game",
        "strategy": "Best way to play each seat, the others playing the usual way",
        "strategy_note": "The usual way: the player {default}. At each seat every way below was tried on the "
                         "same card orders, up to {screen} of them; the strongest two then played on beside the usual "
                         "way, on the same card orders, until the gain was known to ±{points} points, or until the "
                         "weaker of the two could not beat the other by more than that. Each comparison is a sample "
                         "of its own: the usual way's share there differs from page 1 by chance; every share is given "
                         "with its 95% interval.",
        "verdict_usual": "The usual way is the best at {usual} of the {seats} seats: no way tried beat it clearly.",
        "verdict_beaten": "A challenger is clearly better at {beaten} of the {seats} seats, by at most {gain}.",
        "edge_note": "*: the value lies at an end of the range tried ({rules}).",
        "col_count": "players",
        "col_seat": "seat",
        "col_best": "strongest challenger",
        "col_games": "games",
        "col_wins": "its wins",
        "col_usual": "usual way",
        "col_gain": "gain, points",
        "col_verdict": "best way",
        "best_challenger": "the challenger",
        "best_usual": "the usual way",
        "tournament": "Two-player tournament: how often the row beats the column",
        "tournament_note": "Up to {games} games a pair (fewer where a share lies far from one half), each way of playing "
                           "half of them in each seat; every share in the table "
                           "is known to ±{reach} points (95% interval). Key: blue, the row wins more than half of the "
                           "games; red, fewer than half; the deeper the colour, the further from half.",
        "overall": "overall",
        "pts": " pts",
    },
    "ru": {
        "title": "{game}: баланс и стратегия",
        "title_plain": "{game}: баланс",
        "basis": "Цифры получены из {games}. В скобках после оценки: её 95-процентный интервал (для баланса: "
                 "разрывы, которые допускают интервалы мест). Доли побед считаются от всех партий; баланс и "
                 "преимущество первого игрока — от долей выигранных партий, рядом указана доля партий, которые "
                 "доходят до конца.",
        "count_games": "{games} {word} при {n} {players}",
        "games_word": ("партии", "партий", "партий"),
        "players_with": ("игроке", "игроках", "игроках"),
        "and": " и ",
        "precision": "Партий хватило, чтобы знать каждую долю партий с точностью ±{points} п.\u00a0п., "
                     "баланс — ±{twice}, среднюю длину — ±{points}% от неё самой.",
        "precision_short": "Сыграно наибольшее разрешённое число партий, а {names} ещё не известны с точностью "
                           "±{points} п.\u00a0п.; интервалы показывают, насколько точна каждая цифра.",
        "seats_usual": "На каждом месте игрок играет обычно: {usual}.",
        "seats": "Как играют на местах: {seats}.",
        "seat_plays": "на месте {seat} игрок {words}",
        "win_seat": "побеждает место {seat}",
        "first": "преимущество первого игрока",
        "balance": "баланс (1 = места равны)",
        "completion": "партии доходят до конца",
        "rounds": "длина, круги",
        "turns": "длина, ходы",
        "minutes": "время, мин: среднее (средние 80%)",
        "time_note": "Время партии здесь — только ходы, по {seconds} с на ход. {low}–{high} минут на коробке "
                     "включают ещё перемешивание, раскладку, объяснение правил и паузы за семейным столом, "
                     "которых нет ни в одном ходе.",
        "figure_names": {"completion": "доля партий, которые доходят до конца",
                         "stall_rate": "доля партий, зашедших в тупик",
                         "over_limit_rate": "доля партий, остановленных на пределе ходов",
                         "mean_turns": "средняя длина в ходах", "mean_rounds": "средняя длина в кругах",
                         "median_rounds": "медианная длина в кругах", "win_rate": "доля побед места {seat}",
                         "first_player_advantage": "преимущество первого игрока", "balance": "баланс",
                         "lead_changes": "смены лидера за партию", "comeback_rate": "доля отыгрышей"},
        "lead": "смены лидера за партию",
        "comeback": "отыгрыши (победитель отставал на {k}+{unit})",
        "chart_wins": "Доля побед по местам, от всех партий (усики: 95-процентный интервал; пунктир: равная доля)",
        "chart_length": "Длина партии: доля партий по числу кругов (самый длинный 1% партий не показан)",
        "seat": "место {seat}",
        "rounds_axis": "круги",
        "events": "События за партию",
        "strategy": "Лучшая игра на каждом месте, если остальные играют обычно",
        "strategy_note": "Обычная игра: игрок {default}. На каждом месте каждый способ ниже испытан на одних и тех же "
                         "раскладах, не более чем на {screen}; два сильнейших сыграли дальше рядом с обычной игрой, на "
                         "тех же раскладах, пока выигрыш не стал известен с точностью ±{points} п.\u00a0п. или пока не "
                         "стало ясно, что более слабый из двух не обыгрывает другого больше чем на эту величину. "
                         "Каждое сравнение — "
                         "отдельная выборка: доля обычной игры здесь отличается от страницы 1 случайно; каждая доля "
                         "дана с 95-процентным интервалом.",
        "verdict_usual": "Обычная игра лучше всех на {usual} {places} из {seats}: ни один испытанный способ не "
                         "обыграл её явно.",
        "verdict_beaten": "Другой способ явно лучше на {beaten} {places} из {seats}, самое большее на {gain}.",
        "places": ("месте", "местах", "местах"),
        "edge_note": "*: значение на краю испытанного диапазона ({rules}).",
        "col_count": "игроков",
        "col_seat": "место",
        "col_best": "сильнейший соперник",
        "col_games": "партий",
        "col_wins": "его победы",
        "col_usual": "обычная игра",
        "col_gain": "выигрыш, п.\u00a0п.",
        "col_verdict": "лучше",
        "best_challenger": "соперник",
        "best_usual": "обычная игра",
        "tournament": "Турнир вдвоём: как часто строка побеждает столбец",
        "tournament_note": "До {games} {word} на пару (меньше, где доля далека от половины), каждый способ половину "
                           "из них на каждом месте; каждая доля в "
                           "таблице известна с точностью ±{reach} п.\u00a0п. (95-процентный интервал). Цвета: "
                           "синий — строка выигрывает больше половины партий, красный — меньше половины; чем гуще "
                           "цвет, тем дальше от половины.",
        "overall": "в среднем",
        "pts": " п.\u00a0п.",
    },
}

_OR = {"en": ", or ", "ru": " или "}  # Russian puts no comma before a single «или»
_CARDS = {"en": ("card", "cards"), "ru": ("карты", "карт", "карт")}  # after "after" / "more than": genitive


def figure_name(name: str, lang: str, counters: dict[str, str] | None = None) -> str:
    """A figure's name in words for the page (``first_player_advantage`` -> "the first player's
    advantage"; ``win_rate_2`` -> "seat 2's win rate"; ``<counter>_per_game`` by the game's counter
    label): the printed report never shows an id."""
    names = TEXTS[lang]["figure_names"]
    match = re.fullmatch(r"win_rate_(\d+)", name)
    if match:
        return names["win_rate"].format(seat=match.group(1))
    if name in names:
        return names[name]
    event = name.removesuffix("_per_game")
    return (counters or {}).get(event, event.replace("_", " "))


def describe_policy(name: str, lang: str, game_id: str) -> str:
    """A policy's rule names (``stop-after-3,risk-2``) in plain words (``stops after 3 cards or ...``): the
    words of the game's strategy (``Strategy.words``; a rule without words is shown by its name)."""
    from toolkit.analysis.strategy import strategy_of

    strategy = strategy_of(game_id)
    rules = strategy.words.get(lang, {})
    draws, others = [], []
    for part in name.split(","):
        part = part.strip()
        match = re.fullmatch(r"([a-z-]+?)-([0-9]+)", part)
        if part in rules:
            words = rules[part]
            kind = re.sub(r"-[0-9]+$", "", part)
        elif match and match.group(1) in rules:
            n = int(match.group(2))
            words = rules[match.group(1)].format(n=n, cards=plural(n, _CARDS[lang], lang, "policy words"))
            kind = match.group(1)
        else:
            words, kind = part, part
        if not words:
            continue
        (draws if kind in strategy.stop_rules else others).append(words)
    # "stops after 3 cards, or when a witch ...": the verb once
    draws = draws[:1] + [re.sub(r"^(stops|останавливается),? ", "", words) for words in draws[1:]]
    text = ", ".join([_OR[lang].join(draws)] * bool(draws) + others)
    return text or name


_PLAYERS = {"en": ("player", "players"), "ru": ("игрок", "игрока", "игроков")}


def players_heading(n: int, lang: str) -> str:
    """A column's or a chart group's heading: how many players ("2 players", «2 игрока»)."""
    return f"{n} {plural(n, _PLAYERS[lang], lang, 'report words')}"


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
