"""Every card size lays its cards out for itself (issue 37): the art fitted, never enlarged and
cropped; text and corner symbols inside the safe zone, read back from the PDFs and the PNG exports;
preflight catching a breach and a strip of ground in the bleed, and judging a back alike for The Game
Crafter and DriveThruCards; fold-and-glue and low-ink draft sheets, and the sheet's bleed line."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont
from pypdf import PdfReader

from conftest import ROOT, drawing, short_texts
from toolkit.cards.render import CARD_SIZES, Line, Picture, place_art
from toolkit.catalogue import load
from toolkit.layout.engine import REFERENCE_ART_PX, Look
from toolkit.print import print_cards
from toolkit.print.preflight import bleed_problem, preflight
from toolkit.print.targets import TARGETS
from toolkit.typeset.fonts import FONT_FILES, font_metrics
from toolkit.typeset.units import PT_PER_MM

SAFE_MM = 3.0
WEATHERVANE = ROOT / "examples" / "weathervane" / "weathervane.toml"
SLACK_MM = 0.05  # the PDF's text boxes are read from its font widths, rounded to a point's hundredth


def deck(name: str, size: str, tmp_path: Path):
    """The deck whose cards fit ``size``: the built-in games' full texts do not fit mini or square cards
    at 7.5 pt (refused, as they were on mini), so those get the first words of each text."""
    if name == "weathervane":
        return load(None, str(WEATHERVANE), [])
    if size in ("mini", "square"):
        return load(None, str(short_texts(tmp_path / name, name, words=6)), [])
    return load(name, None, [])


def glyph_box(op: Line) -> tuple[float, float, float, float]:
    ascent, descent = font_metrics(op.font)
    return op.x - op.width / 2, op.y - ascent * op.size, op.x + op.width / 2, op.y + descent * op.size


def inside(box, card_mm, safe: float) -> bool:
    w, h = card_mm
    return min(box[0], box[1], w - box[2], h - box[3]) >= safe - SLACK_MM


def art_symbols(face_key: str, look: Look, card_mm) -> list[tuple[float, float, float, float]]:
    """Where the corner symbols of the built-in art lie on the card: the badges `toolkit art` paints
    at BADGE_CENTRE of the 815 x 1110 art, their symbol 0.68 of the badge's radius across."""
    from toolkit.cards import art

    at = place_art(REFERENCE_ART_PX, card_mm, look.bleed_mm, look.safe_mm, look._art_border(), look._art_margin())
    r = art.BADGE_RADIUS * 0.68 + art.LINE
    boxes = []
    for cx, cy in ((art.BADGE_CENTRE, art.BADGE_CENTRE), (art.WIDTH - art.BADGE_CENTRE, art.HEIGHT - art.BADGE_CENTRE)):
        boxes.append(at.box((cx - r, cy - r, cx + r, cy + r)))
    return boxes


@pytest.mark.parametrize("size", list(CARD_SIZES))
@pytest.mark.parametrize("name", ["diamoniak", "palaces", "weathervane"])
def test_every_size_keeps_text_and_symbols_inside_the_safe_zone(name, size, tmp_path):
    catalogue = deck(name, size, tmp_path)
    card_mm = CARD_SIZES[size]
    look = Look(catalogue, catalogue.langs[0], card_mm, 3.0)
    for card in catalogue.cards:
        face = look.face(card)
        for op in face.ops:
            if isinstance(op, Line):
                assert inside(glyph_box(op), card_mm, SAFE_MM), (name, size, card.id, op.text)
            elif isinstance(op, Picture) and op.element != "art":  # an icon: a corner symbol, an inline icon
                assert inside(op.box, card_mm, SAFE_MM), (name, size, card.id, op.element)
        if name != "weathervane":  # the symbols painted into the built-in art
            for box in art_symbols(face.key, look, card_mm):
                assert inside(box, card_mm, SAFE_MM), (name, size, card.id, box)
    back = look.back()
    assert all(inside(glyph_box(op), card_mm, SAFE_MM) for op in back.ops if isinstance(op, Line))


