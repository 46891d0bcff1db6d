"""The card renderer through the built-in games' layouts: text fits its box, keeps clear of the corner
badge, one size per kind, at least 7.5 pt, all of it printed (never cut), at every size that holds it;
user art of any shape covers the card; and the PDF and Pillow renderers draw the same card."""

from __future__ import annotations

import dataclasses

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from toolkit.cards import render
from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.games.registry import ids
from toolkit.layout.engine import Look
from toolkit.print.export import pdf_single_bytes
from toolkit.typeset import fonts, units

BUILTIN_GAMES = ids()
EPS = 1e-6
NBSP = "\u00a0"
FLOOR_MM = 7.5 / units.PT_PER_MM


@pytest.fixture(scope="module")
def catalogues():
    return {game: load(game) for game in BUILTIN_GAMES}


def boxes(look: Look, kind: str, name: str):
    """The element's box and clear box on this card size, and its smallest type size in mm (the layout's
    min_size: 7.5 pt unless a size table says less, as the built-in layouts do for mini cards)."""
    element = next(e for e in look.layout.elements(kind) if e.name == name)
    clear = look.frame.box(element, "clear") if element.get("clear") is not None else None
    floor = look._size_range(element)[0] if element.type == "text" else FLOOR_MM
    return look.frame.box(element, padding=element.get("padding")), clear, floor


def check_lines(lines, box, clear, floor=FLOOR_MM):
    x0, y0, x1, y1 = box
    for line in lines:
        ascent, descent = fonts.font_metrics(line.font)
        left, right = line.x - line.width / 2, line.x + line.width / 2
        top, bottom = line.y - ascent * line.size, line.y + descent * line.size
        assert x0 - EPS <= left and right <= x1 + EPS, line
        assert y0 - EPS <= top and bottom <= y1 + EPS, line
        if clear is not None and bottom > clear[1]:
            assert right <= clear[0] + EPS, line  # never beside the badge
        assert line.size >= floor - EPS


def printed(face, element: str) -> str:
    return " ".join(line.text for line in face.lines if line.element == element).replace(NBSP, " ")


@pytest.mark.parametrize("size", ["poker", "bridge", "tarot"])
def test_text_fits_its_box_avoids_the_badge_and_is_all_printed(catalogues, size):
    card_mm = render.CARD_SIZES[size]
    langs = ("ru", "en")
    for bleed in (0.0, 3.0):
        for catalogue in catalogues.values():
            for lang in langs:
                look = Look(catalogue, lang, card_mm, bleed)
                for card in catalogue.cards:
                    face = look.face(card)
                    for name in ("name", "text"):
                        box, clear, floor = boxes(look, card.kind, name)
                        check_lines([line for line in face.lines if line.element == name], box, clear, floor)
                    assert printed(face, "name") == card.name[lang]
                    assert printed(face, "text") == " ".join(card.text[lang].split())  # all of it, nothing cut


def test_one_text_size_per_kind_and_at_least_7_5_pt(catalogues):
    for catalogue in catalogues.values():
        for lang in ("ru", "en"):
            look = Look(catalogue, lang, (63, 88))
            sizes: dict[str, set] = {}
            for card in catalogue.cards:
                for line in look.face(card).lines:
                    sizes.setdefault(f"{card.kind}.{line.element}", set()).add(round(line.size, 9))
            assert all(len(found) == 1 for found in sizes.values()), sizes
            body = [size for key, found in sizes.items() if key.endswith(".text") for size in found]
            assert min(body) * units.PT_PER_MM >= 7.5
            assert min(size for key, found in sizes.items() if key.endswith(".name") for size in found) \
                * units.PT_PER_MM >= 10


def test_paragraphs_end_on_more_than_one_word(catalogues):
    """Shaped for the box: no paragraph of the built-in cards ends on a lone word (issue 22's funnels)."""
    for catalogue in catalogues.values():
        for lang in ("ru", "en"):
            look = Look(catalogue, lang, (63, 88))
            for card in catalogue.cards:
                lines = [line for line in look.face(card).lines if line.element == "text"]
                if len({line.y for line in lines}) > 1:
                    last = max(lines, key=lambda line: line.y)
                    assert " " in last.text or NBSP in last.text, (card.id, lang, last.text)


