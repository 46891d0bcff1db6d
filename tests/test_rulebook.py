"""toolkit rulebook: the PDFs read back (sections, counts, odds, fonts, booklet order), the text
sources checked against each other, and the CLI's paths and errors."""

from __future__ import annotations

import functools
import io
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from conftest import ROOT
from toolkit.catalogue import load
from toolkit.cli import main
from toolkit.errors import UserError
from toolkit.odds.report import answer
from toolkit.rulebook import build_rulebook, variants
from toolkit.rulebook.booklet import sheet_order
from toolkit.plurals import plural
from toolkit.placeholders.facts import Facts, format_number, format_percent
from toolkit.games.palaces.figures import FIRST_PALACE
from toolkit.placeholders.figures import Odds
from toolkit.placeholders.text import PLACEHOLDER
from toolkit.rulebook.markup import check_same_shape, load_source, parse, text_path

# The command's books come through the session's shared books (conftest's ``shared_books``); the
# determinism test below builds its own.
pytestmark = pytest.mark.usefixtures("shared_books")

MM = 72 / 25.4
# Each rulebook is built once for the module, through the CLI: (game, lang, extra options).
BUILDS = {
    "diamoniak-en": ("diamoniak", "en", []),
    "diamoniak-ru": ("diamoniak", "ru", []),
    "diamoniak-ru+en": ("diamoniak", "ru+en", []),
    "palaces-en": ("palaces", "en", []),
    "palaces-ru": ("palaces", "ru", ["--paper", "letter"]),
    "diamoniak-ru-booklet": ("diamoniak", "ru", ["--booklet"]),
    "witch8-en": ("diamoniak", "en", ["--set", "witch=8"]),
    # The designer's sheets: the exact odds and the sampled figures the players' books leave out.
    "diamoniak-en-designer": ("diamoniak", "en", ["--designer"]),
    "diamoniak-ru-designer": ("diamoniak", "ru", ["--designer"]),
    "palaces-en-designer": ("palaces", "en", ["--designer"]),
    "palaces-ru-designer": ("palaces", "ru", ["--designer", "--paper", "letter"]),
    "witch8-en-designer": ("diamoniak", "en", ["--designer", "--set", "witch=8"]),
}


class Built:
    def __init__(self, path: Path, stdout: str):
        self.path, self.stdout = path, stdout
        self.pdf = path.read_bytes()
        self.reader = pypdf.PdfReader(io.BytesIO(self.pdf))
        self.pages = [page.extract_text() for page in self.reader.pages]
        self.text = normalize(" ".join(self.pages))


@functools.cache
def solver(game: str, model: str, *overrides: str) -> dict:
    """The odds module's own answer (computed here, independently of the rulebook's cache)."""
    options = FIRST_PALACE if model == "first-palace" else {}
    return answer(load(game, overrides=list(overrides)), model, **options).data