def test_art_of_another_shape_is_fitted_not_enlarged_and_cropped():
    """The poker art on tarot, bridge and square cards: its frame (safe_border) lies inside the card
    at least as far as on poker, on every side; poker keeps the art's covering scale."""
    border = (0.06135, 0.04505)
    aw, ah = REFERENCE_ART_PX
    poker = place_art(REFERENCE_ART_PX, CARD_SIZES["poker"], 3.0, None, border)
    assert poker.scale == max(69 / aw, 94 / ah)
    for size in ("bridge", "tarot", "square", "mini"):
        w, h = CARD_SIZES[size]
        at = place_art(REFERENCE_ART_PX, (w, h), 3.0, None, border)
        x0, y0, x1, y1 = at.box((border[0] * aw, border[1] * ah, (1 - border[0]) * aw, (1 - border[1]) * ah))
        assert min(x0, y0, w - x1, h - y1) >= 1.2, size  # on poker the frame lies 1.22 mm inside the trim


def pdf_text_boxes(pdf: bytes):
    """Every run of text of every page as (page index, box in page mm)."""
    from toolkit.print.preflight import _PdfWalk

    reader = PdfReader(io.BytesIO(pdf))
    walk = _PdfWalk()
    for number, page in enumerate(reader.pages, start=1):
        walk.page(page, number)
    return reader, {n - 1: [tuple(v / PT_PER_MM for v in box) for box, _, _ in runs] for n, runs in walk.text.items()}


@pytest.mark.parametrize("size", ["poker", "bridge", "tarot", "square"])
def test_sheets_read_back_keep_every_run_of_text_inside_the_safe_zone(size, tmp_path):
    """The print-and-play PDF read back (pypdf: each run's box from the font's widths and ascent):
    every run on a page of fronts lies 3 mm inside a card's trim, or is the sheet's bleed line."""
    catalogue = deck("diamoniak", size, tmp_path)
    result = print_cards(catalogue, "en", card_mm=CARD_SIZES[size], bleed=3.0)
    reader, texts = pdf_text_boxes(result.pdf)
    for index, page in enumerate(result.pages):
        if page.kind != "fronts":
            continue
        rects = [placed.rect for placed in page.cards]
        for x0, y0, x1, y1 in texts.get(index, []):
            card = next((r for r in rects if r.x - 1 <= x0 and x1 <= r.x1 + 1 and r.y - 1 <= y0 and y1 <= r.y1 + 1),
                        None)
            if card is None:  # the sheet's line of small print, outside every card
                assert page.note is not None
                continue
            gaps = (x0 - card.x, y0 - card.y, card.x1 - x1, card.y1 - y1)
            assert min(gaps) >= SAFE_MM - 0.4, (size, index, gaps)  # pypdf's boxes are the font's, not the glyphs'


def test_png_exports_hold_only_art_between_trim_and_safe_line(tmp_path):
    """The Game Crafter's tarot images: the layout's text and icons lie inside the safe zone (the faces
    the export draws, read back from their draw operations), and preflight's pixel check of the band
    between the trim and the safe line passes every image."""
    from toolkit.print.export import export_cards

    out = tmp_path / "tgc"
    export_cards(load("diamoniak", None, []), "tgc", out, lang="en", card_mm=CARD_SIZES["tarot"], card_size="tarot")
    result = preflight(out, "tgc")
    assert result.passed, [c for c in result.checks if c.status == "FAIL"]


def strip_at_top(path: Path, colour) -> None:
    image = Image.open(path).convert("RGB")
    ImageDraw.Draw(image).rectangle((0, 0, image.width, 1), fill=colour)
    image.save(path, dpi=(300, 300))


def test_a_band_from_minus_3_mm_reaches_a_3_175_mm_bleed_and_a_strip_fails_preflight(tmp_path):
    """Weathervane's band is drawn from -3 mm: at The Game Crafter's 3.175 mm bleed it now reaches the
    edge; an image with the 2 px strip such a band left is refused by preflight's bleed check."""
    catalogue = load(None, str(WEATHERVANE), [])
    spec = TARGETS["tgc"].sizes["poker"]
    look = Look(catalogue, "en", spec.card_mm, spec.bleed_mm, spec.safe_mm)
    face = look.face(catalogue.cards[0])
    band = next(op for op in face.ops if op.element == "band")
    assert band.box[0] <= -spec.bleed_mm and band.box[1] <= -spec.bleed_mm
    from toolkit.cards.render import card_image

    image = card_image(face)
    assert bleed_problem(image, spec) is None
    ImageDraw.Draw(image).rectangle((0, 0, image.width, 1), fill=(0xfb, 0xf8, 0xf1))
    assert "strip 2 px wide along the top" in bleed_problem(image, spec)