def test_user_art_of_any_shape_covers_the_card(tmp_path, catalogues):
    catalogue = catalogues["diamoniak"]
    rng = np.random.default_rng(7)
    for shape in ((300, 2000), (2400, 900), (40, 50)):
        pixels = rng.integers(0, 255, (shape[1], shape[0], 3), dtype=np.uint8)
        path = tmp_path / f"art-{shape[0]}x{shape[1]}.png"
        Image.fromarray(pixels).save(path)
        card = dataclasses.replace(catalogue.card("witch"), art_path=path)
        for card_mm in ((63, 88), (70, 120)):
            face = Look(catalogue, "ru", card_mm, 3).face(card)
            panels = [op for op in face.ops if isinstance(op, render.Shape) and op.element == "panel"]
            assert len(panels) == 1  # not the project's art: a panel of our own behind the text
            assert render.card_image(face).size == render.size_px(card_mm, 3)
    # The project's own art has its plain panel: no extra panel is drawn.
    assert not [op for op in Look(catalogue, "en").face(catalogue.card("witch")).ops if isinstance(op, render.Shape)]


def test_flat_art_is_embedded_losslessly_and_photos_as_jpeg(tmp_path, catalogues):
    catalogue = catalogues["diamoniak"]
    flat = Look(catalogue, "en").face(catalogue.card("fairy"))
    assert flat.pdf_image().jpeg_fh() is None
    # Smooth shading with a little grain, like a photograph or a painting.
    pixels = np.random.default_rng(1).integers(0, 255, (37, 27, 3), dtype=np.uint8)
    smooth = np.asarray(Image.fromarray(pixels).resize((815, 1110), Image.Resampling.BICUBIC), dtype=np.int16)
    grain = np.random.default_rng(2).integers(-6, 7, smooth.shape)
    Image.fromarray(np.clip(smooth + grain, 0, 255).astype(np.uint8)).save(tmp_path / "photo.png")
    photo = Look(catalogue, "en").face(dataclasses.replace(catalogue.card("fairy"), art_path=tmp_path / "photo.png"))
    assert photo.pdf_image().jpeg_fh() is not None


