"""print-cards, checked from the PDF itself: pages and their size, duplex modes, card names in both
languages, where each front and each back is drawn (parsed from the content streams), crop marks,
images embedded once, tokens, determinism, the CLI; and a rendered page compared with where the
cards should be."""

from __future__ import annotations

import io
import re
from collections import Counter

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from toolkit.catalogue import load
from toolkit.print import print_cards
from toolkit.print.layout import crop_marks
from toolkit.typeset.units import PT_PER_MM
from conftest import drawing, transform as _apply

TOL = 0.1  # mm
A4_PT = (595.28, 841.89)
LETTER_PT = (612.0, 792.0)


# --- reading the PDF ---------------------------------------------------------------------------------


def page_drawing(reader: PdfReader, index: int):
    """What page ``index`` draws at its own level: forms as (name, matrix) and stroked line segments
    in mm, from its content stream."""
    segments, _, forms = drawing(reader, index)
    return forms, segments


def card_rects(reader: PdfReader, index: int, card_mm=(63, 88)):
    """(form name, (x0, y0, x1, y1) in mm of the card's trim) for every card drawn on a page."""
    forms, _ = page_drawing(reader, index)
    w, h = (v * PT_PER_MM for v in card_mm)
    result = []
    for name, m in forms:
        if not (name.startswith("card-") or name == "back"):
            continue
        corners = [_apply(m, x, y) for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
        xs, ys = [p[0] / PT_PER_MM for p in corners], [p[1] / PT_PER_MM for p in corners]
        result.append((name, (min(xs), min(ys), max(xs), max(ys))))
    return result


def image_objects(reader: PdfReader) -> list:
    images = []
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(number)
        except Exception:
            continue
        if hasattr(obj, "get") and obj.get("/Subtype") == "/Image":
            images.append(obj)
    return images


def page_texts(data: bytes) -> list[str]:
    doc = pdfium.PdfDocument(data)
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def text_lines(text: str) -> list[str]:
    return [line.strip() for line in re.split(r"[\r\n]+", text) if line.strip()]


def near(a, b, tol=TOL) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


# --- the PDFs under test, each made once ---------------------------------------------------------------


@pytest.fixture(scope="module")
def diamoniak():
    return load("diamoniak")


@pytest.fixture(scope="module")
def made(diamoniak):
    cache = {}

    def make(game="diamoniak", overrides=(), **options):
        key = (game, tuple(overrides), tuple(sorted(options.items())))
        if key not in cache:
            catalogue = diamoniak if game == "diamoniak" and not overrides else load(game, overrides=overrides)
            result = print_cards(catalogue, **options)
            cache[key] = (result, PdfReader(io.BytesIO(result.pdf)))
        return cache[key]

    return make


# --- pages ---------------------------------------------------------------------------------------------


def test_default_is_a4_duplex_long_nine_cards_a_sheet(made):
    result, reader = made()
    assert len(reader.pages) == 12 and result.card_sheets == 6 and result.cards == 54
    for page in reader.pages:
        assert near((float(page.mediabox.width), float(page.mediabox.height)), A4_PT, 0.01)
    fronts = [card_rects(reader, i) for i in range(0, 12, 2)]
    assert [len(f) for f in fronts] == [9] * 6
    assert all(name == "back" for i in range(1, 12, 2) for name, _ in card_rects(reader, i))
    assert result.summary().startswith("54 cards on 6 sheets, 12 pages: 3 x 3 poker 63 x 88 mm cards per A4")


def test_every_card_as_often_as_the_catalogue_counts_it(made, diamoniak):
    result, reader = made()
    drawn = Counter(name for i in range(0, len(reader.pages), 2) for name, _ in card_rects(reader, i))
    assert drawn == Counter({f"card-{card.id}": card.count for card in diamoniak.cards})
    assert sum(drawn.values()) == 54


def test_cards_at_their_exact_size(made):
    for options, size in (({}, (63, 88)), ({"card_mm": (57, 89)}, (57, 89)), ({"card_mm": (70, 120)}, (70, 120))):
        _, reader = made(**options)
        for _, (x0, y0, x1, y1) in card_rects(reader, 0, size):
            assert abs((x1 - x0) - size[0]) < 0.01 and abs((y1 - y0) - size[1]) < 0.01


def test_letter_paper(made):
    result, reader = made(paper="letter", lang="ru", duplex="short")
    assert len(reader.pages) == 12
    for page in reader.pages:
        assert near((float(page.mediabox.width), float(page.mediabox.height)), LETTER_PT, 0.01)


@pytest.mark.parametrize("duplex, pages, orientation", [("none", 6, "portrait"), ("fold", 14, "landscape")])
def test_duplex_none_and_fold_page_counts(made, duplex, pages, orientation):
    result, reader = made(duplex=duplex)
    assert len(reader.pages) == pages
    width, height = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    assert (width > height) == (orientation == "landscape")
    names = [name for i in range(len(reader.pages)) for name, _ in card_rects(reader, i)]
    assert names.count("back") == (0 if duplex == "none" else 54)
    assert len(names) - names.count("back") == 54


# --- text ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, options",
    [("diamoniak", {}), ("diamoniak", {"lang": "ru", "paper": "letter", "duplex": "short"}),
     ("palaces", {"lang": "ru"})],
)
def test_card_names_are_text_in_the_pdf(made, game, options):
    lang = options.get("lang", "en")
    result, reader = made(game, **options)
    catalogue = load(game)
    lines = Counter(line for text in page_texts(result.pdf) for line in text_lines(text))
    for card in catalogue.cards:
        assert lines[card.name[lang]] == card.count, card.id
    if lang == "ru":
        assert lines["Красный замок" if game == "diamoniak" else "Красный этаж"] == 6