def normalize(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ")).strip()


@pytest.fixture(scope="module")
def built(shared) -> dict[str, Built]:
    """Each book built once per session (conftest's ``shared``: by the first worker that asks), into
    the session's shared folder, where every worker reads it."""
    runner = CliRunner()
    out = {}
    for key, (game, lang, extra) in BUILDS.items():
        path = shared.folder / f"{key}.pdf"

        def build(game=game, lang=lang, extra=extra, path=path) -> str:
            result = runner.invoke(main, ["rulebook", "--game", game, "--lang", lang, *extra, "--out", str(path)],
                                   catch_exceptions=False)
            assert result.exit_code == 0, result.output
            return result.stdout

        out[key] = Built(path, shared.get(("rulebook command", key, game, lang, *extra), build))
    return out


def headings(game: str, lang: str) -> list[str]:
    return [section.heading.text for section in load_source(game, lang).sections]


# --- the sources -----------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["diamoniak", "palaces"])
def test_both_languages_have_the_same_sections_and_placeholders(game):
    ru, en = load_source(game, "ru"), load_source(game, "en")
    check_same_shape(ru, en)  # raises on any difference
    assert ru.ids == en.ids
    assert {"components", "goal", "setup", "turn", "cards", "end", "variants", "questions", "odds"} <= set(en.ids)
    for a, b in zip(ru.sections, en.sections):
        keys = [Counter(_keys(section)) for section in (a, b)]
        assert keys[0] == keys[1], a.id
    # The optional rules name every variant of the engine, in both languages.
    for source in (ru, en):
        used = {key.partition(":")[2] for section in source.sections for key in _keys(section)
                if key.startswith("variant:")}
        assert used == set(variants(game))


def _keys(section) -> list[str]:
    found = [m.group(1) + ":" + (m.group(2) or "") for m in PLACEHOLDER.finditer(section.heading.text)]
    for block in section.blocks:
        if block.kind in ("cards", "tokens", "figure"):
            found.append(block.kind + ":" + (block.args[0] if block.args else ""))
        for item in block.items:
            for piece in item:
                found += [m.group(1) + ":" + (m.group(2) or "") for m in PLACEHOLDER.finditer(piece.text)]
    return found


def test_a_translation_that_falls_behind_is_an_error():
    en = load_source("diamoniak", "en")
    text = text_path("diamoniak", "ru").read_text(encoding="utf-8")
    fewer = parse(text.replace("{tenths:no_witch_5|раз|раза|раз}", "пять раз"), "diamoniak.ru.md")
    with pytest.raises(UserError, match="differ in section 'odds'"):
        check_same_shape(fewer, en)
    no_faq = parse(re.sub(r"## questions:.*?(?=## odds:)", "", text, flags=re.S), "diamoniak.ru.md")
    with pytest.raises(UserError, match="section 'questions' is missing"):
        check_same_shape(no_faq, en)


SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed texts are not beside the repository")
def test_no_sentence_is_copied_from_the_seed_texts():
    def words(text):
        return re.findall(r"[a-zа-яё0-9]+", text.lower().replace("ё", "е"))

    def runs(text, n=9):
        w = words(text)
        return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}

    seeds = set().union(*(runs(path.read_text(encoding="utf-8")) for path in SEEDS.glob("*.txt")))
    texts = sorted(ROOT.glob("toolkit/games/*/texts/rules.*.md"))
    assert len(texts) >= 4  # two games in two languages at least
    for path in texts:
        shared = runs(path.read_text(encoding="utf-8")) & seeds
        assert not shared, f"{path.name}: {' '.join(next(iter(shared)))}"


# --- the placeholders ------------------------------------------------------------------------------

def test_numbers_and_noun_forms_follow_the_language():
    assert format_number(Fraction(861, 100), "ru") == "8,61"
    assert format_number(Fraction(861, 100), "en") == "8.61"
    assert format_percent(Fraction(7, 54), "ru") == "12,96\u00a0%"
    assert format_percent(Fraction(7, 54), "en") == "12.96%"
    assert format_number(20057, "ru") == "20\u00a0057"
    forms = ["ведьма", "ведьмы", "ведьм"]
    assert [plural(n, forms, "ru", "x") for n in (1, 3, 7, 11, 21, 22, 25)] == \
        ["ведьма", "ведьмы", "ведьм", "ведьм", "ведьма", "ведьмы", "ведьм"]
    assert [plural(n, ["witch", "witches"], "en", "x") for n in (1, 7)] == ["witch", "witches"]
    with pytest.raises(UserError, match="3 noun forms given, en takes 2"):
        plural(2, ["a", "b", "c"], "en", "f.md:3")


def _facts(catalogue, lang="en"):
    return Facts(catalogue, lang, Odds(catalogue), variants(catalogue.game))