def rendered_pair(catalogue, card_id: str, lang: str):
    """A card drawn by reportlab (read back by pdfium at 300 DPI) and by Pillow, as int arrays."""
    pdf = pdf_single_bytes(catalogue, lang, (63, 88), 3.0)
    doc = pdfium.PdfDocument(pdf)
    try:
        from_pdf = doc[0].render(scale=300 / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    from_pillow = render.card_image(Look(catalogue, lang, (63, 88), 3.0).face(catalogue.card(card_id)))
    assert from_pillow.size == (815, 1110)
    assert abs(from_pdf.width - 815) <= 1 and abs(from_pdf.height - 1110) <= 1
    return (np.asarray(from_pdf.resize(from_pillow.size), dtype=np.int16),
            np.asarray(from_pillow, dtype=np.int16))


def compare_box(a, b, box_mm, bleed: float = 3.0):
    """The two renderings agree where ``box_mm`` (trim mm) is: as much ink, on the same rows."""
    box = [round((v + bleed) * 300 / 25.4) for v in box_mm]
    part_a, part_b = a[box[1]:box[3], box[0]:box[2]], b[box[1]:box[3], box[0]:box[2]]
    dark_a, dark_b = (part_a.sum(axis=2) < 300), (part_b.sum(axis=2) < 300)
    assert dark_b.sum() > 2000  # there is text
    assert abs(int(dark_a.sum()) - int(dark_b.sum())) < 0.15 * dark_b.sum()
    rows_a, rows_b = np.nonzero(dark_a.any(axis=1))[0], np.nonzero(dark_b.any(axis=1))[0]
    assert abs(rows_a.min() - rows_b.min()) <= 3 and abs(rows_a.max() - rows_b.max()) <= 3


def test_pdf_and_pillow_renderers_draw_the_same_card(catalogues):
    """The witch in Russian, drawn by reportlab (rendered back by pdfium at 300 DPI) and by Pillow."""
    catalogue = load("diamoniak", overrides=[f"{c.id}=0" for c in catalogues["diamoniak"].cards if c.id != "witch"])
    a, b = rendered_pair(catalogue, "witch", "ru")
    assert np.abs(a - b).mean() < 4
    look = Look(catalogue, "ru", (63, 88), 3.0)
    compare_box(a, b, boxes(look, "witch", "text")[0])


def test_pillow_measures_text_like_reportlab():
    for font in ("name", "text", "serif-italic", "sans-bold-italic"):
        for text in ("Всеобщий обмен", "Block an opponent's unfinished palace or"):
            size_px = 40.0
            pillow = fonts.pillow_font(font, size_px).getlength(text)
            reportlab = fonts.text_width(text, font, size_px)
            assert abs(pillow - reportlab) / reportlab < 0.03


# --- text that is too long or missing, on cards of any shape ----------------------------------------

ODD_TEXTS = [
    ("Long name " * 30, "Text " * 200),   # a 300-character name
    ("W" * 80, "A card text."),           # one word wider than any card
    ("W" * 300, "y" * 1000),
    ("Fairy", "W" * 80 + " and more"),
    ("Fairy", "Take a card."),
]


def one_card(catalogue, name: str, text: str):
    card = dataclasses.replace(catalogue.card("fairy"), name=type(catalogue.card("fairy").name)(ru=name, en=name),
                               text=type(catalogue.card("fairy").text)(ru=text, en=text))
    return dataclasses.replace(catalogue, cards=(card,)), card


@pytest.mark.parametrize("card_mm", [(63, 88), (44, 63), (20, 20), (20, 500), (500, 20), (500, 500)])
@pytest.mark.parametrize("name, text", ODD_TEXTS)
def test_odd_text_fits_its_box_or_is_refused_in_one_line(catalogues, card_mm, name, text):
    catalogue, card = one_card(catalogues["diamoniak"], name, text)
    for bleed in (0.0, 10.0):
        look = Look(catalogue, "en", card_mm, bleed)
        try:
            face = look.face(card)
        except UserError as err:
            message = str(err)
            assert "\n" not in message and "card 'fairy': its " in message and "does not fit a" in message
            assert f"{card_mm[0]:g} x {card_mm[1]:g} mm card even at" in message
            # refused only what cannot fit: a short name and text fit a poker card
            assert len(name + text) > 30 or card_mm != (63, 88), (name, text, card_mm)
            continue
        drawn = [e.name for e in look.layout.elements(card.kind)]  # mini cards: the name alone
        for element in ("name", "text"):
            if element not in drawn:
                continue
            box, clear, floor = boxes(look, "fairy", element)
            check_lines([line for line in face.lines if line.element == element], box, clear, floor)
        if "text" in drawn:
            assert printed(face, "text") == " ".join(text.split())


def test_a_card_with_a_far_too_long_name_or_text_is_refused_in_one_line(catalogues):
    catalogue = catalogues["diamoniak"]
    card = catalogue.card("witch")
    long = dataclasses.replace(card, name=type(card.name)(ru="Ведьма " * 50, en="W" * 100))
    deck = dataclasses.replace(catalogue, cards=(long,))
    for lang in ("ru", "en"):
        with pytest.raises(UserError, match=r"^diamoniak.toml: card 'witch': its name \([0-9,]+ characters\) does not "
                                            r"fit a poker 63 x 88 mm card even at 9\.0 pt \(the smallest size of the layout's name\); "
                                            "shorten it, or print on larger cards"):
            Look(deck, lang).face(long)
    wordy = dataclasses.replace(card, text=type(card.text)(ru="слово " * 166, en="word " * 200))
    with pytest.raises(UserError, match=r"card 'witch': its text \(1,000 characters\) does not fit a poker 63 x 88 "
                                        r"mm card even at 7\.5 pt"):
        Look(dataclasses.replace(catalogue, cards=(wordy,)), "en").face(wordy)
    assert Look(catalogue, "en", (63, 88), 3.0).face(card).lines  # the card as it is fits


def test_the_built_in_games_print_on_mini_cards_their_names_never_under_7_5_pt(catalogues):
    """A mini card of a built-in game has no room for its rules text at 7.5 pt, the floor of every card
    (the editor: 6.5 pt is too small for a family's card): it carries its name and picture, and the
    player aid, printed at poker size beside the mini cards, carries the rules."""
    for catalogue in catalogues.values():
        for lang in ("ru", "en"):
            look = Look(catalogue, lang, render.CARD_SIZES["mini"])
            for card in catalogue.cards:
                face = look.face(card)
                assert not [line for line in face.lines if line.element == "text"]
                assert " ".join(line.text for line in face.lines if line.element == "name") == card.name[lang]
                assert min(line.size for line in face.lines) * units.PT_PER_MM >= 7.5 - 1e-6
