"""The player aid: its words (placeholders from the catalogue, both languages in step, nothing but
the game), its fit on the card at every size, and where it is printed and exported: after the
cards on the print-and-play sheets with its back behind it, and in the png, tts and pdf-single
exports."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import ROOT, builtin_doc, write_catalogue
from test_print_cards import card_rects, page_texts
from toolkit.catalogue import load
from toolkit.cards.render import CARD_SIZES
from toolkit.games.registry import variants as engine_variants
from toolkit.print import print_cards
from toolkit.print.aids import aid_text, layout_aid, text_file
from toolkit.print.export import export_cards
from toolkit.typeset.fonts import font_metrics
from toolkit.typeset.units import PT_PER_MM

GAMES = ("diamoniak", "palaces")
LANGS = ("ru", "en")
AID_FORM = "card-player_aid"
AID_BACK_FORM = "card-player_aid_back"
WEATHERVANE = ROOT / "examples" / "weathervane" / "weathervane.toml"


def differs(one, other) -> bool:
    """Two pictures differ visibly: their mean difference per channel is over 8 of 255."""
    import numpy as np

    a, b = (np.asarray(Image.open(p).convert("RGB"), dtype=float) for p in (one, other))
    return a.shape == b.shape and float(np.abs(a - b).mean()) > 8


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ")).strip()


def words_of(catalogue, lang) -> str:
    text = aid_text(catalogue, lang)
    return norm(" ".join([text.title] + ["".join(t for t, _ in e.runs) for e in text.entries]))


# --- the words ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_both_languages_have_the_same_lines_and_placeholders(game):
    shapes = []
    for lang in LANGS:
        source = text_file(game, lang).read_text(encoding="utf-8")
        lines = [line for line in source.splitlines() if line.strip() and not line.startswith("%%")]
        kinds = [re.match(r"(title:|## |\d+\. |- |)", line).group(1)[:2] for line in lines]
        keys = [m.group(1) for line in lines for m in re.finditer(r"\{([a-z_]+(?::[a-z0-9_-]+)?)", line)]
        shapes.append((kinds, keys))
    assert shapes[0] == shapes[1]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_numbers_and_names_come_from_the_catalogue(tmp_path, game, lang):
    doc = builtin_doc(game)
    rule = "price" if game == "diamoniak" else "hand_size"
    doc["rules"][rule] = 4
    named = "diamond" if game == "diamoniak" else "flood"
    card = next(c for c in doc["cards"] if c["id"] == named)
    card["name"] = {"ru": "Наводнище", "en": "Deluge"} if game == "palaces" else {"ru": "Алмазик", "en": "Gem"}
    changed = load(path=write_catalogue(tmp_path, doc), require_art=False)
    text, default = words_of(changed, lang), words_of(load(game), lang)
    four = {"diamoniak": {"ru": "4 бриллианта", "en": "4 diamonds"}, "palaces": {"ru": "из колоды до 4 карт.", "en": "4 cards"}}
    assert four[game][lang] in text and four[game][lang] not in default
    assert card["name"][lang] in text and card["name"][lang] not in default
    assert "{" not in text and "}" not in text


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_aid_speaks_to_players_only(game, lang):
    text = words_of(load(game), lang).lower()
    for word in ("toolkit", "program", "simulat", "engine", "catalogue", "variant", "программ", "симул",
                 "вариант", "каталог", "источник", "source"):
        assert word not in text, word
    for variant in engine_variants(game):
        assert variant not in text
    if lang == "ru":
        assert not re.search(r"\bвы\b|\bвас\b|\bваш", text)  # the game's voice is ты
        assert re.search(r"\bты\b|\bтвой\b|\bтебя\b", text)


SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed texts are not beside the repository")
def test_no_run_of_nine_words_from_the_seed_texts():
    def runs(text, n=9):
        w = re.findall(r"[a-zа-яё0-9]+", text.lower().replace("ё", "е"))
        return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}

    seeds = set().union(*(runs(path.read_text(encoding="utf-8")) for path in SEEDS.glob("*.txt")))
    texts = sorted(ROOT.glob("toolkit/games/*/texts/aid.*.md"))
    assert len(texts) >= 4  # two games in two languages at least
    for path in texts:
        assert not runs(path.read_text(encoding="utf-8")) & seeds, path.name


# --- the fit ------------------------------------------------------------------------------------------


def inside(lines, card_mm) -> bool:
    w, h = card_mm
    for line in lines:
        ascent, descent = font_metrics(line.font)
        if not (0 <= line.x - line.width / 2 and line.x + line.width / 2 <= w + 1e-6
                and 0 <= line.y - ascent * line.size and line.y + descent * line.size <= h + 1e-6):
            return False
    return True


SMALLEST_MM = 7.5 / 72 * 25.4


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", ["poker", "bridge", "tarot"])
def test_the_whole_text_fits_the_card_at_one_readable_size(game, lang, size):
    """Every word on the card, on one side or both, the body at one size on both sides, never under 7.5 pt."""
    card_mm = CARD_SIZES[size]
    text = aid_text(load(game), lang)
    laid = layout_aid(text, card_mm)
    assert all(inside(side, card_mm) for side in laid.sides)
    shown = norm(" ".join(line.text for side in laid.sides for line in side))
    for entry in text.entries:  # every word is on the card
        for word in norm("".join(t for t, _ in entry.runs)).split(" "):
            assert word in shown
    body = {round(line.size, 6) for side in laid.sides for line in side[1:] if line.font == "text"}
    assert body == {round(laid.size, 6)} and laid.size >= SMALLEST_MM - 1e-9
    assert min(line.size for side in laid.sides for line in side) >= SMALLEST_MM - 1e-9


def test_the_built_in_aids_go_on_to_the_back_of_a_poker_card():
    """At 7.5 pt the built-in aids no longer fit one side of a poker card: the text goes on to its
    back, split where the text can be set largest (the editor found the front half empty when it was
    always split before a heading), and a heading never ends a side."""
    for game in GAMES:
        for lang in LANGS:
            laid = layout_aid(aid_text(load(game), lang), CARD_SIZES["poker"])
            assert laid.two_sided, (game, lang)
            first_side = [line for line in laid.sides[0][1:]]
            last = max(first_side, key=lambda line: (line.y, line.x))
            assert not (last.font == "name" and last.size > laid.size)  # no heading ends the front
            assert laid.size * PT_PER_MM >= 7.9, (game, lang, laid.size * PT_PER_MM)


def test_an_aid_too_long_for_the_card_is_refused_in_one_line_never_cut(run, tmp_path):
    doc = builtin_doc("diamoniak")
    long_text = "title: Player aid\n" + "\n".join(f"- A rule that goes on and on, number {i}." for i in range(60))
    (tmp_path / "aid.en.md").write_text(long_text, encoding="utf-8")
    doc["game"]["aid"] = {"en": "aid.en.md"}
    path = write_catalogue(tmp_path, doc, with_art=False)
    out = tmp_path / "cards.pdf"
    result = run("print-cards", "--catalogue", str(path), "--lang", "en", "--out", str(out))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and not out.exists(), result.stderr
    line = result.stderr
    assert "aid.en.md" in line and "player aid" in line and "poker 63 x 88 mm" in line and "7.5 pt" in line
    assert "Traceback" not in line and "--no-aids" in line
    # the built-in aids do not fit a mini card at 7.5 pt: printed at poker size on sheets of their own
    result = run("print-cards", "--card", "mini", "--out", str(out))
    assert result.exit_code == 0 and "4 player aids (poker 63 x 88 mm, on sheets of their own" in result.stdout
    # an aid too long for poker too is refused beside mini cards as well
    result = run("print-cards", "--catalogue", str(path), "--lang", "en", "--card", "mini", "--out", str(out))
    assert result.exit_code == 2 and "poker 63 x 88 mm" in result.stderr and "7.5 pt" in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("game", ["diamoniak", "palaces"])
@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("size", ["poker", "bridge", "tarot"])
def test_the_aid_is_set_as_large_as_still_fits(game, lang, size):
    """The text fills the card: its fuller side's last line ends near the foot, unless the size is capped."""
    from toolkit.print import aids

    card = CARD_SIZES[size]
    laid = aids.layout_aid(aids.aid_text(load(game), lang), card)
    foot = max(line.y + font_metrics(line.font)[1] * line.size for side in laid.sides for line in side[1:])
    title = laid.sides[0][0]
    capped = laid.size >= 0.99 * min(title.size * 0.8, aids.LARGEST * card[0])
    assert foot <= card[1]
    assert capped or foot > card[1] * 0.8, (game, lang, size, foot / card[1])


