"""The card renderer: text fits its panel and keeps clear of the corner badge at every size and in both
languages, user art of any shape covers the card, and the PDF and Pillow renderers draw the same card."""

from __future__ import annotations

import dataclasses

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from toolkit.cards import render
from toolkit.errors import UserError
from toolkit.catalogue import load
from toolkit.games.registry import ids

BUILTIN_GAMES = ids()
from toolkit.print.export import pdf_single_bytes

EPS = 1e-6
NBSP = "\u00a0"


@pytest.fixture(scope="module")
def catalogues():
    return {game: load(game) for game in BUILTIN_GAMES}


def check_lines(lines, panel, badge):
    x0, y0, x1, y1 = panel
    for line in lines:
        ascent, descent = render.font_metrics(line.font)
        left, right = line.x - line.width / 2, line.x + line.width / 2
        top, bottom = line.y - ascent * line.size, line.y + descent * line.size
        assert x0 - EPS <= left and right <= x1 + EPS, line
        assert y0 - EPS <= top and bottom <= y1 + EPS, line
        if bottom > badge[1]:
            assert right <= badge[0] + EPS, line  # never beside the badge
        assert line.size >= render.TEXT_MIN_MM - EPS


@pytest.mark.parametrize("size", list(render.CARD_SIZES))
def test_text_fits_the_panel_and_avoids_the_badge(catalogues, size):
    card_mm = render.CARD_SIZES[size]
    for bleed in (0.0, 3.0):
        panel = render.panel_box(card_mm, bleed)
        badge = render.badge_corner(card_mm, bleed)
        for catalogue in catalogues.values():
            for card in catalogue.cards:
                for lang in ("ru", "en"):
                    lines = render.layout_text(card.name[lang], card.text[lang], panel, badge, lang)
                    check_lines(lines, panel, badge)
                    assert lines[0].text.replace(NBSP, " ") == card.name[lang] and lines[0].font == "name"
                    body = " ".join(line.text for line in lines if line.font == "text").replace(NBSP, " ")
                    assert body == " ".join(card.text[lang].split())  # all of it, nothing cut


def test_text_on_poker_cards_is_readable(catalogues):
    panel, badge = render.panel_box((63, 88), 0), render.badge_corner((63, 88), 0)
    for catalogue in catalogues.values():
        for card in catalogue.cards:
            for lang in ("ru", "en"):
                lines = render.layout_text(card.name[lang], card.text[lang], panel, badge, lang)
                assert min(line.size for line in lines) * render.PT_PER_MM >= 6.5  # points
                assert lines[0].size * render.PT_PER_MM >= 10


def test_far_too_long_text_is_refused_not_cut():
    panel, badge = render.panel_box((44, 63), 0), render.badge_corner((44, 63), 0)
    with pytest.raises(render.TextTooLong, match="text"):
        render.layout_text("Очень длинное название карты", "слово " * 400, panel, badge)
    with pytest.raises(render.TextTooLong, match="name"):
        render.layout_text("W" * 100, "", panel, badge)


def test_user_art_of_any_shape_covers_the_card(tmp_path, catalogues):
    catalogue = catalogues["diamoniak"]
    rng = np.random.default_rng(7)
    for shape in ((300, 2000), (2400, 900), (40, 50)):
        pixels = rng.integers(0, 255, (shape[1], shape[0], 3), dtype=np.uint8)
        path = tmp_path / f"art-{shape[0]}x{shape[1]}.png"
        Image.fromarray(pixels).save(path)
        card = dataclasses.replace(catalogue.card("witch"), art_path=path)
        for card_mm in ((63, 88), (70, 120)):
            face = render.card_face(card, "ru", card_mm, 3)
            assert face.panel is not None  # not the project's art: a panel of our own behind the text
            check_lines(face.lines, face.panel, (face.panel[2], face.panel[3]))
            image = render.card_image(face)
            assert image.size == render.size_px(card_mm, 3)
    # The project's own art has its plain panel: no extra panel is drawn.
    assert render.card_face(catalogue.card("witch"), "en").panel is None


def test_flat_art_is_embedded_losslessly_and_photos_as_jpeg(tmp_path, catalogues):
    catalogue = catalogues["diamoniak"]
    flat = render.card_face(catalogue.card("fairy"), "en")
    assert flat.pdf_image().jpeg_fh() is None
    # Smooth shading with a little grain, like a photograph or a painting.
    pixels = np.random.default_rng(1).integers(0, 255, (37, 27, 3), dtype=np.uint8)
    smooth = np.asarray(Image.fromarray(pixels).resize((815, 1110), Image.Resampling.BICUBIC), dtype=np.int16)
    grain = np.random.default_rng(2).integers(-6, 7, smooth.shape)
    Image.fromarray(np.clip(smooth + grain, 0, 255).astype(np.uint8)).save(tmp_path / "photo.png")
    photo = render.card_face(dataclasses.replace(catalogue.card("fairy"), art_path=tmp_path / "photo.png"), "en")
    assert photo.pdf_image().jpeg_fh() is not None


