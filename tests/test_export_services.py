"""The print services' PNG sets (The Game Crafter, MakePlayingCards, Tabletopia): exact pixel sizes,
the safe zone kept by the card text, the tokens, the manifests; and the token image that goes with them."""

from __future__ import annotations

import copy
import csv
import io

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from conftest import builtin_doc, short_texts, write_catalogue
from toolkit.catalogue import load
from toolkit.pdf import tokens
from toolkit.print.export import MARK
from toolkit.print.token_image import token_image
from toolkit.typeset.units import PT_PER_MM

# Diamoniak cut down to its red castle and witch: fewer faces to draw, the same export.
FEW = ("--set", "castle-blue=0", "--set", "castle-green=0", "--set", "castle-yellow=0", "--set", "diamond=0",
       "--set", "fairy=0")


def export(run, out, *args):
    result = run("export-cards", "--out", str(out), *args)
    assert result.exit_code == 0, result.output
    return result


def manifest(folder) -> list[dict]:
    with open(folder / "manifest.csv", newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def refused(result, *words):
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.output, result.output
    assert all(word in lines[0] for word in words), lines[0]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_token_image_is_the_token_the_print_sheets_draw(lang):
    palaces = load("palaces")
    diameter = 25.0
    side = (diameter + 2 * tokens.TOKEN_BLEED) * PT_PER_MM
    for index, token in enumerate(palaces.tokens):
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=(side, side))
        forms = tokens.define_forms(canvas, palaces, lang, diameter)
        tokens.place(canvas, forms[index], side / 2 / PT_PER_MM, side / 2 / PT_PER_MM)
        canvas.showPage()
        canvas.save()
        drawn = pdfium.PdfDocument(buffer.getvalue())[0].render(scale=300 / 72).to_pil().convert("RGB")
        image = token_image(palaces, token, lang, diameter)
        assert image.mode == "RGB" and image.size == drawn.size == (319, 319)  # 27 mm at 300 DPI
        difference = np.abs(np.asarray(drawn, dtype=int) - np.asarray(image, dtype=int)).max(axis=2)
        assert difference.mean() < 3  # the same picture: only antialiased edges differ
        assert np.percentile(difference, 98) < 40
        # The disc's colour under the value, white in the corners, ink digits at the centre.
        pixels = np.asarray(image)
        assert tuple(pixels[0, 0]) == (255, 255, 255)
        assert tuple(pixels[160, 20]) == tokens.colours(palaces)[token.value]
        assert pixels[100:160, 120:200].min() < 60


# The services' own figures (the issue's table for poker; their templates for the other sizes).
SIZES = [("tgc", "poker", (825, 1125)), ("tgc", "bridge", (750, 1125)), ("tgc", "mini", (600, 825)),
         ("tgc", "tarot", (900, 1500)), ("mpc", "poker", (822, 1122)), ("mpc", "bridge", (747, 1122)),
         ("mpc", "mini", (597, 822)), ("mpc", "tarot", (897, 1497)),
         ("tabletopia", "poker", (744, 1039)), ("tabletopia", "mini", (520, 744)),
         ("tabletopia", "60x90", (709, 1063))]


@pytest.mark.parametrize("target,size,pixels", SIZES)
def test_every_card_image_has_the_services_exact_pixels_rgb_at_300_dpi(run, tmp_path, target, size, pixels):
    # The full card texts do not fit a mini, or a service's bridge, at 7.5 pt: shorter ones do.
    short = ("--catalogue", str(short_texts(tmp_path / "deck", "diamoniak"))) if size in ("mini", "bridge") else ()
    # (the built-in aid does not fit a mini card at 7.5 pt, even on both sides: it is refused there)
    aids = size != "mini"
    export(run, tmp_path / "out", "--target", target, "--card", size, "--aids" if aids else "--no-aids", *short, *FEW)
    tmp_path = tmp_path / "out"
    rows = manifest(tmp_path)
    cards = [row for row in rows if row["side"] in ("face", "back")]
    assert [row["file"] for row in cards] == ["castle-red.png", "witch.png"] + [
        "player_aid-en.png", "player_aid_back-en.png"] * aids + ["back.png"]
    for row in cards:
        with Image.open(tmp_path / row["file"]) as image:
            assert image.format == "PNG" and image.mode == "RGB", row  # no alpha: the services flatten it
            assert image.size == pixels, row
            assert tuple(round(d) for d in image.info["dpi"]) == (300, 300), row
    files = sorted(path.name for path in tmp_path.iterdir() if path.name != MARK)  # the export's mark
    assert files == sorted([row["file"] for row in rows] + ["manifest.csv"])  # flat, nothing else