# --- print-cards ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def diamoniak():
    return load("diamoniak")


def test_print_cards_puts_one_aid_per_player_after_the_cards(diamoniak):
    plain = print_cards(diamoniak)
    result = print_cards(diamoniak, aids=True)
    reader = PdfReader(io.BytesIO(result.pdf))
    assert result.aids == diamoniak.players[1] == 4
    assert (len(PdfReader(io.BytesIO(plain.pdf)).pages), len(reader.pages)) == (12, 14)
    assert result.summary().startswith("54 cards and 4 player aids on 7 sheets, 14 pages")
    fronts = card_rects(reader, 12)
    assert [name for name, _ in fronts] == [AID_FORM] * 4
    assert all(AID_FORM not in name for i in range(12) for name, _ in card_rects(reader, i))
    # the backs behind the aids: the aid's own back (never the deck's), where each aid's back lands
    # after a long-edge flip
    backs = card_rects(reader, 13)
    assert [name for name, _ in backs] == [AID_BACK_FORM] * 4
    assert all(name == "back" for i in range(1, 12, 2) for name, _ in card_rects(reader, i))
    expected = sorted((r.x, r.y) for r in (result.layout.back_of(p.rect) for p in result.pages[12].cards))
    got = sorted((x0, y0) for _, (x0, y0, _, _) in backs)
    assert len(expected) == 4 and all(abs(a[0] - b[0]) < 0.1 and abs(a[1] - b[1]) < 0.1 for a, b in zip(expected, got))
    text = page_texts(result.pdf)
    assert "Player aid" in text[12] and "On your turn" in text[12]
    assert not any("Player aid" in page for page in page_texts(plain.pdf))


