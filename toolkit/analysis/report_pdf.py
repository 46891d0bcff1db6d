"""The balance report as a PDF of one or two A4 pages: figures, charts, the strategy tables.

Page 1: the figures of each player count side by side, a chart of win rates by seat (with their
intervals and a fair-share line) and one of the length distribution. Page 2 (when there is a
strategy search): the best way to play each seat, and the two-player tournament as a coloured table.
Everything is drawn with reportlab on a canvas built with fixed metadata: same inputs, same bytes.
"""

from __future__ import annotations

import io

from toolkit.analysis.rounding import figure, sign_digits
from toolkit.analysis.report_texts import SKILL_WORDS, TEXTS, describe_policy, figure_name, players_heading
from toolkit.typeset.units import PT_PER_MM

PAGE = (210.0, 297.0)
MARGIN = 15.0
SEAT_COLOURS = ("#1f5fbf", "#d7263d", "#2e9e44", "#f2b705")
INK = "#222222"
GRID = "#cccccc"


def _num(value: float, digits: int, lang: str, way: str = "near") -> str:
    """The number the console's report writes (``rounding.figure``), in the language's way: a decimal
    comma in Russian, a true minus sign."""
    text = figure(value, digits, way)
    return text.replace(".", ",").replace("-", "−") if lang == "ru" else text.replace("-", "−")


def _signed(value: float, digits: int, lang: str, way: str = "near") -> str:
    text = _num(value, digits, lang, way)
    return text if text.startswith("−") else "+" + text


SIGNED_SPAN = {"en": "{low} to {high}", "ru": "от {low} до {high}"}


def _span(low: str, high: str, lang: str) -> str:
    """Two ends of a range: "52.8–53.8"; ends with a sign in words ("−1.8 to −0.7", «от −1,8 до −0,7»),
    where a dash between them would read as one more minus."""
    if low[:1] in "+−-" or high[:1] in "+−-":
        return SIGNED_SPAN[lang].format(low=low, high=high)
    return f"{low}–{high}"


def _range(value, low, high, digits, lang, fmt=None) -> str:
    """A figure and its interval, the ends rounded outward (as the console writes them)."""
    fmt = fmt or (lambda v, way: _num(v, digits, lang, way))
    return f"{fmt(value, 'near')} ({_span(fmt(low, 'down'), fmt(high, 'up'), lang)})"


def _count(n: int, lang: str) -> str:
    return f"{n:,}".replace(",", "\u00a0" if lang == "ru" else ",")


def games_with(games: int, players: int, lang: str) -> str:
    """How many games of how many players ("800 games with 1 player", «800 партий при 2 игроках»)."""
    from toolkit.plurals import plural

    t = TEXTS[lang]
    return t["count_games"].format(games=_count(games, lang), word=plural(games, t["games_word"], lang, "report"),
                                   n=players, players=plural(players, t["players_with"], lang, "report"))


def _pct(value: float | None, lang: str, digits: int = 1, way: str = "near") -> str:
    return "—" if value is None else _num(100 * value, digits, lang, way) + "%"


def _pct_range(value, low, high, lang, digits: int = 1) -> str:
    if value is None or low is None:
        return _pct(value, lang, digits)
    return (f"{_pct(value, lang, digits)} ({_span(_num(100 * low, digits, lang, 'down'), _num(100 * high, digits, lang, 'up'), lang)}%)")