def test_fonts_are_embedded_subsets(made):
    _, reader = made(lang="ru", paper="letter", duplex="short")
    fonts = []
    for number in range(1, int(reader.trailer["/Size"])):
        obj = reader.get_object(number)
        if hasattr(obj, "get") and obj.get("/Type") == "/Font" and obj.get("/Subtype") != "/Type0":
            fonts.append(obj)
    assert fonts
    for font in fonts:
        descriptor = font["/FontDescriptor"]
        assert "/FontFile2" in descriptor, font["/BaseFont"]
        assert re.fullmatch(r"/[A-Z]{6}\+PT(Sans|Serif)-\w+", str(font["/BaseFont"])), font["/BaseFont"]


# --- duplex geometry, from the PDF ---------------------------------------------------------------------


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_each_back_lies_behind_its_front(made, duplex):
    """52 cards (fairy=1): the last sheet holds 7 of 9, an asymmetric grid."""
    result, reader = made("diamoniak", ("fairy=1",), duplex=duplex, gutter=2.0, bleed=0.5)
    W, H = result.layout.page
    assert len(reader.pages) == 12
    for sheet in range(6):
        fronts = card_rects(reader, 2 * sheet)
        backs = card_rects(reader, 2 * sheet + 1)
        assert len(fronts) == len(backs) == (7 if sheet == 5 else 9)
        for (_, f), (name, b) in zip(fronts, backs):
            assert name == "back"
            if duplex == "long":   # turned over the long edge: x mirrors
                assert near(b, (W - f[2], f[1], W - f[0], f[3]))
            else:                  # turned over the short edge: y mirrors
                assert near(b, (f[0], H - f[3], f[2], H - f[1]))
    # Slot by slot: the back of (r, c) is at (r, cols-1-c) or (rows-1-r, c).
    grid = result.layout.grid
    fronts, backs = card_rects(reader, 10), card_rects(reader, 11)
    front_at = {(round(r[0], 1), round(r[1], 1)): i for i, (_, r) in enumerate(card_rects(reader, 0))}
    for i, (_, b) in enumerate(backs):
        r, c = divmod(i, grid.cols)
        target = (r, grid.cols - 1 - c) if duplex == "long" else (grid.rows - 1 - r, c)
        slot = front_at[(round(b[0], 1), round(b[1], 1))]  # a full sheet's front slots, by position
        assert divmod(slot, grid.cols) == target