def test_aids_share_the_last_sheet_of_cards_and_fit_mini_cards(tmp_path):
    palaces = load("palaces")
    result = print_cards(palaces, lang="ru", aids=True)
    assert result.card_sheets == 9 and result.aids == 4  # 70 cards leave 2 places on the 8th sheet
    reader = PdfReader(io.BytesIO(result.pdf))
    names = [name for name, _ in card_rects(reader, 14)]
    assert len(names) == 9 and names[-2:] == [AID_FORM] * 2 and AID_FORM not in names[:-2]
    assert [name for name, _ in card_rects(reader, 16)] == [AID_FORM] * 2
    # With no backs printed, the aid's second side is printed as a card of its own after each aid.
    fronts = print_cards(palaces, lang="ru", aids=True, duplex="none")
    reader = PdfReader(io.BytesIO(fronts.pdf))
    names = [name for i in range(len(reader.pages)) for name, _ in card_rects(reader, i)]
    assert names[70:] == [AID_FORM, AID_BACK_FORM] * 4 and len(names) == 78


def test_cli_prints_aids_by_default_and_leaves_them_out_on_request(run, tmp_path):
    out = tmp_path / "cards.pdf"
    result = run("print-cards", "--set", "witch=1", "--set", "diamond=2", "--duplex", "none", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "30 cards and 4 player aids on 5 sheets, 5 pages" in result.output  # each aid printed on two cards
    assert any("Player aid" in page for page in page_texts(out.read_bytes()))
    result = run("print-cards", "--set", "witch=1", "--set", "diamond=2", "--duplex", "none", "--no-aids",
                 "--out", str(out))
    assert result.exit_code == 0 and "30 cards on 4 sheets, 4 pages" in result.output
    assert not any("Player aid" in page for page in page_texts(out.read_bytes()))


def test_a_catalogue_without_a_card_the_aid_names_is_one_line(run, tmp_path):
    doc = builtin_doc("diamoniak")
    next(c for c in doc["cards"] if c["id"] == "fairy")["id"] = "good-fairy"
    path = write_catalogue(tmp_path, doc, with_art=False)  # the shipped art
    out = tmp_path / "cards.pdf"
    result = run("print-cards", "--catalogue", str(path), "--out", str(out))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and not out.exists()
    assert "no card with id 'fairy'" in result.stderr and "--no-aids" in result.stderr
    assert run("print-cards", "--catalogue", str(path), "--no-aids", "--out", str(out)).exit_code == 0


# --- export-cards ---------------------------------------------------------------------------------------


SMALL = ["castle-red=1", "castle-blue=1", "castle-green=0", "castle-yellow=0", "diamond=1", "witch=1", "fairy=0"]


@pytest.fixture(scope="module")
def small():
    return load("diamoniak", overrides=SMALL)


def test_png_export_has_the_aid_and_its_manifest_row(tmp_path, small):
    export_cards(small, "png", tmp_path / "out", lang="ru", aids=True)
    aid = Image.open(tmp_path / "out/player_aid-ru.png")
    assert aid.size == Image.open(tmp_path / "out/back.png").size == (815, 1110)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out/manifest.csv").read_text(encoding="utf-8"))))
    assert rows[-2:] == [
        {"file": "player_aid-ru.png", "card_id": "player_aid", "count": "4", "name": "Памятка игрока",
         "side": "face", "back": "player_aid_back-ru.png"},
        {"file": "player_aid_back-ru.png", "card_id": "player_aid_back", "count": "4", "name": "Памятка игрока",
         "side": "back", "back": ""}]
    assert next(r for r in rows if r["card_id"] == "back")["count"] == str(small.total)
    assert differs(tmp_path / "out/player_aid_back-ru.png", tmp_path / "out/back.png")
    export_cards(small, "png", tmp_path / "plain", lang="ru")
    assert not list((tmp_path / "plain").glob("player_aid*"))


def test_tts_export_has_the_aids_as_a_deck_of_their_own(tmp_path, small):
    export_cards(small, "tts", tmp_path / "tts", lang="en", aids=True)
    saved = json.loads((tmp_path / "tts/diamoniak-en.json").read_text(encoding="utf-8"))
    deck, aids = saved["ObjectStates"]
    assert len(deck["ContainedObjects"]) == small.total
    assert [card["Nickname"] for card in aids["ContainedObjects"]] == ["Player aid"] * 4
    url = aids["ContainedObjects"][0]["CustomDeck"]["2"]["FaceURL"]
    name = "diamoniak-en-player_aid.png"
    assert url.endswith(f"/{name}") and Path(url.removeprefix("file://")).name == name
    assert (tmp_path / "tts" / name).exists()


def test_pdf_single_ends_with_the_aid_pages(tmp_path, small):
    export_cards(small, "pdf-single", tmp_path / "pdf", lang="en", aids=True)
    data = (tmp_path / "pdf/diamoniak-cards-en.pdf").read_bytes()
    texts = page_texts(data)
    assert len(texts) == 2 * (small.total + 4)
    aid_pages = [i for i, page in enumerate(texts) if "Player aid" in page]
    # each aid followed by its own back: the rest of its text (both sides carry its title)
    assert aid_pages == list(range(2 * small.total, 2 * small.total + 8))
    assert "On your turn" in texts[2 * small.total] and "The winner" in texts[2 * small.total + 1]


def test_cli_export_takes_the_option(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["export-cards", "--target", "png", *[x for o in SMALL for x in ("--set", o)]]
    assert run(*args).exit_code == 0
    assert (tmp_path / "output/diamoniak-png-en/player_aid-en.png").exists()
    assert run(*args, "--no-aids").exit_code == 0
    assert not (tmp_path / "output/diamoniak-png-en/player_aid-en.png").exists()


def font_sizes(page) -> list[float]:
    """The size in points of every run of text on a PDF page, as pypdf reads it back (forms too)."""
    import math

    sizes = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            sizes.append(size * math.hypot(tm[2], tm[3]) * math.hypot(cm[2], cm[3]))

    page.extract_text(visitor_text=visit)
    return sizes


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_no_text_on_an_aid_or_its_back_is_under_7_5_pt(tmp_path, game, lang):
    catalogue = load(game)
    export_cards(catalogue, "pdf-single", tmp_path / "pdf", lang=lang, aids=True)
    reader = PdfReader(io.BytesIO((tmp_path / f"pdf/{game}-cards-{lang}.pdf").read_bytes()))
    first = 2 * catalogue.total  # the aids and their backs come after the cards
    sizes = [size for page in reader.pages[first:first + 2 * catalogue.players[1]] for size in font_sizes(page)]
    assert sizes and min(sizes) >= 7.5, min(sizes)


@pytest.mark.parametrize("target", ["png", "tts", "screentop", "tgc"])
def test_a_short_aid_gets_a_plain_back_of_its_own(tmp_path, target):
    """The example game's aid fits one side: its back is the aid's own plain paper and band, "Player
    aid" in the band and the game's title in the middle, visibly not the card back (a band stamped
    across the deck's back art looked like a printing fault: the editor's finding 19)."""
    import numpy as np

    catalogue = load(path=WEATHERVANE)
    export_cards(catalogue, target, tmp_path / target, lang="en", aids=True)
    folder = tmp_path / target
    aid_back = next(p for p in folder.glob("*player_aid_*.png") if "back" in p.name or "reverse" in p.name)
    back = next(p for p in folder.glob("*back.png") if "player_aid" not in p.name)
    assert differs(aid_back, back)
    a, b = (np.asarray(Image.open(p).convert("RGB"), dtype=float) for p in (aid_back, back))
    # light all over (the deck's back is dark navy), the band at the top a little darker than the paper
    assert a.mean() > 200 > b.mean()
    rows = a.mean(axis=(1, 2))
    assert rows[len(rows) // 20: len(rows) // 10].mean() < rows[len(rows) // 4: len(rows) // 3].mean()


def test_a_short_aid_has_its_marked_back_behind_it_on_the_sheets():
    catalogue = load(path=WEATHERVANE)
    result = print_cards(catalogue, lang="en", aids=True)
    reader = PdfReader(io.BytesIO(result.pdf))
    names = [[name for name, _ in card_rects(reader, i)] for i in range(len(reader.pages))]
    fronts = [i for i, page in enumerate(names) if AID_FORM in page]
    assert fronts and all(AID_BACK_FORM in names[i + 1] for i in fronts)
    assert sum(page.count(AID_BACK_FORM) for page in names) == catalogue.players[1]
    back_text = page_texts(result.pdf)[fronts[-1] + 1]
    assert "Player aid" in back_text


@pytest.mark.parametrize("game, lang, says, never", [
    ("diamoniak", "en", ["if you build a colour", "if you have no castle yet", "if you have fewer"], ["you have a colour,"]),
    ("diamoniak", "ru", ["если ты строишь замок", "если у тебя ещё нет замка", "если их меньше"], ["у тебя есть свой цвет"]),
    ("palaces", "en", ["|unfinished palaces} at a time", "clearing takes no card"], ["(no card needed)"]),
    ("palaces", "ru", ["|недостроенных дворцов} сразу", "для этого карта не нужна"], ["(карта не нужна)"]),
])
def test_the_aid_says_it_as_the_rules_do(game, lang, says, never):
    """An editor's findings (issue 37): the aid said "you have a colour" where the rules say you build
    one, and "(no card needed)" read as if laying ruins took no card."""
    from toolkit.games.registry import get

    text = get(game).text_file("aid", lang).read_text(encoding="utf-8")
    assert all(words in text for words in says) and not any(words in text for words in never)