def breach_layout(folder: Path) -> Path:
    """Weathervane with its number in a box at -3 mm that says ``safe = false``."""
    shutil.copytree(WEATHERVANE.parent, folder)
    layout = folder / "layout.toml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text.replace('box = [4, 2, 22, 14]', 'box = [-3, 2, 22, 14]\nsafe = false'),
                      encoding="utf-8")
    return folder / "weathervane.toml"


@pytest.mark.parametrize("target", ["tgc", "drivethru"])
def test_preflight_fails_a_text_box_at_minus_3_mm(target, tmp_path):
    from toolkit.print.export import export_cards

    catalogue = load(None, str(breach_layout(tmp_path / "deck")), [])
    out = tmp_path / target
    export_cards(catalogue, target, out, lang="en")
    result = preflight(out, target)
    failed = [c for c in result.checks if c.status == "FAIL"]
    assert any(c.name == "safe zone" for c in failed), result.checks


def back_with_text_near_the_edge(folder: Path) -> Path:
    """Weathervane whose back art has a line of light text 1 mm inside the trim at its foot."""
    shutil.copytree(WEATHERVANE.parent, folder)
    image = Image.open(folder / "back.png").convert("RGB")
    font = ImageFont.truetype(str(FONT_FILES["sans-bold"]), 40)
    y = image.height - round(5.5 / 25.4 * 300)
    ImageDraw.Draw(image).text((image.width // 2, y), "WEATHERVANE · A GAME OF SKIES", font=font,
                               fill=(250, 250, 250), anchor="ms")
    image.save(folder / "back.png")
    return folder / "weathervane.toml"


def test_the_game_crafter_and_drivethrucards_judge_the_same_back_alike(tmp_path):
    """A back whose art has text past the safe line failed The Game Crafter's check of its image and
    passed DriveThruCards' (which read only the PDF's own text): both fail it now, and both pass the
    example's own back."""
    from toolkit.print.export import export_cards

    for folder, catalogue, verdict in ((tmp_path / "bad", back_with_text_near_the_edge(tmp_path / "bad-deck"), False),
                                       (tmp_path / "good", WEATHERVANE, True)):
        for target in ("tgc", "drivethru"):
            out = folder / target
            deck = load(None, str(catalogue), [])
            one_card = [f"{card.id}=0" for card in deck.cards[1:]]  # the back is what is judged: one face is enough
            export_cards(load(None, str(catalogue), one_card), target, out, lang="en", aids=False)
            safe = next(c for c in preflight(out, target).checks if c.name == "safe zone")
            assert (safe.status == "PASS") == verdict, (target, safe)


def test_fold_sheets_hold_fronts_and_backs_side_by_side_with_a_fold_line(run, tmp_path):
    out = tmp_path / "fold.pdf"
    result = run("print-cards", "--fold", "--no-aids", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "fronts and backs folded together" in result.stdout
    reader = PdfReader(out)
    segments, _, forms = drawing(reader, 0)
    page_w = float(reader.pages[0].mediabox.width) / PT_PER_MM
    dashed = [s for s in segments if abs(s[0] - s[2]) < 1e-6 and abs(s[0] - page_w / 2) < 1e-6]
    assert dashed, "a fold line down the middle of the page"
    xs = [m[4] / PT_PER_MM for _, m in forms]
    left, right = [x for x in xs if x < page_w / 2], [x for x in xs if x > page_w / 2]
    assert left and right and len(left) == len(right)
    names = [name for name, _ in forms]
    assert len(set(names[len(left):])) == 1  # the right half: the deck's back, mirrored behind its fronts
    marks = [s for s in segments if s not in dashed]
    assert marks and all(max(s[0], s[2]) <= page_w / 2 for s in marks)  # crop marks on the fronts' half
    assert run("print-cards", "--fold", "--duplex", "short", "--out", str(out)).exit_code == 2


def mean_ink(pdf: Path, page: int = 1) -> float:
    import subprocess

    png = subprocess.run(["pdftoppm", "-r", "30", "-f", str(page), "-l", str(page), "-gray", "-png", str(pdf)],
                         capture_output=True, check=True).stdout
    return 255 - float(np.asarray(Image.open(io.BytesIO(png)).convert("L")).mean())


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
def test_a_draft_prints_far_less_ink_and_its_text_stays_black(run, tmp_path):
    normal, draft = tmp_path / "normal.pdf", tmp_path / "draft.pdf"
    assert run("print-cards", "--bleed", "3", "--no-aids", "--out", str(normal)).exit_code == 0
    result = run("print-cards", "--bleed", "3", "--no-aids", "--draft", "--out", str(draft))
    assert result.exit_code == 0 and "low-ink draft" in result.stdout
    for page in (1, 2):  # fronts and backs
        assert mean_ink(draft, page) < mean_ink(normal, page) / 3
    content = PdfReader(draft).pages[0]
    from pypdf.generic import ContentStream

    forms = content["/Resources"]["/XObject"]
    fills = set()
    for name in forms:
        for operands, op in ContentStream(forms[name].get_object(), None).operations:
            if op == b"BT":
                fills.add("BT")
            if op == b"rg":
                fills.add(tuple(float(v) for v in operands))
    assert (0.0, 0.0, 0.0) in fills


def test_each_sheet_of_fronts_says_its_bleed_and_size_in_the_decks_words(run, tmp_path):
    import subprocess

    out = tmp_path / "ru.pdf"
    result = run("print-cards", "--game", "palaces", "--lang", "ru", "--card", "tarot", "--bleed", "2",
                 "--no-aids", "--out", str(out))
    assert result.exit_code == 0 and result.stdout.rstrip().endswith("bleed 2 mm")
    text = subprocess.run(["pdftotext", "-f", "1", "-l", "2", str(out), "-"], capture_output=True, text=True).stdout
    assert "вылет 2 мм · карты 70 × 120 мм" in text
    assert text.count("вылет") == 1  # on the fronts' page, not on the backs'
    out = tmp_path / "en.pdf"
    assert run("print-cards", "--no-aids", "--out", str(out)).exit_code == 0
    text = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(out), "-"], capture_output=True, text=True).stdout
    assert "no bleed · cards 63 × 88 mm" in text