class _Page:
    """A canvas with millimetre helpers and a cursor running down the page."""

    def __init__(self, canvas, fonts):
        self.c, self.fonts = canvas, fonts
        self.y = PAGE[1] - MARGIN

    def text(self, x, y, text, size=8.0, font="label", colour=INK, align="left"):
        c = self.c
        c.setFillColor(colour)
        c.setFont(self.fonts[font], size)
        draw = {"left": c.drawString, "right": c.drawRightString, "centre": c.drawCentredString}[align]
        draw(x * PT_PER_MM, y * PT_PER_MM, text)

    def width(self, text, size=8.0, font="label") -> float:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        return stringWidth(text, self.fonts[font], size) / PT_PER_MM

    def wrap(self, text, size=8.0, font="label", width=PAGE[0] - 2 * MARGIN, leading=1.35) -> None:
        """Set ``text`` as lines no wider than ``width`` from the cursor down."""
        line = ""
        for word in text.split(" "):
            trial = f"{line} {word}".strip()
            if self.width(trial, size, font) > width and line:
                self.y -= size * leading / PT_PER_MM
                self.text(MARGIN, self.y, line, size, font)
                line = word
            else:
                line = trial
        if line:
            self.y -= size * leading / PT_PER_MM
            self.text(MARGIN, self.y, line, size, font)

    def rect(self, x, y, w, h, fill, stroke=None):
        c = self.c
        c.setFillColor(fill)
        if stroke:
            c.setStrokeColor(stroke)
            c.setLineWidth(0.3)
        c.rect(x * PT_PER_MM, y * PT_PER_MM, w * PT_PER_MM, h * PT_PER_MM, fill=1, stroke=1 if stroke else 0)

    def line(self, x1, y1, x2, y2, colour=INK, width=0.4, dash=None):
        c = self.c
        c.setStrokeColor(colour)
        c.setLineWidth(width)
        c.setDash(dash or [])
        c.line(x1 * PT_PER_MM, y1 * PT_PER_MM, x2 * PT_PER_MM, y2 * PT_PER_MM)
        c.setDash([])


def _figure_rows(results, catalogue, lang, race: bool = True):
    """(label, one cell per player count) of the figures table: every estimate with its interval (the
    playing time and the comebacks only with a ``catalogue``, the lead changes only with ``race``)."""
    from toolkit.analysis.analyse import playing_time
    from toolkit.games.registry import get

    t = TEXTS[lang]
    ms = [r.acc.metrics() for r in results]
    rows = []

    def cells(name, fmt):
        return ["—" if m[name] is None else fmt(m[name], m[f"{name}_low"], m[f"{name}_high"]) for m in ms]

    for seat in range(1, max(r.players for r in results) + 1):
        rows.append((t["win_seat"].format(seat=seat), cells(f"win_rate_{seat}", lambda v, lo, hi:
                                                            _pct_range(v, lo, hi, lang))))
    unit = t["pts"]

    def points(v, lo, hi):
        d = sign_digits(100 * v, 100 * lo, 100 * hi)
        return _range(100 * v, 100 * lo, 100 * hi, d, lang, lambda x, way: _signed(x, d, lang, way)) + unit

    rows.append((t["first"], cells("first_player_advantage", points)))
    rows.append((t["balance"], cells("balance", lambda v, lo, hi: _range(v, lo, hi, 3, lang))))
    rows.append((t["completion"], cells("completion", lambda v, lo, hi: _pct_range(v, lo, hi, lang))))
    rows.append((t["rounds"], cells("mean_rounds", lambda v, lo, hi: _range(v, lo, hi, 2, lang))))
    rows.append((t["turns"], cells("mean_turns", lambda v, lo, hi: _range(v, lo, hi, 2, lang))))
    times = [playing_time(catalogue, r.acc) for r in results] if catalogue is not None else []
    if any(times):
        # the box's minutes are in the note under the title, which says what the box counts besides turns
        rows.append((t["minutes"], [f"{_num(x['mean_minutes'], 0, lang)} ({_num(x['p10_minutes'], 0, lang, 'down')}–"
                             f"{_num(x['p90_minutes'], 0, lang, 'up')})" if x else "—" for x in times]))
    if race and any(r.players > 1 for r in results):
        rows.append((t["lead"], cells("lead_changes", lambda v, lo, hi: _range(v, lo, hi, 2, lang))))
    game = get(catalogue.game) if catalogue is not None else None
    if race and game is not None and game.comeback_points is not None and any(r.players > 1 for r in results):
        unit = game.comeback_unit(lang)  # comebacks: in the game's own points
        rows.append((t["comeback"].format(k=game.comeback_points, unit=f" {unit}" if unit else ""),
                     cells("comeback_rate", lambda v, lo, hi: _pct_range(v, lo, hi, lang))))
    return rows


def _title_lines(page: _Page, text: str, width: float, size: float = 8.0) -> list[str]:
    """A chart's title in lines no wider than ``width``."""
    lines, line = [], ""
    for word in text.split(" "):
        trial = f"{line} {word}".strip()
        if page.width(trial, size, "name") > width and line:
            lines.append(line)
            line = word
        else:
            line = trial
    lines.append(line)
    return lines