def test_fold_backs_mirror_about_the_fold_line(made):
    result, reader = made(duplex="fold")
    fold = result.layout.fold
    _, segments = page_drawing(reader, 0)
    assert any(abs(s[0] - fold.x0) < TOL and abs(s[2] - fold.x0) < TOL for s in segments)  # the fold line
    rects = card_rects(reader, 0)
    fronts = [r for name, r in rects if name != "back"]
    backs = [r for name, r in rects if name == "back"]
    assert len(fronts) == len(backs) == 4
    for f, b in zip(fronts, backs):
        assert f[2] < fold.x0 < b[0]
        assert near(b, (2 * fold.x0 - f[2], f[1], 2 * fold.x0 - f[0], f[3]))


def test_crop_marks_in_the_pdf(made):
    result, reader = made("diamoniak", ("fairy=1",), duplex="long", gutter=2.0, bleed=0.5)
    for index in (0, 10):
        fronts = [r for _, r in card_rects(reader, index)]
        _, segments = page_drawing(reader, index)
        marks = [s for s in segments]
        xs = {round(v, 1) for r in fronts for v in (r[0], r[2])}
        ys = {round(v, 1) for r in fronts for v in (r[1], r[3])}
        assert {round(s[0], 1) for s in marks if abs(s[0] - s[2]) < 1e-6} == xs
        assert {round(s[1], 1) for s in marks if abs(s[1] - s[3]) < 1e-6} == ys
        bleed = 0.5
        for s in marks:
            lo_x, hi_x, lo_y, hi_y = min(s[0], s[2]), max(s[0], s[2]), min(s[1], s[3]), max(s[1], s[3])
            for r in fronts:  # never over a card or its bleed
                assert hi_x < r[0] - bleed or lo_x > r[2] + bleed or hi_y < r[1] - bleed or lo_y > r[3] + bleed
            assert 5 - TOL <= lo_x and hi_x <= 210 + TOL - 5 and 5 - TOL <= lo_y and hi_y <= 297 + TOL - 5
        expected = crop_marks(result.layout, [p.rect for p in result.pages[index].cards])
        assert len(marks) == len(expected)
    # No marks on the backs, none at all with --no-crop-marks.
    assert page_drawing(reader, 1)[1] == []
    _, plain = made("diamoniak", ("fairy=1",), duplex="long", gutter=2.0, bleed=0.5, crop=False)
    assert page_drawing(plain, 0)[1] == []


# --- images, size, determinism ---------------------------------------------------------------------------


def test_each_art_image_embedded_once(made, diamoniak):
    result, reader = made()
    images = image_objects(reader)
    assert len(images) == len(diamoniak.cards) + 1  # seven faces and the back, for 108 cards drawn
    assert len(result.pdf) < 2 * 1024 * 1024  # "well under 5 MB"
    # The forms are shared too: one per distinct card side, whatever the number of copies.
    forms = {name for i in range(len(reader.pages)) for name, _ in page_drawing(reader, i)[0]}
    assert forms == {f"card-{card.id}" for card in diamoniak.cards} | {"back"}


def test_same_inputs_same_bytes(made, diamoniak):
    first, _ = made()
    again = print_cards(diamoniak)
    assert again.pdf == first.pdf


# --- tokens ----------------------------------------------------------------------------------------------