def test_placeholders_fill_in_from_the_catalogue():
    catalogue = load("diamoniak", overrides=["witch=8"])
    ru = _facts(catalogue, "ru")
    source = parse("tagline: t\nfacts: f\nfooter: x\nmodified: m\n## a: A\n"
                   "{count:witch|ведьма|ведьмы|ведьм}, {total|карта|карты|карт}, {rule:castle_size}, {name:witch}\n",
                   "probe.ru.md")
    text = ru.markup(source.sections[0].blocks[0].items[0])
    assert text.replace("\u00a0", " ") == "8 ведьм, 55 карт, 6, Ведьма"


@pytest.mark.parametrize("line, message", [
    ("Count: {count:wizard}", r"probe\.en\.md:6: no card with id 'wizard'"),
    ("A {bogus} here", r"probe\.en\.md:6: unknown placeholder \{bogus\}"),
    ("The {odds:luck} of it", r"probe\.en\.md:6: \{odds:luck\}: unknown odds figure 'luck'"),
    ("A {variant:wild-witches} rule", r"probe\.en\.md:6: .*no variant 'wild-witches'"),
    ("Broken {count:witch here", r"probe\.en\.md:6: unknown placeholder \{count:witch here"),
    ("{title|game|games}", r"probe\.en\.md:6: .*only a number takes noun forms"),
])
def test_a_bad_placeholder_names_the_file_and_line(line, message):
    source = parse(f"tagline: t\nfacts: f\nfooter: x\nmodified: m\n## a: A\n{line}\n", "probe.en.md")
    with pytest.raises(UserError, match=message):
        _facts(load("diamoniak")).markup(source.sections[0].blocks[0].items[0])


def test_markup_errors_name_the_line():
    with pytest.raises(UserError, match=r"x\.md:3: duplicate section id 'a'"):
        parse("## a: A\ntext\n## a: B\ntext\n", "x.md")
    with pytest.raises(UserError, match=r"x\.md:1: before the first section"):
        parse("hello\n## a: A\ntext\n", "x.md")
    with pytest.raises(UserError, match=r"x\.md:3: a figure is"):
        parse("tagline: t\n## a: A\n{figure:turns_chart}\n", "x.md")


# --- the PDFs read back ----------------------------------------------------------------------------

def test_cli_prints_path_and_summary(built):
    for key, item in built.items():
        lines = item.stdout.splitlines()
        assert lines[0] == str(item.path) and len(lines) == 2
        assert re.search(r"\d+ (A5 booklet )?pages? ", lines[1])  # a designer's sheet may be "1 page"
    assert "booklet" in built["diamoniak-ru-booklet"].stdout


@pytest.mark.parametrize("key", ["diamoniak-en", "diamoniak-ru", "palaces-en", "palaces-ru"])
def test_every_section_heading_is_printed(built, key):
    game, lang, _ = BUILDS[key]
    for heading in headings(game, lang):
        assert heading in built[key].text, heading


def test_bilingual_rulebook_has_both_languages_in_every_section(built):
    text = built["diamoniak-ru+en"].text
    ru, en = headings("diamoniak", "ru"), headings("diamoniak", "en")
    for a, b in zip(ru, en):
        assert f"{a} / {b}" in text  # one heading in both languages
    positions = [text.index(f"{a} / {b}") for a, b in zip(ru, en)] + [len(text)]
    for start, end in zip(positions, positions[1:]):
        block = text[start:end]
        # Russian first, then English, each block tagged.
        assert "RU" in block and "EN" in block and block.index("RU") < block.index("EN")
    # one card grid, each card captioned in both languages (the English name under the Russian)
    assert text.count("Ведьма ×7") == 1 and "Ведьма ×7 Witch" in text and "Witch ×7" not in text


@pytest.mark.parametrize("key", ["diamoniak-en", "diamoniak-ru", "palaces-en", "palaces-ru", "witch8-en"])
def test_every_card_count_is_printed(built, key):
    game, lang, extra = BUILDS[key]
    catalogue = load(game, overrides=[a for a in extra if "=" in a])
    text = built[key].text
    for card in catalogue.cards:
        assert f"{card.name[lang]} ×{card.count}" in text, card.id
    for token in catalogue.tokens:
        assert f"{token.name[lang]} ×{token.count}" in text
    total = {"en": f"{catalogue.total} cards", "ru": f"{catalogue.total} карт"}[lang]
    assert total in text