def test_a_size_the_service_does_not_offer_is_refused_in_one_line(run, tmp_path):
    out = tmp_path / "out"
    refused(run("export-cards", "--target", "tgc", "--card", "60x90", "--out", str(out)),
            "--card 60x90", "The Game Crafter", "poker, bridge, mini, tarot")
    refused(run("export-cards", "--target", "mpc", "--card", "63x89", "--out", str(out)), "MakePlayingCards")
    assert not out.exists()


@pytest.mark.parametrize("target", ["tgc", "mpc", "tabletopia"])
def test_bleed_is_refused_with_a_service_target(run, tmp_path, target):
    out = tmp_path / "out"
    refused(run("export-cards", "--target", target, "--bleed", "3", "--out", str(out)), "--bleed")
    assert not out.exists()


def test_tokens_go_with_palaces_and_the_manifest_counts_what_the_catalogue_does(run, tmp_path):
    result = export(run, tmp_path, "--target", "mpc", "--game", "palaces", "--lang", "ru", "--aids",
                    "--set", "tower=5")
    palaces = load("palaces")
    rows = manifest(tmp_path)
    faces = {row["card_id"]: row for row in rows if row["side"] == "face"}
    counts = {card.id: (5 if card.id == "tower" else card.count) for card in palaces.cards if card.count}
    aids = palaces.players[1]
    assert {card_id: int(row["quantity"]) for card_id, row in faces.items()} == {**counts, "player_aid": aids}
    assert faces["tower"]["name"] == palaces.card("tower").name["ru"]
    assert {row["back"] for row in faces.values()} == {"back.png", "player_aid_back-ru.png"}
    assert faces["player_aid"]["back"] == "player_aid_back-ru.png"  # the aid's own back, never the deck's
    aid_back, back = [row for row in rows if row["side"] == "back"]
    assert back["file"] == "back.png" and int(back["quantity"]) == sum(counts.values())
    assert aid_back["file"] == "player_aid_back-ru.png" and int(aid_back["quantity"]) == aids
    assert back["back"] == ""
    tokens_rows = [row for row in rows if row["side"] == "token"]
    # A token shows its value on both sides: its back is its own image.
    assert [(row["file"], int(row["quantity"]), row["name"], row["back"]) for row in tokens_rows] == [
        (f"{token.id}.png", token.count, token.name["ru"], f"{token.id}.png") for token in palaces.tokens]
    assert "375 x 375 px" in result.output and "1 in circle" in result.output
    paint = tokens.colours(palaces)
    for token in palaces.tokens:
        with Image.open(tmp_path / f"{token.id}.png") as image:
            # The Game Crafter's medium circle chit: 1 in + 1/8 in bleed each side at 300 DPI.
            assert image.mode == "RGB" and image.size == (375, 375)
            assert round(image.info["dpi"][0]) == 300
            assert image.getpixel((187, 20)) == paint[token.value]  # the disc's colour runs into the bleed


def _ring_darkness(image: Image.Image, radius_px: float) -> int:
    """The darkest grey level within 1 mm either side of a circle round the image's centre."""
    grey = np.asarray(image.convert("L"), dtype=int)
    ys, xs = np.indices(grey.shape)
    centre = (grey.shape[0] - 1) / 2
    distance = np.hypot(xs - centre, ys - centre)
    return int(grey[np.abs(distance - radius_px) <= 300 / 25.4].min())