def test_palaces_tokens_on_their_own_sheet(made):
    result, reader = made("palaces", lang="ru")
    catalogue = load("palaces")
    assert result.cards == 70 and result.card_sheets == 8
    assert len(reader.pages) == 18 and result.tokens == 32
    counts = {f"token-{t.id}": t.count for t in catalogue.tokens}
    for index in (16, 17):  # the tokens and, duplex, the same tokens behind them
        forms, _ = page_drawing(reader, index)
        assert Counter(name for name, _ in forms) == counts
        assert card_rects(reader, index) == []
    front = sorted((m[4], m[5]) for _, m in page_drawing(reader, 16)[0])
    back = sorted((A4_PT[0] - m[4], m[5]) for _, m in page_drawing(reader, 17)[0])  # mirrored in x
    assert all(near(f, b, 0.1 * PT_PER_MM) for f, b in zip(front, back))
    text = page_texts(result.pdf)[16]
    assert text.count("1 очко") == 20 and text.count("5 очков") == 12
    # each counter: its big numeral, then its name ("1" "1 очко" reads back as "11 очко")
    values = re.findall(r"\b(\d)\s*\1 оч", text)
    assert Counter(values) == Counter({"1": 20, "5": 12})


def test_no_tokens_for_diamoniak(made):
    result, _ = made()
    assert result.tokens == 0 and all(p.kind != "tokens" for p in result.pages)


# --- a rendered page -------------------------------------------------------------------------------------


def test_rendered_sheet_shows_cards_where_they_should_be(made):
    """Render the last (7-card) sheet's fronts and backs and look at the pixels: inside every card's
    frame there is colour, the gutters around cards are white paper, empty slots are blank, and the
    dark backs sit at the mirrored places."""
    result, reader = made("diamoniak", ("fairy=1",), duplex="long", gutter=2.0, bleed=0.5)
    scale = 3  # 216 DPI: 8.5 px per mm
    doc = pdfium.PdfDocument(result.pdf)
    try:
        fronts_img = doc[10].render(scale=scale).to_pil().convert("RGB")
        backs_img = doc[11].render(scale=scale).to_pil().convert("RGB")
    finally:
        doc.close()
    px_per_mm = scale * PT_PER_MM
    H = result.layout.page[1]

    def pixel(image, x_mm, y_mm):
        return image.getpixel((int(x_mm * px_per_mm), int((H - y_mm) * px_per_mm)))

    def white(rgb):
        return min(rgb) >= 250

    grid = result.layout.grid
    fronts = [p.rect for p in result.pages[10].cards]
    backs = [p.rect for p in result.pages[11].cards]
    for rect in fronts + backs:
        for fx, fy in ((0.03, 0.5), (0.97, 0.5), (0.5, 0.03), (0.5, 0.97)):  # the coloured frame
            assert not white(pixel(fronts_img if rect in fronts else backs_img,
                                   rect.x + fx * rect.w, rect.y + fy * rect.h))
        # Half way across the gutter, past the bleed: white paper (gutter 2 mm, bleed 0.5 mm).
        image = fronts_img if rect in fronts else backs_img
        d = 1.5
        for x, y in ((rect.x - d, rect.y + rect.h / 2), (rect.x1 + d, rect.y + rect.h / 2),
                     (rect.x + rect.w / 2, rect.y - d), (rect.x + rect.w / 2, rect.y1 + d)):
            assert white(pixel(image, x, y)), (rect, x, y)
    # Backs are the dark purple back art, at the mirrored slots; the other slots are empty.
    for rect in backs:
        r, g, b = pixel(backs_img, rect.x + rect.w * 0.2, rect.y + rect.h * 0.5)
        assert b > r and r < 140
    empty = [grid.slot(2, 1), grid.slot(2, 2)]  # fronts: slots 8 and 9 of the 7-card sheet
    for rect in empty:
        assert white(pixel(fronts_img, rect.x + rect.w / 2, rect.y + rect.h / 2))
    for rect in (grid.slot(2, 0), grid.slot(2, 1)):  # their backs, mirrored
        assert white(pixel(backs_img, rect.x + rect.w / 2, rect.y + rect.h / 2))
    assert not white(pixel(backs_img, grid.slot(2, 2).x + 30, grid.slot(2, 2).y + 40))


