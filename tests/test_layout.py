"""Layouts as data: the file format and its one-line errors, the default layout of a deck with none,
per-kind layouts and conditions, fitting one size per kind, inline bold, italic and icons (PNG and
SVG), a user's font, and the two renderers drawing the same operations."""

from __future__ import annotations

import dataclasses
import io
import shutil

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from toolkit.cards import render
from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.layout.engine import DEFAULT_LAYOUT, Look, card_values, read_layout
from toolkit.layout.model import read
from toolkit.typeset import fonts, units

NBSP = "\u00a0"
HEART_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">'
             '<path d="M12 21 L3 12 A5 5 0 0 1 12 5 A5 5 0 0 1 21 12 Z" fill="#c0392b"/></svg>')


def write(tmp_path, text: str, name: str = "layout.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def icons(tmp_path):
    """A small PNG (a green square on transparency, twice as wide as high) and an SVG heart."""
    image = Image.new("RGBA", (40, 20), (0, 0, 0, 0))
    image.paste((20, 160, 60, 255), (4, 2, 36, 18))
    image.save(tmp_path / "leaf.png")
    (tmp_path / "heart.svg").write_text(HEART_SVG, encoding="utf-8")


@pytest.fixture(scope="module")
def deck():
    """Diamoniak's cards with fields of their own and no art: a deck a designer might give."""
    catalogue = load("diamoniak")
    cards = tuple(dataclasses.replace(card, art="", art_path=None,
                                      fields={"suit": card.colour or "", "value": index % 10 + 1})
                  for index, card in enumerate(catalogue.cards))
    return dataclasses.replace(catalogue, cards=cards, back_art="", back_art_path=None)


def pdf_of(face) -> Image.Image:
    """The face drawn by reportlab on a page of its size with bleed, read back at 300 DPI."""
    buffer = io.BytesIO()
    b = face.bleed_mm * units.PT_PER_MM
    canvas = Canvas(buffer, pagesize=(face.width * units.PT_PER_MM + 2 * b, face.height * units.PT_PER_MM + 2 * b),
                    invariant=1)
    render.draw_card(canvas, face, b, b)
    canvas.showPage()
    canvas.save()
    doc = pdfium.PdfDocument(buffer.getvalue())
    try:
        return doc[0].render(scale=300 / 72).to_pil().convert("RGB"), buffer.getvalue()
    finally:
        doc.close()


def agree(face, tolerance: float = 6.0) -> None:
    from_pdf, _ = pdf_of(face)
    from_pillow = render.card_image(face)
    assert abs(from_pdf.width - from_pillow.width) <= 1 and abs(from_pdf.height - from_pillow.height) <= 1
    w, h = min(from_pdf.width, from_pillow.width), min(from_pdf.height, from_pillow.height)
    a = np.asarray(from_pdf, dtype=np.int16)[:h, :w]  # pdfium rounds the page up to whole pixels
    b = np.asarray(from_pillow, dtype=np.int16)[:h, :w]
    # At 75 DPI, where the two libraries' antialiasing of a glyph's edge no longer counts.
    coarse = [np.asarray(Image.fromarray(x.astype(np.uint8)).reduce(4), dtype=np.int16) for x in (a, b)]
    assert np.abs(coarse[0] - coarse[1]).mean() < tolerance
    dark_a, dark_b = a.sum(axis=2) < 300, b.sum(axis=2) < 300
    assert abs(int(dark_a.sum()) - int(dark_b.sum())) < 0.15 * max(1, dark_b.sum())


# --- the file and its errors --------------------------------------------------------------------

BASE = '[elements.name]\ntype = "text"\ntext = "{name}"\nbox = [3, 3, "97%", 20]\n'


@pytest.mark.parametrize("text, message", [
    ("[elements.name]\ntype = \"txt\"\n", "layout.toml: elements.name: type: 'txt': choose from art, text"),
    (BASE + "size = \"big\"\n", "layout.toml: elements.name: size: 'big' is not a length"),
    (BASE + "colour = \"red\"\n", "layout.toml: elements.name: colour: 'red' is not a colour"),
    (BASE + "align = \"center\"\n", "layout.toml: elements.name: align: 'center': choose from left, centre, right"),
    (BASE + "font = \"Comic.ttf\"\n", "layout.toml: elements.name: font: no font file Comic.ttf beside the layout"),
    (BASE + "font = \"Comic Sans\"\n", "layout.toml: elements.name: font: 'Comic Sans': name a built-in face"),
    (BASE + "fill = \"#ffffff\"\n", "layout.toml: elements.name: fill: not a key of a text element"),
    ("[elements.name]\ntype = \"text\"\ntext = \"{name}\"\n", "layout.toml: elements.name: box: missing"),
    (BASE + "frame = \"art\"\n", "layout.toml: elements.name: box: 3: in the art's frame a length is \"N%\""),
    (BASE + "after = \"title\"\n", "layout.toml: elements.name: after: 'title' is no other element"),
    (BASE + "[kinds.coin]\nextends = \"gem\"\n", "layout.toml: kinds.coin: extends: 'gem' is neither \"base\""),
    (BASE + "[kinds.a]\nextends = \"b\"\n[kinds.b]\nextends = \"a\"\n", "extends: kinds extend each other in a circle"),
    (BASE + "[kinds.coin.elements.name]\nsize = -2\n", "layout.toml: kinds.coin.elements.name: size: -2 is not a font"),
    (BASE + "when = \"suit is red\"\n", "layout.toml: elements.name: when: 'suit is red': name a value"),
    (BASE + "[icons]\nheart = \"heart.gif\"\n", "layout.toml: icons: heart: must name a .png or .svg file"),
    (BASE + "[card]\nmargin = \"wide\"\n", "layout.toml: card: margin: 'wide' must be a number"),
    ("[elements\n", "layout.toml: not valid TOML"),
    ("[card]\n", "layout.toml: elements: missing"),
])
def test_a_bad_layout_is_one_line_naming_the_file_the_element_and_the_key(tmp_path, text, message):
    with pytest.raises(UserError) as caught:
        read(write(tmp_path, text))
    assert message in str(caught.value) and "\n" not in str(caught.value), str(caught.value)


def test_a_template_or_condition_naming_no_value_is_refused_when_drawn(tmp_path, deck):
    for key in ('text = "{sute}"', 'when = "sute"'):
        layout = read(write(tmp_path, BASE.replace('text = "{name}"', key if key.startswith("text") else
                                                   'text = "{name}"\n' + key)))
        with pytest.raises(UserError, match=r"^layout.toml: elements.name: (text|when): .*sute.* is no value of a card "
                                            r"\(values: .*suit"):
            Look(deck, "en", layout=layout).face(deck.cards[0])


# --- the default layout -----------------------------------------------------------------------------

def test_a_deck_without_a_layout_gets_the_default_one(deck):
    look = Look(deck, "en", layout=read_layout(DEFAULT_LAYOUT))
    card = deck.card("castle-red")
    face = look.face(card)
    by = {}
    for line in face.lines:
        by.setdefault(line.element, []).append(line)
    assert by["name"][0].text.replace(NBSP, " ") == "Red castle"
    assert by["field1"][0].text == "red" and by["field2"][0].text == "1"  # suit top left, value top right
    assert by["field1"][0].x < 63 / 3 and by["field2"][0].x > 2 * 63 / 3
    assert all(line.size * units.PT_PER_MM >= 7.5 for line in face.lines)
    text = " ".join(line.text for line in by["text"]).replace(NBSP, " ")
    assert text == card.text["en"]
    # no art: the plain area is drawn, no picture
    assert [op.element for op in face.ops if isinstance(op, render.Shape)] == ["frame", "picture_area"]
    assert not [op for op in face.ops if isinstance(op, render.Picture)]
    agree(face)


def test_the_default_back_is_the_decks_title_on_a_plain_ground(deck):
    back = Look(deck, "ru", layout=read_layout(DEFAULT_LAYOUT)).back()
    assert [line.text for line in back.lines] == ["Замки", "и\xa0ведьмы"]  # the title in two lines, "и" kept with its word
    assert back.art.getpixel((10, 10)) == (42, 34, 56)
    agree(back)


def test_card_values_hold_the_card_its_colour_and_its_fields(deck):
    values = card_values(deck, deck.card("castle-blue"), "ru")
    assert values["name"] == "Синий замок" and values["kind"] == "castle" and values["colour"] == "blue"
    assert values["colour_rgb"] == "#1f5fbf" and values["colour_name"] == "синий" and values["count"] == "6"
    assert values["suit"] == "blue" and values["value"] == "2" and values["field1"] == "blue"


# --- kinds, conditions, fitting ---------------------------------------------------------------------

KINDS = """
[card]
background = "#ffffff"
margin = 2

[elements.band]
type = "rect"
box = [0, 0, "100%", 12]
fill = "{colour_rgb}"

[elements.name]
type = "text"
text = "{name}"
box = [4, 3, "96%", 11]
font = "sans-bold"
size = 12

[elements.text]
type = "text"
text = "{text}"
box = [4, 14, "96%", "96%"]
size = 10
align = "left"

[elements.badge]
type = "circle"
box = ["80%", "85%", "95%", "95%"]
when = "suit=red"
fill = "#d7263d"

[kinds.witch.elements.text]
size = 14
colour = "#7c4ab6"

[kinds.fairy]
extends = "witch"

[kinds.fairy.elements.band]
show = false
"""


def test_kinds_extend_the_base_and_elements_show_when_their_field_says(tmp_path, deck):
    layout = read(write(tmp_path, KINDS))
    look = Look(deck, "en", layout=layout)
    red, blue = look.face(deck.card("castle-red")), look.face(deck.card("castle-blue"))
    shapes = lambda face: [(op.kind, op.fill) for op in face.ops if isinstance(op, render.Shape)]  # noqa: E731
    assert shapes(red) == [("rect", (215, 38, 61)), ("circle", (215, 38, 61))]
    assert shapes(blue) == [("rect", (31, 95, 191))]
    # a card without a colour: the band takes the ink
    assert shapes(look.face(deck.card("diamond"))) == [("rect", (42, 34, 56))]
    witch, fairy = look.face(deck.card("witch")), look.face(deck.card("fairy"))
    assert {line.colour for line in witch.lines if line.element == "text"} == {(124, 74, 182)}
    assert not [op for op in fairy.ops if isinstance(op, render.Shape)]  # the band is hidden for fairies
    assert max(line.size for line in fairy.lines if line.element == "text") > \
        max(line.size for line in blue.lines if line.element == "text")
    agree(red)


def test_text_is_fitted_once_per_kind(tmp_path, deck):
    """One castle's text made much longer: every castle's text shrinks with it, the others keep theirs."""
    layout = read(write(tmp_path, KINDS))
    card = deck.card("castle-green")
    longer = dataclasses.replace(card, text=type(card.text)(ru=card.text.ru * 4, en=card.text.en * 4))
    changed = dataclasses.replace(deck, cards=tuple(longer if c.id == card.id else c for c in deck.cards))
    before, after = Look(deck, "en", layout=layout), Look(changed, "en", layout=layout)
    size = lambda look, card_id: {line.size for line in look.face(look.catalogue.card(card_id)).lines  # noqa: E731
                                  if line.element == "text"}
    assert len(size(after, "castle-red")) == 1 and size(after, "castle-red") == size(after, "castle-green")
    assert max(size(after, "castle-red")) < min(size(before, "castle-red"))
    assert size(after, "diamond") == size(before, "diamond")
    with pytest.raises(UserError, match=r"^diamoniak.toml: card 'castle-green': its text \([0-9,]+ characters\) "
                                        r"does not fit a mini 44 x 63 mm card even at 7\.5 pt"):
        Look(changed, "en", (44, 63), layout=layout).face(deck.card("castle-red"))


# --- markup, icons, fonts ---------------------------------------------------------------------------

MARKUP = """
[elements.text]
type = "text"
text = "{text}"
box = [4, 4, "96%", "96%"]
size = 11
align = "left"

[elements.corner]
type = "icon"
icon = "{suit}"
when = "suit"
box = ["80%", "85%", "95%", "95%"]

[icons]
leaf = "leaf.png"
heart = "heart.svg"
"""


def test_bold_italic_and_icons_in_text_in_both_renderers(tmp_path, deck):
    icons(tmp_path)
    layout = read(write(tmp_path, MARKUP))
    card = dataclasses.replace(deck.card("castle-red"), fields={"suit": "heart"},
                               text=type(deck.card("castle-red").text)(
                                   ru="x", en="**Buy:** take *one* :leaf: card, or :heart: two. Not an icon: :moon: 10:30"))
    catalogue = dataclasses.replace(deck, cards=(card,))
    face = Look(catalogue, "en", layout=layout).face(card)
    runs = [(line.text, line.font) for line in face.lines]
    assert ("Buy:", "serif-bold") in runs and ("one", "serif-italic") in runs
    assert any(":moon: 10:30" in text for text, _ in runs)  # not an icon of the deck: printed as written
    pictures = [op for op in face.ops if isinstance(op, render.Picture)]
    assert len(pictures) == 3  # the leaf and the heart in the text, the heart in the corner
    leaf, heart, corner = pictures
    size = next(line.size for line in face.lines if line.text.startswith("Buy"))
    assert leaf.box[3] - leaf.box[1] == pytest.approx(size) and leaf.box[2] - leaf.box[0] == pytest.approx(2 * size)
    assert heart.box[2] - heart.box[0] == pytest.approx(size)
    assert corner.element == "corner" and heart.image.getpixel((heart.image.width // 2, heart.image.height // 2))[:3] \
        == (192, 57, 43)
    agree(face)
    # The PDF's picture of the SVG is the same raster resvg made, drawn where the engine put it.
    from_pdf, _ = pdf_of(face)
    x, y = ((heart.box[0] + heart.box[2]) / 2 + face.bleed_mm) * 300 / 25.4, \
        ((heart.box[1] + heart.box[3]) / 2 + face.bleed_mm) * 300 / 25.4
    assert np.abs(np.subtract(from_pdf.getpixel((round(x), round(y))), (192, 57, 43))).max() < 12


def test_an_unmatched_star_and_an_unknown_icon_are_one_line(tmp_path, deck):
    icons(tmp_path)
    layout = read(write(tmp_path, MARKUP))
    card = dataclasses.replace(deck.card("castle-red"), text=type(deck.card("castle-red").text)(ru="x", en="**Buy: one"))
    with pytest.raises(UserError, match=r"^layout.toml: elements.text: an unmatched \*\*"):
        Look(dataclasses.replace(deck, cards=(card,)), "en", layout=layout).face(card)
    moon = dataclasses.replace(deck.card("castle-red"), fields={"suit": "moon"})
    with pytest.raises(UserError, match=r"^layout.toml: elements.corner: icon: no icon 'moon' \(the deck's icons: "
                                        r"heart, leaf\)"):
        Look(dataclasses.replace(deck, cards=(moon,)), "en", layout=layout).face(moon)


def test_a_users_font_file_is_embedded_and_measured(tmp_path, deck):
    shutil.copy(fonts.FONT_FILES["sans-italic"], tmp_path / "Mine.ttf")
    (tmp_path / "broken.ttf").write_bytes(b"not a font")
    layout = read(write(tmp_path, BASE + 'font = "Mine.ttf"\n'))
    face = Look(deck, "en", layout=layout).face(deck.card("witch"))
    assert face.lines[0].font.startswith("file:F")
    _, pdf = pdf_of(face)
    embedded = {str(font["/BaseFont"]) for page in PdfReader(io.BytesIO(pdf)).pages
                for font in page["/Resources"]["/Font"].values()}
    assert any(name.endswith("+PTSans-Italic") for name in embedded), embedded  # the file's own font, a subset
    agree(face)
    bad = read(write(tmp_path, BASE + 'font = "broken.ttf"\n'))
    with pytest.raises(UserError, match=r"^layout.toml: elements.name: font: .*broken.ttf is not a font the cards can "
                                        "use"):
        Look(deck, "en", layout=bad).face(deck.card("witch"))


def test_the_same_layout_gives_the_same_bytes(tmp_path, deck):
    icons(tmp_path)
    layout = read(write(tmp_path, MARKUP))
    card = dataclasses.replace(deck.card("castle-red"), fields={"suit": "heart"})
    catalogue = dataclasses.replace(deck, cards=(card,))
    first = pdf_of(Look(catalogue, "en", layout=layout).face(card))[1]
    second = pdf_of(Look(catalogue, "en", layout=layout).face(card))[1]
    assert first == second
    images = [render.card_image(Look(catalogue, "en", layout=layout).face(card)).tobytes() for _ in range(2)]
    assert images[0] == images[1]


@pytest.mark.parametrize("target", ["drivethru", "tgc"])
def test_a_deck_drawn_by_its_own_layout_passes_preflight(tmp_path, deck, target):
    """Icons (PNG and SVG) and shapes through a print service's export: the DriveThruCards file keeps
    to CMYK (the pictures are separated with the ground), The Game Crafter's images to their sizes."""
    from toolkit.print.export import export_cards
    from toolkit.print.preflight import preflight

    icons(tmp_path)
    suits = dataclasses.replace(deck, cards=tuple(
        dataclasses.replace(card, fields={"suit": "heart" if card.colour == "red" else "leaf"}) for card in deck.cards),
        layout_file=write(tmp_path, MARKUP))  # as a catalogue naming its layout
    export_cards(suits, target, tmp_path / "out", lang="en")
    report = preflight(tmp_path / "out", target)
    assert [check for check in report.checks if check.status == "FAIL"] == []