@pytest.mark.parametrize("target", ["tgc", "mpc", "png"])
def test_a_token_the_service_cuts_carries_no_cut_line(run, tmp_path, target):
    """The cut circle, printed, shows wherever the service's cut drifts: the tokens they cut have
    none (the disc's colour, not ink, all round where it would be), while the print sheet's keep it."""
    export(run, tmp_path, "--target", target, "--game", "palaces", "--no-aids",
           *(arg for card in load("palaces").cards if card.id != "tower" for arg in ("--set", f"{card.id}=0")))
    palaces = load("palaces")
    for token in palaces.tokens:
        with Image.open(tmp_path / f"{token.id}.png") as image:
            diameter_px = 300 if target != "png" else 25 / 25.4 * 300  # 1 in chits; the png set's 25 mm
            assert _ring_darkness(image, diameter_px / 2) > 120, token.id
    sheet = token_image(palaces, palaces.tokens[0], "en", 25.0)  # the print sheet's token
    assert _ring_darkness(sheet, 25 / 25.4 * 300 / 2) < 80


@pytest.mark.parametrize("size", ["60x60"])
def test_square_cards_are_cards_in_the_manifest(run, tmp_path, size):
    """Square cards at Tabletopia look like tokens by their pixels: the manifest says which is which."""
    short = short_texts(tmp_path / "deck", "palaces")  # the full texts do not fit a square card at 7.5 pt
    tmp_path = tmp_path / "out"
    export(run, tmp_path, "--target", "tabletopia", "--card", size, "--catalogue", str(short), "--no-aids",
           *(arg for card in load("palaces").cards if card.id != "tower" for arg in ("--set", f"{card.id}=0")))
    sides = {row["file"]: row["side"] for row in manifest(tmp_path)}
    assert sides == {"tower.png": "face", "back.png": "back", "token-1.png": "token", "token-5.png": "token"}
    with Image.open(tmp_path / "tower.png") as card, Image.open(tmp_path / "token-1.png") as token:
        assert card.width == card.height and token.width == token.height