# --- the command ---------------------------------------------------------------------------------------


def test_cli_writes_default_path_and_summary(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("print-cards", "--set", "witch=1", "--set", "diamond=2", "--duplex", "none")
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0] == "output/diamoniak-cards-en.pdf"
    # (fronts only: each aid's second side is printed as a card of its own, 38 cards in all)
    assert lines[1].startswith("30 cards and 4 player aids on 5 sheets, 5 pages: 3 x 3 poker 63 x 88 mm")
    data = (tmp_path / "output/diamoniak-cards-en.pdf").read_bytes()
    assert data.startswith(b"%PDF") and len(PdfReader(io.BytesIO(data)).pages) == 5
    out = tmp_path / "elsewhere" / "mine.pdf"
    result = run("print-cards", "--game", "palaces", "--lang", "ru", "--set", "tower=0", "--duplex", "none",
                 "--paper", "letter", "--out", str(out))
    assert result.exit_code == 0 and result.output.splitlines()[0] == str(out)
    assert "62 cards and 4 player aids on 8 sheets + 32 tokens on 1 sheet (9 in all), 9 pages" in result.output


@pytest.mark.parametrize(
    "args, start",
    [
        (("--card", "300x400"), "toolkit: error: --card 300x400: a 300 x 400 mm card does not fit on A4"),
        (("--card", "big"), "toolkit: error: --card big: expected poker, bridge, mini, tarot, square or WxH"),
        (("--margin", "50", "--card", "120x200"), "toolkit: error: --margin 50: a 120 x 200 mm card does not fit"),
        (("--margin", "95"), "toolkit: error: --margin 95: must be from 0 to 50 mm"),
        (("--bleed", "-2"), "toolkit: error: --bleed -2: must be from 0 to 10 mm"),
        (("--paper", "a3"), "toolkit: error: "),
    ],
)
def test_cli_errors_are_one_line_and_write_nothing(run, tmp_path, monkeypatch, args, start):
    monkeypatch.chdir(tmp_path)
    result = run("print-cards", *args)
    assert result.exit_code == 2
    assert result.stderr.startswith(start) and result.stderr.count("\n") == 1
    assert not (tmp_path / "output").exists()


def test_cli_out_with_a_name_too_long_is_one_line(run, tmp_path):
    result = run("print-cards", "--set", "diamond=0", "--out", str(tmp_path / ("x" * 300 + ".pdf")))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "cannot write here: File name too long" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("lang, title, subject", [
    ("ru", "Замки и ведьмы: карты для печати", "54 карты, 63 × 88 мм"),
    ("en", "Castles and Witches: print-and-play cards", "54 cards, 63 × 88 mm"),
])
def test_sheet_metadata_speak_the_sheets_language_and_name_the_toolkit(lang, title, subject):
    catalogue = load("diamoniak")
    assert catalogue.title[lang] in title
    reader = PdfReader(io.BytesIO(print_cards(catalogue, lang=lang).pdf))
    meta = reader.metadata
    assert (meta["/Title"], meta["/Subject"]) == (title, subject)
    assert meta.get("/Author", "") == ""  # the built-in deck names no author of its own (game.author)
    for key in ("/Creator", "/Producer"):  # metadata only (issue 37): never printed on a page
        assert re.fullmatch(r"toolkit \S+", meta[key]), (key, meta[key])
    assert reader.trailer["/Root"]["/Lang"] == lang
    palaces = print_cards(load("palaces", overrides=["tower=1"]), lang="ru", aids=False).pdf
    assert PdfReader(io.BytesIO(palaces)).metadata["/Subject"] == "63 карты, 63 × 88 мм"
