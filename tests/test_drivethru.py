"""export-cards --target drivethru: one PDF/X-1a:2003 file per deck in CMYK, read back with pypdf
(pages, boxes, images, colour operators, fonts, output intent) and ImageCms (the profile)."""

from __future__ import annotations

import io
import struct
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image, ImageCms
from pypdf import PdfReader
from pypdf.generic import ContentStream

from conftest import builtin_doc, write_catalogue
from toolkit.catalogue import load
from toolkit.cli import main
from toolkit.print.aids import aid_copies
from toolkit.print.cmyk import generic_profile, limit_ink
from toolkit.print.sheets import deck_order

# Diamoniak cut to two card types: a quick deck for the tests that export again.
SMALL = ("--game", "diamoniak", "--no-aids", *(arg for card in ("castle-blue", "castle-green", "castle-yellow",
                                                              "witch", "fairy") for arg in ("--set", f"{card}=0")))
LIMIT = 240 * 255 // 100  # 240 % of four 8-bit channels
PAGE = (198.0, 270.0)     # 2.75 x 3.75 in
TRIM = (9.0, 9.0, 189.0, 261.0)


def _export(folder: Path, *args: str) -> Path:
    result = CliRunner().invoke(main, ["export-cards", "--target", "drivethru", "--out", str(folder), *args],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    (pdf,) = folder.glob("*.pdf")
    return pdf


@pytest.fixture(scope="module")
def palaces(tmp_path_factory) -> Path:
    return _export(tmp_path_factory.mktemp("palaces"), "--game", "palaces")


@pytest.fixture(scope="module")
def reader(palaces) -> PdfReader:
    return PdfReader(palaces)


def _forms(page) -> list[str]:
    return sorted(page["/Resources"].get("/XObject", {}).keys())


def _images(reader: PdfReader):
    """Every image XObject (inside the card forms), once, with the form that draws it."""
    seen = {}
    for page in reader.pages:
        for form in page["/Resources"].get("/XObject", {}).values():
            form = form.get_object()
            for name, image in form.get("/Resources", {}).get("/XObject", {}).items():
                image = image.get_object()
                if image["/Subtype"] == "/Image":
                    seen[image.indirect_reference.idnum] = (image, form)
    return list(seen.values())


def _streams(reader: PdfReader):
    """The content streams of every page and every form XObject they use, once each."""
    done = set()
    for page in reader.pages:
        yield ContentStream(page.get_contents(), reader)
        stack = list(page["/Resources"].get("/XObject", {}).values())
        while stack:
            xobject = stack.pop().get_object()
            if xobject["/Subtype"] != "/Form" or xobject.indirect_reference.idnum in done:
                continue
            done.add(xobject.indirect_reference.idnum)
            yield ContentStream(xobject, reader)
            stack.extend(xobject.get("/Resources", {}).get("/XObject", {}).values())


def test_pages_go_back_front_in_deck_order_then_aids_then_tokens(reader):
    catalogue = load("palaces")
    fronts = ([f"/FormXob.card-{card.id}" for card in deck_order(catalogue)]
              + ["/FormXob.card-player_aid"] * aid_copies(catalogue))
    pages = reader.pages
    for i, front in enumerate(fronts):
        back = "/FormXob.card-player_aid_back" if front.endswith("player_aid") else "/FormXob.back"
        assert _forms(pages[2 * i]) == [back], f"page {2 * i + 1}"  # an aid's back is its own
        assert _forms(pages[2 * i + 1]) == [front], f"page {2 * i + 2}"
    token_pages = pages[2 * len(fronts):]
    tokens = sum(token.count for token in catalogue.tokens)
    assert len(token_pages) % 2 == 0 and len(token_pages) == 2 * -(-tokens // 6)  # 6 tokens per poker card
    drawn = 0
    for back, front in zip(token_pages[::2], token_pages[1::2]):
        here, behind = _tokens(reader, front), _tokens(reader, back)
        assert len(here) == len(behind) > 0
        for _, x, y in here:  # every cut circle (25 mm) inside the safe zone, 1/8 in inside the trim
            r = 12.5 * 72 / 25.4
            assert TRIM[0] + 9 - 0.01 <= x - r and x + r <= TRIM[2] - 9 + 0.01
            assert TRIM[1] + 9 - 0.01 <= y - r and y + r <= TRIM[3] - 9 + 0.01
        drawn += len(here)
    assert drawn == tokens


def test_the_subject_counts_every_card_the_file_holds(reader):
    """Cards, aids and token cards: one card for every back, front pair of pages."""
    catalogue = load("palaces")
    cards = len(reader.pages) // 2
    assert cards == catalogue.total + aid_copies(catalogue) + -(-sum(t.count for t in catalogue.tokens) // 6)
    assert reader.metadata.subject == f"{cards} cards, 63.5 × 88.9 mm"


def _tokens(reader: PdfReader, page) -> list[tuple[str, float, float]]:
    """(token form, centre x, y in points) of each token a page draws."""
    placed, at = [], None
    for args, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"cm":
            at = (float(args[4]), float(args[5]))
        elif op == b"Do" and str(args[0]).startswith("/FormXob.token-"):
            placed.append((str(args[0]), *at))
    return sorted(placed)


def test_each_token_back_is_the_same_token_mirrored_behind_it(tmp_path):
    # 3 ones and 2 fives: the middle row of the token card holds a one and a five.
    doc = builtin_doc("palaces")
    doc["tokens"][0]["count"], doc["tokens"][1]["count"] = 3, 2
    for card in doc["cards"][1:]:
        card["count"] = 0
    path = write_catalogue(tmp_path, doc)
    for art in [doc["game"]["back_art"], doc["cards"][0]["art"]]:  # small real pictures, quick to draw
        Image.new("RGB", (16, 22), (40, 90, 160)).save(tmp_path / art)
    pdf = _export(tmp_path / "out", "--catalogue", str(path), "--no-aids")
    reader = PdfReader(pdf)
    assert len(reader.pages) == 2 * (doc["cards"][0]["count"] + 1)
    back, front = reader.pages[-2:]
    here = _tokens(reader, front)
    assert [name for name, _, _ in here].count("/FormXob.token-token-5") == 2 and len(here) == 5
    mirrored = sorted((name, PAGE[0] - x, y) for name, x, y in _tokens(reader, back))
    assert [name for name, _, _ in here] == [name for name, _, _ in mirrored]
    assert np.allclose([(x, y) for _, x, y in here], [(x, y) for _, x, y in mirrored], atol=1e-3)


def test_every_page_is_the_card_with_its_bleed_trimbox_an_eighth_inch_in(reader):
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == [0, 0, *PAGE]
        assert [float(v) for v in page.bleedbox] == [0, 0, *PAGE]
        assert [float(v) for v in page.trimbox] == list(TRIM)


def test_images_are_devicecmyk_at_300_dpi_and_ink_never_passes_240(reader):
    images = _images(reader)
    assert len(images) >= 10  # back, the card types, the aid
    darkest = 0
    for image, form in images:
        assert image["/ColorSpace"] == "/DeviceCMYK" and image["/BitsPerComponent"] == 8
        assert image["/Filter"] in ("/FlateDecode", ["/FlateDecode"]) and "/Decode" not in image
        assert "/SMask" not in image and "/Mask" not in image
        x0, y0, x1, y1 = (float(v) for v in form["/BBox"])
        assert (image["/Width"], image["/Height"]) == (825, 1125)
        assert round(image["/Width"] / ((x1 - x0) / 72)) == 300 and round(image["/Height"] / ((y1 - y0) / 72)) == 300
        pixels = np.frombuffer(image.get_data(), np.uint8).reshape(-1, 4).astype(int)
        assert pixels.sum(axis=1).max() <= LIMIT
        darkest = max(darkest, pixels[:, 3].max())
    assert darkest > 200  # the art's outlines are black ink, carried by K


def test_no_rgb_and_no_transparency_anywhere(palaces, reader):
    raw = palaces.read_bytes()
    assert b"/DeviceRGB" not in raw and b"/SMask" not in raw and b"/ExtGState" not in raw
    colours = set()
    for stream in _streams(reader):
        for args, op in stream.operations:
            assert op not in (b"rg", b"RG", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS"), op
            if op in (b"k", b"K"):
                assert len(args) == 4 and all(0 <= float(v) <= 1 for v in args)
                assert sum(float(v) for v in args) <= 2.4 + 1e-6
                colours.add(tuple(float(v) for v in args))
    assert len(colours) >= 3  # text, panels, tokens: converted, not dropped
    # near-black (text and outlines) in black ink alone: no four-ink black for small text
    assert all(c == m == y == 0 for c, m, y, k in colours if k >= 0.9)
    assert any(k >= 0.9 for *_, k in colours)


def test_fonts_are_embedded_truetype_subsets(reader):
    fonts = {}
    for page in reader.pages:
        for form in [page, *(f.get_object() for f in page["/Resources"].get("/XObject", {}).values())]:
            for font in form["/Resources"].get("/Font", {}).values():
                font = font.get_object()
                fonts[font["/BaseFont"]] = font
    assert len(fonts) == 3
    for name, font in fonts.items():
        assert font["/Subtype"] == "/TrueType", name
        assert "/FontFile2" in font["/FontDescriptor"], name


def test_pdfx_keys_and_output_intent_with_the_profile(palaces, reader):
    assert palaces.read_bytes().startswith(b"%PDF-1.4")
    info = reader.trailer["/Info"]
    assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    assert info["/Trapped"] == "/False"
    assert info["/Title"] and info["/CreationDate"] == info["/ModDate"]
    assert "pypdf" not in str(info.get("/Producer")) and "ReportLab" not in str(info.get("/Producer"))
    ids = reader.trailer["/ID"]
    assert len(ids) == 2 and all(len(bytes(i)) == 16 for i in ids)
    (intent,) = reader.trailer["/Root"]["/OutputIntents"]
    assert intent["/Type"] == "/OutputIntent" and intent["/S"] == "/GTS_PDFX"
    assert intent["/OutputConditionIdentifier"] == "Custom"
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4
    icc = ImageCms.ImageCmsProfile(io.BytesIO(profile.get_data())).profile
    assert (icc.device_class, icc.xcolor_space.strip(), icc.connection_space.strip()) == ("prtr", "CMYK", "Lab")
    assert intent["/OutputCondition"] == icc.profile_description == "Generic coated CMYK, 240 % ink"


def test_same_inputs_same_bytes(tmp_path):
    first = _export(tmp_path / "a", *SMALL).read_bytes()
    assert first == _export(tmp_path / "b", *SMALL).read_bytes()


def test_a_users_profile_is_used_named_embedded_and_still_held_to_240(tmp_path):
    # A CMYK output profile that lets the ink reach 300 %: the export must still keep to 240 %.
    icc = generic_profile(300)
    path = tmp_path / "wide.icc"
    path.write_bytes(icc)
    pdf = _export(tmp_path / "out", *SMALL, "--cmyk-profile", str(path))
    reader = PdfReader(pdf)
    (intent,) = reader.trailer["/Root"]["/OutputIntents"]
    assert intent["/OutputConditionIdentifier"] == "Generic coated CMYK, 300 % ink"
    assert intent["/DestOutputProfile"].get_object().get_data() == icc
    sums = [np.frombuffer(image.get_data(), np.uint8).reshape(-1, 4).astype(int).sum(axis=1).max()
            for image, _ in _images(reader)]
    assert max(sums) == LIMIT  # the profile's own 298 % was cut down to the limit


@pytest.mark.parametrize("content, says", [
    (b"not a profile at all", "not an ICC colour profile"),
    (ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes(), "not a CMYK output (printer) profile"),
    (generic_profile(240)[:8] + b"\x04\x20" + generic_profile(240)[10:], "an ICC version 4 profile"),
])
def test_a_bad_profile_is_refused_with_one_line(tmp_path, content, says):
    path = tmp_path / "bad.icc"
    path.write_bytes(content)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export-cards", "--game", "diamoniak", "--target", "drivethru",
                                       "--cmyk-profile", str(path), "--out", str(out)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "--cmyk-profile" in lines[0] and says in lines[0], result.output
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".toolkit-")]


def test_generic_profile_is_an_icc_v2_output_profile_that_round_trips():
    data = generic_profile(240)
    assert data == generic_profile.__wrapped__(240)  # built the same every time
    size, = struct.unpack(">I", data[:4])
    assert size == len(data) and data[36:40] == b"acsp" and data[8] == 2
    count, = struct.unpack(">I", data[128:132])
    tags = {data[132 + 12 * i:136 + 12 * i] for i in range(count)}
    assert tags == {b"desc", b"cprt", b"wtpt", b"A2B0", b"A2B1", b"A2B2", b"B2A0", b"B2A1", b"B2A2", b"gamt"}
    profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
    to_cmyk = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), profile, "RGB", "CMYK")
    to_lab = ImageCms.buildTransform(profile, ImageCms.createProfile("LAB"), "CMYK", "LAB")
    src_lab = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB"), "RGB", "LAB")
    colours = [(255, 255, 255), (0, 0, 0), (128, 128, 128), (200, 150, 120), (90, 120, 160)]
    strip = Image.new("RGB", (len(colours), 1))
    strip.putdata(colours)
    cmyk = ImageCms.applyTransform(strip, to_cmyk)
    inks = [cmyk.getpixel((x, 0)) for x in range(len(colours))]
    assert inks[0] == (0, 0, 0, 0)                       # paper white: no ink
    assert inks[1][3] == 255 and inks[2][3] > 64          # black is solid K, and K carries part of grey
    red = ImageCms.applyTransform(Image.new("RGB", (1, 1), (255, 0, 0)), to_cmyk).getpixel((0, 0))
    assert red[0] == red[3] == 0 and min(red[1:3]) > 240  # a clean colour gets no grey replacement
    printed, wanted = (np.array([lab.getpixel((x, 0)) for x in range(len(colours))], float)
                       for lab in (ImageCms.applyTransform(cmyk, to_lab), ImageCms.applyTransform(strip, src_lab)))
    assert printed[0, 0] == 255 and abs(printed[0, 1:] - 128).max() <= 1   # white stays paper white
    assert printed[1, 0] < 0.2 * 255                      # black prints dark: L* under 20
    # In-gamut colours come back within a few Lab units (grey, a skin tone, a muted blue): dE76 < 6.
    for got, want in zip(printed[2:], wanted[2:]):
        assert np.hypot((got[0] - want[0]) / 2.55, np.hypot(*(got[1:] - want[1:]))) < 6, (got, want)
    assert abs(printed[2, 0] - wanted[2, 0]) / 2.55 < 1 and abs(printed[2, 1:] - 128).max() <= 1  # grey stays grey
    # The whole sRGB cube (every 5th level) separates within the limit.
    levels = np.arange(0, 256, 5, dtype=np.uint8)
    cube = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), axis=-1).reshape(1, -1, 3)
    ink = np.asarray(ImageCms.applyTransform(Image.fromarray(cube, "RGB"), to_cmyk), int).sum(axis=-1)
    assert ink.max() <= LIMIT


def test_limit_ink_moves_grey_into_k_then_scales():
    pixels = np.array([[255, 255, 255, 0], [200, 180, 160, 250], [100, 50, 20, 10], [255, 0, 255, 255]], float)
    limited = limit_ink(pixels, LIMIT, 255.0)
    assert (limited.sum(axis=1) <= LIMIT + 1e-9).all()
    assert np.array_equal(limited[2], pixels[2])                # under the limit: untouched
    assert limited[0, 3] > 0 and limited[0, :3].max() < 255     # grey component moved into K
    assert limited[3, 3] == 255 and limited[3, 0] == limited[3, 2] < 255  # K full: C, Y scaled alike