def test_diamoniak_has_no_tokens_and_the_same_export_gives_the_same_bytes(run, tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    export(run, first, "--target", "tgc", *FEW)
    export(run, second, "--target", "tgc", *FEW)
    assert not any(row["side"] == "token" for row in manifest(first))
    assert not list(first.glob("token*"))
    names = sorted(path.name for path in first.iterdir())
    assert names == sorted(path.name for path in second.iterdir())
    assert all((first / name).read_bytes() == (second / name).read_bytes() for name in names)


@pytest.mark.parametrize("token_id,why", [("tower", "a card's id"), ("back", "reserved")])
def test_a_token_id_that_would_name_a_cards_file_is_refused(run, tmp_path, token_id, why):
    """Token pictures are named after their ids beside the cards': the loader keeps the ids apart."""
    doc = copy.deepcopy(builtin_doc("palaces"))
    doc["tokens"][0]["id"] = token_id
    path = write_catalogue(tmp_path, doc)
    out = tmp_path / "out"
    refused(run("export-cards", "--catalogue", str(path), "--target", "tgc", "--out", str(out)),
            "tokens[0].id", why)
    assert not out.exists()


@pytest.mark.parametrize("target,size", [("tgc", "mini"), ("mpc", "mini")])
def test_text_stays_inside_the_safe_zone(run, tmp_path, doc, target, size):
    """Plain light art and text far too long for the card: every dark pixel is text, and the text
    fills the card, so the renderer's own 1.5 mm margin would put it past the safe zone (66 px
    from the edge, of a 75 px safe zone, on a mini at The Game Crafter; on the larger cards that
    margin happens to be enough for the text, and the art test below is the one that tells)."""
    for card in doc["cards"]:
        card["count"] = 0
    doc["cards"][1].update(count=3, name={"en": "Short", "ru": "Коротко"},
                           text={"en": "Move on.", "ru": "Дальше."})
    out = tmp_path / "out"
    for words in (60, 40, 24, 16, 10, 6, 3):  # the longest text that still fits at 7.5 pt (60 is refused, not cut)
        doc["cards"][0].update(count=3, name={"en": "Wide " * 4, "ru": "Широкие " * 3},
                               text={"en": "Wide words " * words, "ru": "Широкие слова " * words})
        path = write_catalogue(tmp_path, doc)
        for art in (doc["cards"][0]["art"], doc["cards"][1]["art"], doc["game"]["back_art"]):
            Image.new("RGB", (815, 1110), (253, 249, 238)).save(tmp_path / art)  # plain paper
        result = run("export-cards", "--catalogue", str(path), "--target", target, "--card", size, "--no-aids",
                     "--out", str(out))
        if result.exit_code == 0:
            break
        assert "does not fit" in result.stderr and words > 3, result.stderr
    from toolkit.print.targets import service_target

    safe = service_target(target).sizes[size].safe_px
    for row in manifest(out):
        if row["side"] != "face":
            continue
        with Image.open(out / row["file"]) as image:
            dark = np.asarray(image.convert("L")) < 128
        ys, xs = np.nonzero(dark)
        height, width = dark.shape
        margins = (xs.min(), width - 1 - xs.max(), ys.min(), height - 1 - ys.max())
        assert min(margins) >= safe, (row["file"], margins)
        if row["card_id"] == doc["cards"][0]["id"]:
            assert min(margins[:2]) < safe + 50  # the text does run to (within 4 mm of) the safe zone's sides


@pytest.mark.parametrize("game,target,size", [("diamoniak", "tgc", "poker"), ("diamoniak", "tgc", "mini"),
                                              ("diamoniak", "mpc", "tarot"), ("palaces", "mpc", "bridge"),
                                              ("diamoniak", "tabletopia", "poker")])
def test_nothing_of_the_art_but_its_plain_frame_lies_past_the_safe_zone(run, tmp_path, game, target, size):
    """Between the image's edge and the safe zone, every face is one plain colour: the frame's
    outlines and the corner badges are inside (covering the bleed, our art would put them 1.1 mm
    inside the trim of a poker card at The Game Crafter, in its 3.2 mm safe zone)."""
    few = FEW if game == "diamoniak" else [arg for colour in ("red", "blue", "green", "yellow")
                                           for kind in ("foundation", "floor", "roof") if colour != "red"
                                           for arg in ("--set", f"{kind}-{colour}=0")]
    short = ("--catalogue", str(short_texts(tmp_path / "deck", game))) if size in ("mini", "bridge") else ()
    export(run, tmp_path / "out", *(short or ("--game", game)), "--target", target, "--card", size, "--no-aids", *few)
    tmp_path = tmp_path / "out"
    from toolkit.print.targets import service_target

    edge = int(service_target(target).spec(size, (63, 88)).safe_px) - 1  # a pixel of antialiasing
    for row in manifest(tmp_path):
        if row["side"] != "face":
            continue
        with Image.open(tmp_path / row["file"]) as image:
            pixels = np.asarray(image, dtype=int)
        outside = np.ones(pixels.shape[:2], bool)
        outside[edge:-edge, edge:-edge] = False
        band = pixels[outside]
        assert (np.abs(band - np.median(band, axis=0)).max(axis=1) > 24).sum() == 0, row["file"]


# (on poker and bridge cards the aid's text goes on to its back; on tarot it fits one side)
@pytest.mark.parametrize("target,size,side", [
    ("tgc", "poker", "player_aid-en.png"), ("mpc", "tarot", "player_aid-en.png"), ("tgc", "bridge", "player_aid-en.png"),
    ("tgc", "poker", "player_aid_back-en.png"), ("mpc", "bridge", "player_aid_back-en.png")])
def test_the_player_aid_keeps_its_text_inside_the_safe_zone(run, tmp_path, target, size, side):
    """Every pixel where the exported aid (both sides of its text) differs from its plain ground
    (band, rule, paper) is text, and all of them lie inside the service's safe zone."""
    from toolkit.print.aids import aid_art
    from toolkit.print.targets import service_target

    short = ("--catalogue", str(short_texts(tmp_path / "deck", "diamoniak"))) if size in ("mini", "bridge") else ()
    export(run, tmp_path / "out", "--target", target, "--card", size, "--aids", *short, *FEW)
    tmp_path = tmp_path / "out"
    spec = service_target(target).sizes[size]
    with Image.open(tmp_path / side) as image:
        drawn = np.asarray(image.convert("L"), dtype=int)
    ground = np.asarray(aid_art(spec.card_mm, spec.bleed_mm).convert("L"), dtype=int)
    assert drawn.shape == ground.shape == (spec.image_px[1], spec.image_px[0])
    ys, xs = np.nonzero(np.abs(drawn - ground) > 24)
    height, width = drawn.shape
    margins = (xs.min(), width - 1 - xs.max(), ys.min(), height - 1 - ys.max())
    assert min(margins) >= spec.safe_px - 1, margins  # a pixel of antialiasing