def test_set_witch_8_changes_counts_and_odds(built):
    default, eight = built["diamoniak-en"].text, built["witch8-en"].text
    assert "Witch ×7" in default and "7 witches" in default
    assert "Witch ×8" in eight and "8 witches" in eight and "55 cards" in eight
    # the odds moved to the designer's sheet (issue 22), where the changed deck changes them
    default, eight = built["diamoniak-en-designer"].text, built["witch8-en-designer"].text
    assert "7 times in 54" in default and "8 times in 55" in eight
    before = format_number(Fraction(solver("diamoniak", "solo")["expected_turns"]), "en")
    after = format_number(Fraction(solver("diamoniak", "solo", "witch=8")["expected_turns"]), "en")
    assert before != after
    assert f"{after} turns on average" in eight and before not in eight
    first = format_percent(Fraction(8, 55), "en")
    assert f"which is {first}" in eight
    # The catalogue's note (our default composition) is not for players: it is printed in neither.
    assert "7 witches, 3 fairies" not in default and "7 witches, 3 fairies" not in eight


@pytest.mark.parametrize("key, lang", [("diamoniak-en-designer", "en"), ("diamoniak-ru-designer", "ru")])
def test_diamoniak_odds_are_the_solvers(built, key, lang):
    text = built[key].text.replace("\u00a0", " ")
    solo = solver("diamoniak", "solo")
    draws = solver("diamoniak", "draws")

    def pct(p):
        return format_percent(Fraction(p), lang).replace("\u00a0", " ")

    assert format_number(Fraction(solo["expected_turns"]), lang) in text
    assert ("8,61" if lang == "ru" else "8.61") in text
    assert pct(draws["next_kind"]["witch"]) in text
    assert ("12,96 %" if lang == "ru" else "12.96%") in text
    assert pct(solo["p_reshuffle"]) in text
    survival = dict(draws["survival"])
    assert pct(survival[3]) in text and pct(survival[5]) in text


@pytest.mark.parametrize("key, lang", [("palaces-en", "en"), ("palaces-ru", "ru")])
def test_palaces_odds_are_the_solvers(built, key, lang):
    text = built[key + "-designer"].text.replace("\u00a0", " ")
    opening = solver("palaces", "opening")
    for name in ("p_foundation", "p_tower", "p_palace_kinds", "p_palace_kinds_with_tower"):
        assert format_percent(Fraction(opening[name]), lang).replace("\u00a0", " ") in text, name
    simulated = solver("palaces", "first-palace")
    assert not simulated["exact"]
    mean, stderr = simulated["mean_turns"], simulated["stderr_turns"]
    # The designer's sheet gives the simulated figure with its games and its 95% interval, and the
    # rounded to whole turns ("about"); the players' book gives none of them (issue 22).
    assert ("“about" if lang == "en" else "«около") in text
    book = built[key].text.replace("\u00a0", " ")
    for value in (mean, mean - 1.959963984540054 * stderr, mean + 1.959963984540054 * stderr):
        assert format_number(value, lang) in text and format_number(value, lang) not in book


def _fonts(reader) -> dict[str, bool]:
    """Every font the pages use: name -> embedded (a FontFile2 TrueType program)."""
    fonts = {}

    def walk(resources):
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = (font["/DescendantFonts"][0].get_object()["/FontDescriptor"] if font["/Subtype"] == "/Type0"
                          else font.get("/FontDescriptor"))
            descriptor = descriptor.get_object() if descriptor is not None else {}
            fonts[str(font["/BaseFont"])] = "/FontFile2" in descriptor
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form" and "/Resources" in xobject:
                walk(xobject["/Resources"].get_object())

    for page in reader.pages:
        walk(page["/Resources"].get_object())
    return fonts