def test_pdf_and_pillow_renderers_draw_the_same_card(catalogues):
    """The witch in Russian, drawn by reportlab (rendered back by pdfium at 300 DPI) and by Pillow."""
    catalogue = load("diamoniak", overrides=[f"{c.id}=0" for c in catalogues["diamoniak"].cards if c.id != "witch"])
    pdf = pdf_single_bytes(catalogue, "ru", (63, 88), 3.0)
    doc = pdfium.PdfDocument(pdf)
    try:
        from_pdf = doc[0].render(scale=300 / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    from_pillow = render.card_image(render.card_face(catalogue.card("witch"), "ru", (63, 88), 3.0))
    assert from_pillow.size == (815, 1110)
    assert abs(from_pdf.width - 815) <= 1 and abs(from_pdf.height - 1110) <= 1
    a = np.asarray(from_pdf.resize(from_pillow.size), dtype=np.int16)
    b = np.asarray(from_pillow, dtype=np.int16)
    assert np.abs(a - b).mean() < 4
    # The text panel in particular (where the two renderers' text lands).
    x0, y0, x1, y1 = render.panel_box((63, 88), 3.0)
    box = [round((v + 3) * 300 / 25.4) for v in (x0, y0, x1, y1)]
    panel_a, panel_b = a[box[1]:box[3], box[0]:box[2]], b[box[1]:box[3], box[0]:box[2]]
    dark_a, dark_b = (panel_a.sum(axis=2) < 300), (panel_b.sum(axis=2) < 300)
    assert dark_b.sum() > 2000  # there is text
    assert abs(int(dark_a.sum()) - int(dark_b.sum())) < 0.15 * dark_b.sum()
    rows_a, rows_b = np.nonzero(dark_a.any(axis=1))[0], np.nonzero(dark_b.any(axis=1))[0]
    assert abs(rows_a.min() - rows_b.min()) <= 3 and abs(rows_a.max() - rows_b.max()) <= 3


def test_pillow_measures_text_like_reportlab():
    for font in ("name", "text"):
        for text in ("Всеобщий обмен", "Block an opponent's unfinished palace or"):
            size_px = 40.0
            pillow = render.pillow_font(font, size_px).getlength(text)
            reportlab = render.text_width(text, font, size_px)
            assert abs(pillow - reportlab) / reportlab < 0.03


# --- text that is too long or missing, on cards of any shape ----------------------------------------

ODD_TEXTS = [
    ("Long name " * 30, "Text " * 200),   # a 300-character name
    ("W" * 80, "A card text."),           # one word wider than any card
    ("W" * 300, "y" * 1000),
    ("Fairy", "W" * 80 + " and more"),
    ("", "A card without a name."),
    ("   ", ""),
]


@pytest.mark.parametrize("card_mm", [(63, 88), (44, 63), (20, 20), (20, 500), (500, 20), (500, 500)])
@pytest.mark.parametrize("name, text", ODD_TEXTS)
def test_odd_text_is_shrunk_inside_the_panel_or_refused(card_mm, name, text):
    for bleed in (0.0, 10.0):
        panel, badge = render.panel_box(card_mm, bleed), render.badge_corner(card_mm, bleed)
        try:
            lines = render.layout_text(name, text, panel, badge)
        except render.TextTooLong:
            # refused only what cannot fit: an ordinary name and text fit every card but the smallest
            assert len(name + text) > 30 or min(card_mm) < 44, (name, text, card_mm)
            continue
        check_lines(lines, panel, badge)
        assert all(line.text for line in lines)
        if (name + text).strip():
            assert lines, "nothing at all is printed"  # even on a card as narrow as 20 x 500 mm


def test_a_card_with_a_far_too_long_name_or_text_is_refused_in_one_line(catalogues):
    card = catalogues["diamoniak"].card("witch")
    long = dataclasses.replace(card, name=type(card.name)(ru="Ведьма " * 50, en="W" * 100))
    for lang, length in (("ru", 350), ("en", 100)):
        with pytest.raises(UserError, match=rf"^here: card 'witch': its name \({length} characters\) does not fit a "
                                            r"mini 44 x 63 mm card even at 3\.5 pt; shorten it, or print on larger"):
            render.card_face(long, lang, (44, 63), 3.0, source="here")
    wordy = dataclasses.replace(card, text=type(card.text)(ru="слово " * 166, en="word " * 200))
    with pytest.raises(UserError, match=r"card 'witch': its text \(1,000 characters\) does not fit a poker"):
        render.card_face(wordy, "en")
    assert render.card_face(card, "en", (44, 63), 3.0).lines  # the card as it is fits