def test_a_layout_gives_a_size_its_own_elements(tmp_path):
    """``[sizes.tarot.elements.name]`` changes the name on tarot cards only; a service's inch size of a
    preset (2.75 x 4.75 in) is that preset; a size that is none is refused in one line."""
    from toolkit.errors import UserError
    from toolkit.layout import model

    folder = tmp_path / "deck"
    shutil.copytree(WEATHERVANE.parent, folder)
    layout = folder / "layout.toml"
    layout.write_text(layout.read_text(encoding="utf-8") + '\n[sizes.tarot.elements.name]\nbox = [4, 86, "96%", 92]\n'
                      '\n[sizes."60x90".card]\nmargin = 5\n', encoding="utf-8")
    catalogue = load(None, str(folder / "weathervane.toml"), [])

    def name_top(card_mm) -> float:
        face = Look(catalogue, "en", card_mm, 0.0).face(catalogue.cards[0])
        return min(op.y for op in face.ops if isinstance(op, Line) and op.element == "name")

    assert name_top(CARD_SIZES["tarot"]) > 40 > name_top(CARD_SIZES["poker"])
    assert name_top(TARGETS["tgc"].sizes["tarot"].card_mm) > 40
    read = model.read(layout)
    assert read.sized((60.0, 90.0)).margin == 5 and read.sized(CARD_SIZES["poker"]).margin == 3
    layout.write_text(layout.read_text(encoding="utf-8") + '\n[sizes.huge.card]\nmargin = 5\n', encoding="utf-8")
    with pytest.raises(UserError, match=r"layout.toml: sizes: huge: not a card size"):
        model.read(layout)