@pytest.mark.parametrize("key", ["diamoniak-ru", "palaces-ru", "diamoniak-ru-booklet"])
def test_russian_is_cyrillic_in_embedded_fonts(built, key):
    text = built[key].text
    assert len(re.findall(r"[а-яё]", text, flags=re.I)) > 2000
    assert "Цель игры" in text
    fonts = _fonts(built[key].reader)
    assert fonts and all(fonts.values()), fonts  # no standard (unembedded) font anywhere
    assert any("PTSerif-Regular" in name for name in fonts) and any("PTSans-Bold" in name for name in fonts)
    assert all(re.match(r"/[A-Z]{6}\+PT", name) for name in fonts)  # embedded subsets


def test_paper_sizes(built):
    a4 = built["diamoniak-en"].reader.pages[0].mediabox
    letter = built["palaces-ru"].reader.pages[0].mediabox
    assert (round(a4.width / MM), round(a4.height / MM)) == (210, 297)
    assert (round(float(letter.width) / 72, 1), round(float(letter.height) / 72, 1)) == (8.5, 11.0)


def test_pages_are_numbered(built):
    item = built["diamoniak-en"]
    for number, page in enumerate(item.pages, start=1):
        assert re.search(rf"(^|\n){number}\n", page + "\n") or page.strip().startswith(str(number))


@pytest.mark.parametrize("key", ["diamoniak-en", "diamoniak-ru", "palaces-ru", "diamoniak-ru+en"])
def test_no_line_runs_over_its_column(built, key):
    """Every printed character lies inside the text area and out of the gutter between the columns
    (1 pt of tolerance for glyphs such as an italic f that reach past their advance)."""
    pdf = pdfium.PdfDocument(built[key].pdf)
    width, height = pdf[0].get_size()
    left, right, middle, gutter = 16 * MM, width - 16 * MM, width / 2, 7 * MM
    for number, page in enumerate(pdf, start=1):
        text = page.get_textpage()
        for i in range(text.count_chars()):
            x0, y0, x1, _ = text.get_charbox(i)
            if x1 <= x0 or not text.get_text_range(i, 1).strip():
                continue
            where = (key, number, text.get_text_bounded(x0 - 60, y0, x1 + 2, y0 + 8))
            assert left - 1 <= x0 and x1 <= right + 1, where
            if number == 1 and y0 > height - 75 * MM:
                continue  # the full-width title banner
            assert not (middle - gutter / 2 + 1 < x1 and x0 < middle + gutter / 2 - 1), where


@pytest.mark.parametrize("key", ["diamoniak-en", "diamoniak-ru", "palaces-en", "palaces-ru", "diamoniak-ru+en"])
def test_no_column_ends_with_a_heading(built, key):
    """Headings keep with what follows: the last line of every column is never a heading."""
    game, lang, _ = BUILDS[key]
    names = {h for code in lang.split("+") for h in headings(game, code)}
    names |= {f"{a} / {b}" for a, b in zip(headings(game, "ru"), headings(game, "en"))}
    subheads = {piece.text for code in lang.split("+") for section in load_source(game, code).sections
                for block in section.blocks if block.kind == "sub" for piece in block.items[0]
                if "{" not in piece.text}
    pdf = pdfium.PdfDocument(built[key].pdf)
    width, height = pdf[0].get_size()
    for page in pdf:
        text = page.get_textpage()
        for x0, x1 in ((0, width / 2), (width / 2, width)):
            column = text.get_text_bounded(left=x0, bottom=15 * MM, right=x1, top=height)
            lines = [normalize(line) for line in column.splitlines() if normalize(line)]
            if lines:
                assert lines[-1] not in names | subheads, (key, lines[-1])


# --- the booklet -----------------------------------------------------------------------------------

def test_saddle_stitch_order():
    assert sheet_order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert sheet_order(6) == [(None, 1), (2, None), (6, 3), (4, 5)]
    assert sheet_order(12)[:2] == [(12, 1), (2, 11)] and sheet_order(12)[-1] == (6, 7)
    assert sheet_order(4) == [(4, 1), (2, 3)]