def _chart_title(page: _Page, x, y, lines: list[str], depth: int, size=8.0):
    """A chart's title: its first line where the first of ``depth`` lines stands whose last is at ``y``,
    so that the titles of two charts side by side start on one line over plots that start on one
    line, whichever takes more lines."""
    for i, part in enumerate(lines):
        page.text(x, y + (depth - 1 - i) * size * 1.3 / PT_PER_MM, part, size, "name")


def _nice_step(top: float) -> float:
    """A tick step for shares up to ``top``: at most five steps of 1, 2, 2.5 or 5 times a power of ten."""
    for step in (0.005, 0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25):
        if top / step <= 5:
            return step
    return 0.25


def _win_chart(page: _Page, results, lang, x0, y0, w, h, depth: int):
    t = TEXTS[lang]
    _chart_title(page, x0, y0 + h + 2, _title_lines(page, t["chart_wins"], w), depth)
    top = max(max((r.acc.metrics()[f"win_rate_{s}_high"] or 0) for s in range(1, r.players + 1)) for r in results)
    top = max(0.1, min(1.0, (int(top * 10) + 1) / 10))
    for k in range(0, 11):
        v = k / 10
        if v > top + 1e-9:
            break
        y = y0 + h * v / top
        page.line(x0, y, x0 + w, y, GRID, 0.2)
        page.text(x0 - 1, y - 1, _pct(v, lang, 0), 7.0, align="right")
    group = w / len(results)
    for g, r in enumerate(results):
        m = r.acc.metrics()
        bar = group * 0.8 / r.players
        left = x0 + g * group + group * 0.1
        for s in range(r.players):
            rate, low, high = (m[f"win_rate_{s + 1}{k}"] for k in ("", "_low", "_high"))
            bx = left + s * bar
            page.rect(bx + bar * 0.1, y0, bar * 0.8, h * rate / top, SEAT_COLOURS[s])
            cx = bx + bar / 2
            page.line(cx, y0 + h * low / top, cx, y0 + h * high / top, INK, 0.5)
        if r.players > 1:
            fair = y0 + h * (1 / r.players) / top
            page.line(left, fair, left + group * 0.8, fair, INK, 0.4, [2, 1.5])
        page.text(x0 + g * group + group / 2, y0 - 4, players_heading(r.players, lang), 7, align="centre")
    page.line(x0, y0, x0 + w, y0, INK, 0.5)
    for s in range(max(r.players for r in results)):
        lx = x0 + s * 20
        page.rect(lx, y0 - 9, 3, 2.5, SEAT_COLOURS[s])
        page.text(lx + 4, y0 - 8.7, t["seat"].format(seat=s + 1), 7)


def _length_chart(page: _Page, results, lang, x0, y0, w, h, depth: int):
    t = TEXTS[lang]
    _chart_title(page, x0, y0 + h + 2, _title_lines(page, t["chart_length"], w), depth)
    series = []
    for r in results:
        counts = r.acc.length_counts("rounds")
        total = sum(counts)
        if total:
            last = int(r.acc.percentiles("rounds")["99"])
            series.append((r.players, [n / total for n in counts[: last + 1]]))
    if not series:
        return
    xmax = max(len(s) - 1 for _, s in series)
    step = _nice_step(max(max(s) for _, s in series))
    ymax = step * -(-max(max(s) for _, s in series) // step)
    for k in range(0, round(ymax / step) + 1):
        y = y0 + h * k * step / ymax
        page.line(x0, y, x0 + w, y, GRID, 0.2)
        page.text(x0 - 1, y - 1, _pct(k * step, lang, 1 if step < 0.01 else 0), 7.0, align="right")
    for k in range(0, xmax + 1, max(1, xmax // 10)):
        page.text(x0 + w * k / xmax, y0 - 4, str(k), 7.0, align="centre")
    page.text(x0 + w, y0 - 8, t["rounds_axis"], 7, align="right")
    colours = ("#1f5fbf", "#d7263d", "#2e9e44", "#7a4fbf")
    for i, (players, shares) in enumerate(series):
        colour = colours[i % 4]
        points = [(x0 + w * r / xmax, y0 + h * v / ymax) for r, v in enumerate(shares)]
        for (a, b), (c, d) in zip(points, points[1:]):
            page.line(a, b, c, d, colour, 0.9)
        page.rect(x0 + i * 22, y0 - 13, 3, 2.5, colour)
        page.text(x0 + i * 22 + 4, y0 - 12.7, players_heading(players, lang), 7)
    page.line(x0, y0, x0 + w, y0, INK, 0.5)


def _heat(value: float | None) -> str | None:
    """A cell's colour: blue above one half, red below, stronger further from it."""
    if value is None:
        return "#eeeeee"
    d = max(-0.5, min(0.5, value - 0.5)) * 2
    base = (0x1f, 0x5f, 0xbf) if d > 0 else (0xd7, 0x26, 0x3d)
    mix = abs(d) * 0.55
    rgb = [round(255 + (c - 255) * mix) for c in base]
    return "#%02x%02x%02x" % tuple(rgb)


def _basis(results, options, lang, game_id: str) -> list[str]:
    """The paragraphs under the title: games, what the brackets are, how precise, who plays what."""
    from toolkit.games.registry import policy_module

    t = TEXTS[lang]
    counts = [games_with(r.acc.games, r.players, lang) for r in results]
    text = [t["basis"].format(games=", ".join(counts[:-1]) + t["and"] * (len(counts) > 1) + counts[-1])]
    points = _num(100 * options["precision"], 1, lang)
    wide = sorted({name for r in results for name in r.wide})
    if wide:
        from toolkit.games.registry import get

        counters = get(game_id).counter_labels.get(lang, {})
        names = [figure_name(name, lang, counters) for name in wide]
        text.append(t["precision_short"].format(names=", ".join(names[:-1]) + t["and"] * (len(names) > 1) + names[-1],
                                                points=points))
    else:
        text.append(t["precision"].format(points=points, twice=_num(2 * options["precision"], 3, lang)))
    widest = max(results, key=lambda r: r.players)
    parse = policy_module(game_id).parse
    usual = parse("default").name
    if all(name == usual for r in results for name in r.policies):
        text.append(t["seats_usual"].format(usual=describe_policy(usual, lang, game_id)))
    else:
        seats = "; ".join(t["seat_plays"].format(seat=i, words=describe_policy(name, lang, game_id))
                          for i, name in enumerate(widest.policies, start=1))
        text.append(t["seats"].format(seats=seats))
    return text


def report_pdf(catalogue, results, rows, tournament, options: dict, lang: str) -> bytes:
    """The report's PDF bytes."""
    from toolkit.analysis.analyse import playing_time
    from toolkit.games.registry import get

    t = TEXTS[lang]
    title = t["title" if rows or tournament else "title_plain"].format(game=catalogue.title[lang])
    times = [playing_time(catalogue, r.acc) for r in results]
    notes = [t["time_note"].format(seconds=catalogue.seconds_per_turn, low=catalogue.minutes[0],
                                   high=catalogue.minutes[1])] if any(times) else []
    paragraphs = _basis(results, options, lang, catalogue.game) + notes
    names = get(catalogue.game).counter_labels.get(lang, {})

    def more(page, canvas):
        if rows or tournament:
            canvas.showPage()
            page.y = PAGE[1] - MARGIN
            _strategy_page(page, catalogue, rows, tournament, options, lang)

    return balance_pdf(title, catalogue.title[lang], paragraphs, results, _figure_rows(results, catalogue, lang),
                       names, lang, more, catalogue=catalogue)


def balance_pdf(title: str, game: str, paragraphs: list[str], results, figure_rows, names: dict, lang: str,
                more=None, catalogue=None, files=()) -> bytes:
    """Page 1 of a report: the title, the paragraphs under it, the figures table of each result, the
    events table (``names``: event -> its words), the win and length charts; ``more(page, canvas)`` adds
    what follows. The metadata's Subject is the first paragraph's first sentence (the games it is read
    from); its Author and dates come from the ``catalogue`` or the rules ``files``."""
    from toolkit.pdf.canvas import binary_streams, new_canvas

    t = TEXTS[lang]
    buffer = io.BytesIO()
    with binary_streams():
        subject = paragraphs[0].split(". ")[0].rstrip(".") + "." if paragraphs else title
        canvas = new_canvas(buffer, PAGE, title, subject, lang=lang, game=game, catalogue=catalogue, files=files)
        from toolkit.typeset.fonts import register_fonts

        page = _Page(canvas, register_fonts())
        page.text(MARGIN, page.y - 5, title, 15, "name")
        page.y -= 8
        for paragraph in paragraphs:
            page.wrap(paragraph, 7.5, "text")
            page.y -= 0.8
        page.y -= 1.2
        first = 58.0
        col = (PAGE[0] - 2 * MARGIN - first) / len(results)
        header = [""] + [players_heading(r.players, lang) for r in results]
        size = 7.5 if len(results) < 3 else 7.0
        _wrapped_table(page, header, [[label] + cells for label, cells in figure_rows], [first] + [col] * len(results),
                       size)
        page.y -= 4
        events = [name[: -len("_per_game")] for name in results[0].acc.metrics() if name.endswith("_per_game")]
        event_rows = []
        for e in events:
            cells = []
            for r in results:
                m = r.acc.metrics()
                key = f"{e}_per_game"
                cells.append("—" if m.get(key) is None else _range(m[key], m[key + "_low"], m[key + "_high"], 3, lang)
                             if m.get(key + "_low") is not None else _num(m[key], 3, lang))
            event_rows.append([names.get(e, e.replace("_", " "))] + cells)
        if event_rows:
            _wrapped_table(page, [t["events"]] + header[1:], event_rows, [first] + [col] * len(results),
                           size=min(size, 7))
        chart_h = 38.0
        bottom = max(MARGIN + 14, page.y - chart_h - 22)
        width = (PAGE[0] - 2 * MARGIN - 20) / 2
        # the two titles start on one line, the plots under them too
        depth = max(len(_title_lines(page, t[key], width - 6)) for key in ("chart_wins", "chart_length"))
        plot_h = min(chart_h, page.y - bottom - 12)
        _win_chart(page, results, lang, MARGIN + 8, bottom, width - 6, plot_h, depth)
        _length_chart(page, results, lang, MARGIN + width + 20, bottom, width - 6, plot_h, depth)
        if more is not None:
            more(page, canvas)
        canvas.showPage()
        canvas.save()
    return buffer.getvalue()


def _strategy_page(page: _Page, catalogue, rows, tournament, options, lang):
    from toolkit.analysis.strategy import strategy_of
    from toolkit.plurals import plural

    t = TEXTS[lang]
    points = _num(100 * options["precision"], 1, lang)
    unit = t["pts"]

    def gain_cell(c):
        d = sign_digits(100 * c["gain"], 100 * c["gain_low"], 100 * c["gain_high"])
        return _range(100 * c["gain"], 100 * c["gain_low"], 100 * c["gain_high"], d, lang,
                      lambda x, way: _signed(x, d, lang, way))

    if rows:
        page.text(MARGIN, page.y - 5, t["strategy"], 11, "name")
        page.y -= 6
        strategy = strategy_of(catalogue.game)
        page.wrap(t["strategy_note"].format(default=describe_policy(strategy.default, lang, catalogue.game),
                                            screen=_count(rows[0]["screen_games"], lang), points=points),
                  7.5, "text")
        searched = strategy.searched_words(rows[0].get("searched") or {}, lang)
        if searched:
            page.wrap(searched, 7.5, "text")
        beaten = [row for row in rows if row["beaten"]]
        places = lambda n: plural(n, t["places"], lang, "report") if "places" in t else ""  # noqa: E731
        usual = len(rows) - len(beaten)
        if usual:
            page.wrap(t["verdict_usual"].format(usual=usual, seats=len(rows), places=places(usual)), 7.5, "text")
        if beaten:
            top = max(beaten, key=lambda row: row["challenger"]["gain"])["challenger"]
            gain = _signed(100 * top["gain"], sign_digits(100 * top["gain"]), lang) + unit
            page.wrap(t["verdict_beaten"].format(beaten=len(beaten), seats=len(rows), places=places(len(beaten)),
                                                 gain=gain).replace("..", "."), 7.5, "text")
        page.y -= 2
        table, edged = [], []
        for row in rows:
            c = row["challenger"]
            mark = "*" if row.get("edges") else ""
            edged += [e["rule"] for e in row.get("edges", [])]
            table.append([str(row["players"]), str(row["seat"]),
                          describe_policy(c["policy"], lang, catalogue.game) + mark,
                          _count(c["games"], lang),
                          _pct_range(c["win_rate"], c["win_rate_low"], c["win_rate_high"], lang),
                          _pct_range(c["default_win_rate"], c["default_win_rate_low"], c["default_win_rate_high"], lang),
                          gain_cell(c), t["best_challenger"] if row["beaten"] else t["best_usual"]])
        widths = [11, 9, 50, 12, 23, 23, 32, 20]  # the gain's signed range in words needs the room
        _wrapped_table(page, [t["col_count"], t["col_seat"], t["col_best"], t["col_games"], t["col_wins"],
                              t["col_usual"], t["col_gain"], t["col_verdict"]],
                       table, widths, size=7.0,
                       colour_of=lambda i, j: "#dbe7f7" if j == 7 and rows[i]["beaten"] else None)
        if edged:
            rules = ", ".join(describe_policy(r, lang, catalogue.game) for r in dict.fromkeys(edged))
            page.wrap(t["edge_note"].format(rules=rules), 7.0, "text")
        page.y -= 6
    if tournament:
        names = tournament["policies"]
        page.text(MARGIN, page.y - 5, t["tournament"], 11, "name")
        page.y -= 6
        reach = _num(100 * tournament["half_width"], 1, lang, "up")
        page.wrap(t["tournament_note"].format(games=_count(tournament["games_per_pair"], lang), reach=reach,
                                              word=plural(tournament["games_per_pair"], t.get("games_word", ("", "")),
                                                          lang, "report")), 7.5, "text")
        first = 62.0
        cell = min(14.0, (PAGE[0] - 2 * MARGIN - first - 16) / len(names))
        header = [""] + [str(i + 1) for i in range(len(names))] + [t["overall"]]
        words = {a: describe_policy(a, lang, catalogue.game) for a in names}
        body = [[f"{i + 1}. {words[a]}"] + [_pct(tournament["table"][a][b], lang, 0) if a != b else "—"
                                            for b in names] + [_pct(tournament["overall"][a], lang)]
                for i, a in enumerate(names)]
        _wrapped_table(page, header, body, [first] + [cell] * len(names) + [16], size=7.0,
                       colour_of=lambda i, j: _heat(tournament["table"][names[i]][names[j - 1]])
                       if 1 <= j <= len(names) and i != j - 1 else None)


def _split(page: _Page, text: str, width: float, size: float) -> list[str]:
    lines, line = [], ""
    for word in text.split(" "):
        trial = f"{line} {word}".strip()
        if page.width(trial, size) > width and line:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + [line]


def _wrapped_table(page: _Page, header, rows, widths, size=7.0, colour_of=None):
    """A table whose cells wrap onto more lines where they are wider than their column, so that no
    text runs into its neighbour's; it starts a little below the cursor, clear of the descenders of
    the line above."""
    step = size * 1.45 / PT_PER_MM
    x0 = MARGIN
    page.y -= 1.2
    heads = [_split(page, text, w - 2, size) for text, w in zip(header, widths)]
    page.y -= step * max(len(h) for h in heads)
    x = x0
    for lines, w in zip(heads, widths):
        for k, line in enumerate(reversed(lines)):
            page.text(x + 1, page.y + 1 + k * step, line, size, "name")
        x += w
    page.line(x0, page.y - 0.6, x0 + sum(widths), page.y - 0.6, width=0.5)
    for i, row in enumerate(rows):
        cells = [_split(page, text, w - 2, size) for text, w in zip(row, widths)]
        height = step * max(len(c) for c in cells)
        top = page.y - 0.6
        page.y -= height
        x = x0
        for j, (lines, w) in enumerate(zip(cells, widths)):
            fill = colour_of(i, j) if colour_of else None
            if fill:
                page.rect(x, top - height, w, height, fill)
            for k, line in enumerate(lines):
                page.text(x + 1, top - (k + 1) * step + 0.9, line, size)
            x += w
        page.line(x0, page.y - 0.6, x0 + sum(widths), page.y - 0.6, GRID, 0.2)


def figures_pdf(rules, result, options: dict, lang: str, skill=None, skill_missing: str | None = None) -> bytes:
    """The report's PDF of a game written as a rules file: the balance page of the built-in games (the same
    figures, charts and events, without what needs a catalogue, playing time, and, when the game keeps no
    score, without lead changes); then, given ``skill`` (``toolkit.rules.skill.section``'s figures), a
    page of how much skill matters (``skill_page``): its words, and a table per seat of three columns
    (the figure, its value, how it is known). None with ``skill_missing``: the reason it is out of reach,
    said in a sentence of page 1."""
    from toolkit.analysis.analyse import scored

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
    if result.policies:  # a game of chance alone: nobody's play to describe
        quoted = "«{}»" if lang == "ru" else "“{}”"
        seats = "; ".join(t["seat_plays"].format(seat=seat, words=quoted.format(name))
                          for seat, name in enumerate(result.policies, start=1))
        paragraphs.append(t["seats"].format(seats=seats))
    if skill is None and skill_missing is not None:
        paragraphs.append(SKILL_WORDS[lang]["missing"])
    title = rules.name + (f" ({', '.join(f'{k} {v}' for k, v in rules.params.items())})" if rules.params else "")
    sheet = skill_page(skill, lang, rules.info().length_unit, bool(getattr(rules, "hidden_information", False))) \
        if skill else None
    spec = rules.spec.strip()
    path = spec[:spec.rindex(".py") + 3] if ".py" in spec else None  # PATH.py[:Class]: the file dates the PDF
    rows = _figure_rows([result], None, lang, race=scored(rules))

    def more(page, canvas):
        canvas.showPage()
        page.y = PAGE[1] - MARGIN
        page.text(MARGIN, page.y - 5, sheet["heading"], 11, "name")
        page.y -= 6
        for paragraph in sheet["paragraphs"]:
            page.wrap(paragraph, 7.5, "text")
            page.y -= 0.8
        for caption, header, body in sheet["tables"]:
            page.y -= 4
            page.text(MARGIN, page.y - 3, caption, 8.5, "name")
            page.y -= 3
            _wrapped_table(page, header, body, [50, 52, 78], size=7.5)

    return balance_pdf(t["title_plain"].format(game=title), title, paragraphs, [result], rows, {}, lang,
                       more if sheet else None, files=[path])


def skill_page(figures, lang: str, unit: str, hidden: bool = False) -> dict:
    """The page of how much skill matters, for designers: {"heading", "paragraphs", "tables": [(caption,
    header, rows)]}, one table per seat: each figure exact, between guaranteed bounds or sampled with its
    95% interval, and the words saying which."""
    from toolkit.plurals import plural
    from toolkit.rules.skill import BOUNDS, EXACT

    w = SKILL_WORDS[lang]
    units = w["units"][unit]
    length = figures[0].objective == "length"
    paragraphs = [w["hidden" if hidden else "perfect"], w["about"]] + \
        ([w["length_note"].format(unit=units)] if length else [])

    def cell(known, scale: float, digits: int, suffix: str = "") -> tuple[str, str]:
        """The figure (a percentage: "93.70% (92.02–95.05%)", as the balance page; a difference in points:
        "6.84 (6.45–7.21) pts") and how it is known."""
        def say(value, way="near"):
            return _num(scale * float(value), digits, lang, way)
        if known.how == EXACT:
            return say(known.value) + suffix, w["exact"]
        span = f"{say(known.low, 'down')}–{say(known.high, 'up')}"
        if known.how == BOUNDS:
            return span + suffix, w["bounds"]
        sampled = w["sampled"].format(n=_count(known.sequences, lang),
                                      word=plural(known.sequences, w["sequences"], lang, "report"))
        if suffix == "%":
            return f"{say(known.value)}% ({span}%)", sampled
        return f"{say(known.value)} ({span}){suffix}", sampled

    tables = []
    for seat in figures:
        result = (1.0, 2, "") if length else (100.0, 2, "%")
        effect = (1.0, 2, "") if length else (100.0, 2, w["points"])
        rows = [cell(seat.beginner, *result), cell(seat.optimal, *result)]
        if seat.clairvoyant is None:
            rows.append((w["out_of_reach"], w["out_of_reach_how"]))
        else:
            rows.append(cell(seat.clairvoyant, *result))
        rows.append(cell(seat.learning, *effect))
        if seat.clairvoyant is not None:
            rows.append(cell(seat.chance, *effect))
            relative = seat.relative
            rows.append(cell(relative, 1.0, 3) if relative is not None else (w["undefined"], w["undefined_how"]))
        header = ["", w["length"].format(unit=units) if length else w["win"], w["how"]]
        tables.append((w["caption"].format(seat=seat.seat + 1), header,
                       [[label, *row] for label, row in zip(w["rows"], rows)]))
    return {"heading": w["heading"], "paragraphs": paragraphs, "tables": tables}