def test_booklet_pages_are_imposed_in_order(built):
    item = built["diamoniak-ru-booklet"]
    doc = pdfium.PdfDocument(item.pdf)
    width, height = doc[0].get_size()
    assert (round(width / MM), round(height / MM)) == (297, 210)  # landscape A4
    match = re.search(r"(\d+) A5 booklet pages", item.stdout)
    pages = int(match.group(1))
    order = sheet_order(pages)
    assert len(doc) == len(order) and len(doc) % 2 == 0
    for side, expected in zip(doc, order):
        text = side.get_textpage()
        found = []
        for x0, x1 in ((0, width / 2), (width / 2, width)):
            footer = text.get_text_bounded(left=x0, bottom=0, right=x1, top=14 * MM)
            numbers = re.findall(r"\b\d+\b", footer)
            found.append(int(numbers[0]) if numbers else None)
        # the cover (page 1) carries no number; blank padding pages carry nothing
        assert tuple(found) == tuple(None if n in (None, 1) else n for n in expected)
        if expected[1] == 1:
            right = text.get_text_bounded(left=width / 2, bottom=0, right=width, top=height)
            assert "Замки и ведьмы" in right  # the cover (its own title) is on the right of the first sheet's front


# --- determinism and the command line ---------------------------------------------------------------

def test_same_inputs_give_the_same_bytes(built):
    again = build_rulebook(load("diamoniak"), "en")
    assert again.pdf == built["diamoniak-en"].pdf
    booklet = build_rulebook(load("diamoniak"), "ru", booklet=True)
    assert booklet.pdf == built["diamoniak-ru-booklet"].pdf


def test_default_output_path(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("rulebook", "--lang", "ru+en")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == str(Path("output") / "diamoniak-rules-ru+en.pdf")
    assert (tmp_path / "output" / "diamoniak-rules-ru+en.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("args, message", [
    (["--lang", "de"], "--lang de: choose a language of the deck (en, ru)"),
    (["--paper", "a3"], "Invalid value for '--paper'"),
    (["--set", "wizard=3"], "--set wizard=3: no card with id 'wizard'"),
    (["--set", "witch=-1"], "--set witch=-1"),
    (["--game", "chess"], "Invalid value for '--game'"),
    (["--catalogue", "missing.toml"], "missing.toml"),
])
def test_cli_errors_are_one_line_with_exit_2(run, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = run("rulebook", *args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolkit: error: ") and message in lines[0]
    assert not (tmp_path / "output").exists()


def test_unwritable_output_is_one_line(run, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run("rulebook", "--out", str(blocker / "rules.pdf"))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "cannot write here" in result.stderr


@pytest.mark.parametrize("key, words", [("diamoniak-en-designer", "games out of 100"),
                                        ("diamoniak-ru-designer", "партиях из 100"),
                                        ("witch8-en-designer", "games out of 100")])
def test_the_stopping_tip_is_the_games_played(built, key, words):
    """The designer's sheet quotes the 95% interval, in whole games of 100, of the games in which a player
    stopping after three cards beats one who draws on (both seats), for this very deck; the players' book
    quotes no sampled range (issue 22)."""
    from toolkit.analysis.tip import stop_after_tip
    from toolkit.games.diamoniak.figures import STOPPER

    extra = BUILDS[key][2]
    overrides = [extra[i + 1] for i, arg in enumerate(extra) if arg == "--set"]  # ["witch=8"]
    tip = stop_after_tip(load("diamoniak", overrides=overrides, require_art=False), 3, **STOPPER)
    low, high = tip["low_games"], tip["high_games"]
    assert low < 100 * tip["share"] < high
    shown = f"{low}–{high}" if low != high else f"{low}"
    assert f"{shown} {words}" in built[key].text.replace("\u00a0", " ")
    assert words not in built[key.removesuffix("-designer")].text.replace("\u00a0", " ")
