"""``toolkit preflight``: every target's export passes it, and a broken file of each kind fails it
with the line that says what is wrong. Broken files are made from the exports (re-read and
damaged with Pillow and pypdf) or drawn from scratch, as another tool might have made them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image, ImageDraw
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject, StreamObject, TextStringObject

from conftest import short_texts
from toolkit.cli import main
from toolkit.print.preflight import preflight, safe_zone_problem
from toolkit.print.targets import service_target
from toolkit.typeset.fonts import pillow_font

# Diamoniak cut down to its red castle and witch: two faces, the same export.
FEW = ("--set", "castle-blue=0", "--set", "castle-green=0", "--set", "castle-yellow=0", "--set", "diamond=0",
       "--set", "fairy=0")
# Palaces (its tokens go with TTS and Screentop) cut down to its red foundation and ruins.
DROPPED = ["floor-red", "roof-red", "tower", "exchange", "general-exchange", "flood"] + [
    f"{kind}-{colour}" for kind in ("foundation", "floor", "roof") for colour in ("blue", "green", "yellow")]
PALACES_FEW = ("--game", "palaces", *(arg for card in DROPPED for arg in ("--set", f"{card}=0")))
TARGETS = ("tgc", "mpc", "tabletopia", "screentop", "tts", "drivethru")


@pytest.fixture(scope="module")
def exports(shared) -> dict[str, Path]:
    """One small export per target, made once per session (the tests copy what they damage)."""

    def build(root: Path) -> None:
        runner = CliRunner()
        for target in TARGETS:
            deck = PALACES_FEW if target in ("tts", "screentop") else FEW
            result = runner.invoke(main, ["export-cards", "--target", target, "--aids", "--out", str(root / target),
                                          *deck], catch_exceptions=False)
            assert result.exit_code == 0, result.output

    root = shared.folder_of(("preflight exports", TARGETS, FEW, PALACES_FEW), build)
    return {target: root / target for target in TARGETS}


def check(run, path, target, *args):
    """Run ``toolkit preflight``; returns (exit status, {check name: line}) of its lines."""
    result = run("preflight", str(path), "--target", target, *args)
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert all(line.split()[0] in ("PASS", "WARN", "FAIL") for line in lines), result.output
    return result.exit_code, {line.split(" ", 1)[1].split(":", 1)[0]: line for line in lines[:-1]}


def failed(run, path, target, name, *words, args=()):
    status, lines = check(run, path, target, *args)
    assert status == 1, lines
    assert lines[name].startswith("FAIL"), lines
    assert all(word in lines[name] for word in words), lines[name]
    return lines


def copy(folder: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(folder, tmp_path / folder.name))


def alone(folder: Path, name: str, tmp_path: Path) -> Path:
    """A folder holding only the export's image ``name``: one image to check, so a test stays quick."""
    (tmp_path / "alone").mkdir(parents=True)
    return Path(shutil.copy(folder / name, tmp_path / "alone")).parent


@pytest.mark.parametrize("target", TARGETS)
def test_every_export_passes_its_target(run, exports, target):
    status, lines = check(run, exports[target], target)
    assert status == 0, lines
    assert not [line for line in lines.values() if line.startswith("FAIL")]
    assert {"safe zone" if target != "drivethru" else "page order"} <= set(lines)


def test_the_json_report_is_one_object(run, exports):
    result = run("preflight", str(exports["tgc"]), "--target", "tgc", "--json")
    report = json.loads(result.output)
    assert result.exit_code == 0 and report["passed"] is True and report["target"] == "tgc"
    assert {c["name"] for c in report["checks"]} >= {"size", "colour mode", "bleed", "safe zone", "guide lines"}


# --- PNG sets ---------------------------------------------------------------------------------------

def test_a_card_of_the_wrong_size_fails(run, exports, tmp_path):
    folder = copy(exports["tgc"], tmp_path)
    image = Image.open(folder / "witch.png")
    image.resize((815, 1110)).save(folder / "witch.png", dpi=(300, 300))  # our 63 x 88 mm + 3 mm, not TGC's
    failed(run, folder, "tgc", "size", "witch.png is 815 x 1110", "825 x 1125")


def test_a_size_no_service_size_matches_names_the_sizes_it_takes(run, tmp_path):
    Image.new("RGB", (500, 700), (200, 40, 40)).save(tmp_path / "card.png")
    failed(run, tmp_path, "mpc", "size", "822 x 1122", "found 500 x 700")


def test_a_size_asked_for_is_the_one_checked(run, exports):
    failed(run, exports["tgc"], "tgc", "size", "900 x 1500 px for tarot", "castle-red.png is 825 x 1125",
           args=("--card", "tarot"))  # 2.75 x 4.75 in and 1/8 in of bleed at 300 DPI


def test_tabletopia_takes_one_size_for_the_whole_deck(run, exports, tmp_path):
    folder = copy(exports["tabletopia"], tmp_path)
    Image.open(folder / "witch.png").resize((700, 1000)).save(folder / "witch.png")
    failed(run, folder, "tabletopia", "size", "witch.png is 700 x 1000")


def test_an_alpha_channel_fails_at_the_game_crafter_but_not_at_tabletopia(run, exports, tmp_path):
    for target in ("tgc", "tabletopia"):
        folder = copy(exports[target], tmp_path / target)
        Image.open(folder / "back.png").convert("RGBA").save(folder / "back.png", dpi=(300, 300))
        status, lines = check(run, folder, target)
        assert lines["colour mode"].startswith("FAIL" if target == "tgc" else "PASS"), lines
        if target == "tgc":
            assert "back.png is RGBA" in lines["colour mode"]


def test_a_dpi_other_than_300_fails_at_the_services_and_no_dpi_is_a_warning(run, exports, tmp_path):
    folder = alone(exports["mpc"], "back.png", tmp_path)
    Image.open(folder / "back.png").save(folder / "back.png", dpi=(72, 72))
    failed(run, folder, "mpc", "dpi", "back.png says 72 DPI")
    Image.open(folder / "back.png").save(folder / "back.png")  # no pHYs chunk at all
    status, lines = check(run, folder, "mpc")
    assert status == 0 and lines["dpi"].startswith("WARN") and "1 image says no DPI" in lines["dpi"], lines
    assert "back.png" in lines["dpi"]
    folder = alone(exports["tabletopia"], "back.png", tmp_path / "tabletopia")  # a virtual table reads pixels only
    Image.open(folder / "back.png").save(folder / "back.png", dpi=(72, 72))
    status, lines = check(run, folder, "tabletopia")
    assert status == 0 and "dpi" not in lines, lines


def test_one_image_is_counted_in_the_singular(run, exports, tmp_path):
    shutil.copy(exports["tgc"] / "witch.png", tmp_path)
    status, lines = check(run, tmp_path, "tgc")
    assert status == 0, lines
    assert "1 image, PNG" in lines["files"] and "1 card image is 825 x 1125" in lines["size"], lines


def test_a_white_border_in_the_bleed_fails(run, exports, tmp_path):
    folder = copy(exports["tgc"], tmp_path)
    image = Image.open(folder / "castle-red.png")
    framed = Image.new("RGB", image.size, (255, 255, 255))
    framed.paste(image.crop((20, 20, image.width - 20, image.height - 20)), (20, 20))
    framed.save(folder / "castle-red.png", dpi=(300, 300))
    failed(run, folder, "tgc", "bleed", "castle-red.png", "white or transparent border 20 px")


def _text_at(image: Image.Image, y: int, text: str = "Draw two cards") -> Image.Image:
    image = image.convert("RGB")
    ImageDraw.Draw(image).text((image.width // 3, y), text, font=pillow_font("text", 28), fill=(20, 20, 30),
                               anchor="ls")
    return image


def test_text_across_the_safe_line_fails_and_inside_it_passes(run, exports, tmp_path):
    folder = copy(exports["tgc"], tmp_path)
    spec = service_target("tgc").spec("poker", (63, 88))
    face = Image.open(exports["tgc"] / "witch.png")
    safe = round(spec.safe_px)
    _text_at(face, safe + 6).save(folder / "witch.png", dpi=(300, 300))  # the letters straddle the line
    failed(run, folder, "tgc", "safe zone", "witch.png", "past the safe line at the top")
    _text_at(face, face.height - safe + 14).save(folder / "witch.png", dpi=(300, 300))
    failed(run, folder, "tgc", "safe zone", "witch.png", "at the bottom")
    _text_at(face, safe + 40).save(folder / "witch.png", dpi=(300, 300))  # the same words, inside
    status, lines = check(run, folder, "tgc")
    assert status == 0 and lines["safe zone"].startswith("PASS"), lines


def test_the_safe_zone_detector_tells_text_from_art_that_runs_to_the_edge():
    spec = service_target("tgc").spec("poker", (63, 88))
    w, h = spec.image_px
    checks = Image.new("RGB", (w, h), (30, 90, 90))  # a pattern to the very edge, like our backs
    draw = ImageDraw.Draw(checks)
    for x in range(0, w, 30):
        for y in range(0, h, 30):
            if (x + y) // 30 % 2:
                draw.rectangle((x, y, x + 29, y + 29), fill=(200, 220, 90))
    assert safe_zone_problem(checks, spec) is None
    frame = Image.new("RGB", (w, h), (90, 40, 140))  # panels whose outlines cross the band
    draw = ImageDraw.Draw(frame)
    draw.rounded_rectangle((50, 50, w - 50, h // 2), radius=30, fill=(240, 230, 250), outline=(30, 20, 40), width=6)
    draw.rounded_rectangle((50, h // 2 + 20, w - 50, h - 50), radius=30, fill=(250, 245, 230), outline=(30, 20, 40),
                           width=6)
    assert safe_zone_problem(frame, spec) is None
    problem = safe_zone_problem(_text_at(frame, 70, "Victory 5"), spec)
    assert problem and "at the top" in problem
    sideways = frame.copy()  # the text turned along the left side, across the safe line
    label = Image.new("RGB", (400, 60), (90, 40, 140))
    ImageDraw.Draw(label).text((0, 45), "Victory 5", font=pillow_font("name", 40), fill=(255, 255, 255), anchor="ls")
    sideways.paste(label.rotate(90, expand=True), (40, 300))
    assert "at the left" in (safe_zone_problem(sideways, spec) or "")


def _text_across(image: Image.Image, x: int, y: int = 600) -> Image.Image:
    image = image.convert("RGB")
    ImageDraw.Draw(image).text((x, y), "Text past the safe line", font=pillow_font("text", 28), fill=(20, 20, 30))
    return image


def test_text_running_off_the_left_or_right_and_a_badge_past_the_safe_line_fail(run, exports, tmp_path):
    """One line of text across a side (even off the image's edge), and a badge, in the margin."""
    folder = alone(exports["tgc"], "witch.png", tmp_path)
    face = Image.open(exports["tgc"] / "witch.png")
    safe = service_target("tgc").spec("poker", (63, 88)).safe_px  # 75 px from the edge
    badged = face.convert("RGB")  # a 120 px badge at (10, 500), a number in a ring
    draw = ImageDraw.Draw(badged)
    draw.ellipse((10, 500, 129, 619), fill=(250, 245, 230), outline=(30, 20, 40), width=5)
    draw.text((70, 560), "5", font=pillow_font("name", 60), fill=(30, 20, 40), anchor="mm")
    for side, image in (("left", _text_across(face, 45)), ("right", _text_across(face, 560)),  # off the edge
                        ("left", badged)):
        image.save(folder / "witch.png", dpi=(300, 300))
        lines = failed(run, folder, "tgc", "safe zone", "witch.png", f"past the safe line at the {side}")
        changed = np.flatnonzero((np.asarray(image) != np.asarray(face.convert("RGB"))).any(axis=(0, 2)))
        outermost = changed[0] if side == "left" else face.width - 1 - changed[-1]
        assert _mm(lines["safe zone"]) == pytest.approx(max(0, safe - outermost) / 300 * 25.4, abs=0.2), lines


def _mm(line: str) -> float:
    """The distance in "... 2.5 mm past the safe line ..."."""
    return float(line.split(" mm past")[0].split()[-1])


def test_the_distance_past_the_safe_line_is_the_texts_own(exports):
    spec = service_target("tgc").spec("poker", (63, 88))
    plain = Image.open(exports["tgc"] / "witch.png").convert("RGB")
    image = plain.copy()
    ImageDraw.Draw(image).text((300, round(spec.safe_px) - 15), "Text past the safe line",
                               font=pillow_font("text", 28), fill=(20, 20, 30), anchor="lt")
    inked = np.flatnonzero((np.asarray(image) != np.asarray(plain)).any(axis=(1, 2)))
    real = (spec.safe_px - inked[0]) / 300 * 25.4  # from the letters' highest pixel: about 1.3 mm
    problem = safe_zone_problem(image, spec) or ""
    assert "at the top" in problem, problem
    assert _mm(problem) == pytest.approx(real, abs=0.15), (real, problem)


def test_guides_drawn_as_a_rectangle_or_dashed_fail_at_the_game_crafter(run, exports, tmp_path):
    folder = alone(exports["tgc"], "back.png", tmp_path)
    back = Image.open(exports["tgc"] / "back.png").convert("RGB")
    spec = service_target("tgc").spec("poker", (63, 88))
    trim, safe = round(spec.bleed_px), round(spec.safe_px)
    w, h = back.size
    for at in (trim, safe):  # a 1 px rectangle at the trim (about 91 % of the width), then at the safe line
        image = back.copy()
        ImageDraw.Draw(image).rectangle((at, at, w - 1 - at, h - 1 - at), outline=(0, 255, 255), width=1)
        image.save(folder / "back.png", dpi=(300, 300))
        failed(run, folder, "tgc", "guide lines", "back.png", f"row {at}")
    image = back.copy()
    for x in range(0, w, 30):  # dashes of 15 px, gaps of 15
        ImageDraw.Draw(image).line((x, trim, x + 15, trim), fill=(0, 200, 255), width=1)
    image.save(folder / "back.png", dpi=(300, 300))
    failed(run, folder, "tgc", "guide lines", "back.png", f"row {trim}")


def test_a_guide_line_fails_at_the_game_crafter(run, exports, tmp_path):
    folder = copy(exports["tgc"], tmp_path)
    image = Image.open(folder / "back.png").convert("RGB")
    trim = round(service_target("tgc").spec("poker", (63, 88)).bleed_px)
    ImageDraw.Draw(image).line((0, trim, image.width, trim), fill=(0, 255, 255), width=1)
    image.save(folder / "back.png", dpi=(300, 300))
    failed(run, folder, "tgc", "guide lines", "back.png", f"row {trim}")


def test_a_file_that_is_not_an_image_fails(run, exports, tmp_path):
    folder = copy(exports["mpc"], tmp_path)
    (folder / "back.png").write_bytes(b"not a picture")
    failed(run, folder, "mpc", "files", "back.png cannot be read as an image")


# --- bad input: one line, status 2 -------------------------------------------------------------------

def test_bad_input_is_one_line_with_status_2(run, exports, tmp_path):
    for args in ((str(tmp_path / "missing"), "--target", "tgc"),
                 (str(exports["drivethru"]), "--target", "drivethru", "--card", "mini"),
                 (str(exports["tgc"]), "--target", "tgc", "--card", "huge")):
        result = run("preflight", *args)
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.output, result.output
    assert "missing: no such file or folder" in run("preflight", str(tmp_path / "missing"), "--target", "tgc").output
    with pytest.raises(Exception, match="unknown target"):
        preflight(exports["tgc"], "mpcx", None)


# --- Tabletop Simulator ------------------------------------------------------------------------------

def _saved(folder: Path) -> tuple[Path, dict]:
    path = next(p for p in folder.glob("*.json"))
    return path, json.loads(path.read_text(encoding="utf-8"))


def _decks(doc: dict) -> list[dict]:
    return [entry for obj in doc["ObjectStates"] if "CustomDeck" in obj for entry in obj["CustomDeck"].values()]


def _rewrite(path: Path, doc: dict, change) -> None:
    """Apply ``change`` to every CustomDeck entry of the card deck, wherever it is repeated."""
    for obj in [doc["ObjectStates"][0], *doc["ObjectStates"][0]["ContainedObjects"]]:
        for entry in obj["CustomDeck"].values():
            change(entry)
    path.write_text(json.dumps(doc), encoding="utf-8")


def test_a_tts_sheet_of_11_x_7_fails(run, exports, tmp_path):
    folder = copy(exports["tts"], tmp_path)
    path, doc = _saved(folder)
    _rewrite(path, doc, lambda entry: entry.update(NumWidth=11, NumHeight=7))
    failed(run, folder, "tts", "sheet grid", "11 x 7 sheet", "at most 10 x 7")


def test_a_tts_grid_that_does_not_match_the_sheet_fails(run, exports, tmp_path):
    folder = copy(exports["tts"], tmp_path)
    path, doc = _saved(folder)
    cols = next(iter(doc["ObjectStates"][0]["CustomDeck"].values()))["NumWidth"]
    _rewrite(path, doc, lambda entry: entry.update(NumWidth=cols * 2))  # cells half as wide as the cards
    failed(run, folder, "tts", "sheet grid", f"{cols * 2} x", "not shaped like the back")


def test_a_tts_sheet_over_4096_px_fails(run, exports, tmp_path):
    folder = copy(exports["tts"], tmp_path)
    path, doc = _saved(folder)
    sheet = folder / "big.png"
    Image.open(next(folder.glob("*deck-1.png"))).resize((4200, 2000)).save(sheet)
    _rewrite(path, doc, lambda entry: entry.update(FaceURL=sheet.as_uri()))
    failed(run, folder, "tts", "sheet grid", "big.png is 4200 x 2000 px")


def test_a_tts_url_that_does_not_resolve_fails_and_a_web_url_passes(run, exports, tmp_path):
    folder = copy(exports["tts"], tmp_path)
    path, doc = _saved(folder)
    _rewrite(path, doc, lambda entry: entry.update(BackURL=(folder / "gone.png").as_uri()))
    failed(run, folder, "tts", "image urls", "gone.png does not exist")
    _rewrite(path, doc, lambda entry: entry.update(BackURL="https://example.org/cards/back.png"))
    status, lines = check(run, folder, "tts")
    assert status == 0 and "1 web address not fetched (not checked)" in lines["image urls"], lines
    assert "resolve" not in lines["image urls"] and "local image" in lines["image urls"], lines
    _rewrite(path, doc, lambda entry: entry.update(BackURL="back.png"))
    failed(run, folder, "tts", "image urls", "neither a file:/// nor an http(s) URL")


def test_a_tts_card_in_the_hidden_last_cell_or_off_the_sheet_fails(run, exports, tmp_path):
    folder = copy(exports["tts"], tmp_path)
    path, doc = _saved(folder)
    deck = doc["ObjectStates"][0]
    entry = next(iter(deck["CustomDeck"].values()))
    key = int(next(iter(deck["CustomDeck"])))
    last = key * 100 + entry["NumWidth"] * entry["NumHeight"] - 1
    deck["ContainedObjects"][0]["CardID"] = deck["DeckIDs"][0] = last
    _rewrite(path, doc, lambda entry: entry.update(BackIsHidden=False))
    failed(run, folder, "tts", "card ids", f"CardID {last}", "hidden card")
    deck["ContainedObjects"][0]["CardID"] = deck["DeckIDs"][0] = last + 5
    path.write_text(json.dumps(doc), encoding="utf-8")
    failed(run, folder, "tts", "card ids", "outside the")


def test_a_folder_without_a_saved_object_fails(run, exports, tmp_path):
    shutil.copy(next(exports["tts"].glob("*deck-1.png")), tmp_path)
    failed(run, tmp_path, "tts", "saved object", "no Tabletop Simulator saved object")


# --- Screentop ---------------------------------------------------------------------------------------

def test_screentop_text_past_the_safe_line_of_a_cell_fails(run, exports, tmp_path):
    folder = copy(exports["screentop"], tmp_path)
    path = next(folder.glob("*faces-1.png"))
    sheet = Image.open(path).convert("RGB")
    ImageDraw.Draw(sheet).text((40, 6), "Take 2", font=pillow_font("name", 30), fill=(255, 255, 255), anchor="lt")
    sheet.save(path)
    failed(run, folder, "screentop", "safe zone", f"{path.name} cell 1", "at the top")


def test_screentop_without_a_back_fails(run, exports, tmp_path):
    folder = copy(exports["screentop"], tmp_path)
    next(folder.glob("*back.png")).unlink()
    failed(run, folder, "screentop", "back", "no back image")


# --- DriveThruCards ----------------------------------------------------------------------------------

def _damaged(source: Path, tmp_path: Path, change) -> Path:
    """The export's PDF rewritten by pypdf after ``change(writer)``, in a folder of its own."""
    writer = PdfWriter(clone_from=PdfReader(next(source.glob("*.pdf"))))
    change(writer)
    folder = tmp_path / "damaged"
    folder.mkdir(parents=True)
    with open(folder / "deck.pdf", "wb") as file:
        writer.write(file)
    return folder


def _append(writer: PdfWriter, page: int, operators: bytes, resources: dict | None = None) -> None:
    target = writer.pages[page]
    stream = StreamObject()
    stream.set_data(operators)
    contents = target.get_contents()
    existing = StreamObject()
    existing.set_data(contents.get_data())
    target[NameObject("/Contents")] = ArrayObject([writer._add_object(existing), writer._add_object(stream)])
    for kind, items in (resources or {}).items():
        holder = target["/Resources"].get_object()
        if kind not in holder:
            holder[NameObject(kind)] = DictionaryObject()
        holder[kind].get_object().update({NameObject(k): writer._add_object(v) for k, v in items.items()})


def test_an_untouched_copy_of_the_drivethru_pdf_still_passes(run, exports, tmp_path):
    folder = _damaged(exports["drivethru"], tmp_path, lambda writer: None)
    status, lines = check(run, folder, "drivethru")
    assert status == 0, lines  # so the failures below are the damage's, not pypdf's rewriting


def test_rgb_in_the_pdf_fails(run, exports, tmp_path):
    folder = _damaged(exports["drivethru"], tmp_path, lambda w: _append(w, 1, b"q 1 0 0 rg 0 0 20 20 re f Q"))
    failed(run, folder, "drivethru", "colour", "page 2: 'rg' sets an RGB colour")


def _image(data: bytes, width: int, height: int, space: str) -> StreamObject:
    """An 8-bit image XObject of ``width`` x ``height`` pixels in the colour space ``space``."""
    image = StreamObject()
    image.set_data(data)
    image.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Image"),
                  NameObject("/Width"): NumberObject(width), NameObject("/Height"): NumberObject(height),
                  NameObject("/ColorSpace"): NameObject(space), NameObject("/BitsPerComponent"): NumberObject(8)})
    return image


def test_an_rgb_image_in_the_pdf_fails(run, exports, tmp_path):
    image = _image(bytes([200, 30, 30]) * 100 * 100, 100, 100, "/DeviceRGB")
    folder = _damaged(exports["drivethru"], tmp_path, lambda w: _append(
        w, 3, b"q 24 0 0 24 10 10 cm /Broken Do Q", {"/XObject": {"/Broken": image}}))
    failed(run, folder, "drivethru", "colour", "page 4: image /Broken is rgb")


def test_ink_over_240_per_cent_fails_in_an_image_and_in_a_colour(run, exports, tmp_path):
    image = _image(bytes([255, 230, 230, 90]) * 50 * 50, 50, 50, "/DeviceCMYK")  # 316 % of ink
    folder = _damaged(exports["drivethru"], tmp_path, lambda w: _append(
        w, 1, b"q 12 0 0 12 10 10 cm /Dark Do Q", {"/XObject": {"/Dark": image}}))
    failed(run, folder, "drivethru", "ink", "316 %", "image /Dark", "at most 240 %")
    folder = _damaged(exports["drivethru"], tmp_path / "k", lambda w: _append(w, 1, b"q 1 1 0.5 0 k 0 0 5 5 re f Q"))
    failed(run, folder, "drivethru", "ink", "250 %", "'k' colour")


def test_a_low_resolution_image_fails(run, exports, tmp_path):
    image = _image(bytes([0, 0, 0, 100]) * 20 * 20, 20, 20, "/DeviceCMYK")
    folder = _damaged(exports["drivethru"], tmp_path, lambda w: _append(
        w, 1, b"q 72 0 0 72 10 10 cm /Coarse Do Q", {"/XObject": {"/Coarse": image}}))
    failed(run, folder, "drivethru", "image resolution", "image /Coarse at 20 DPI")


def test_a_missing_trimbox_fails(run, exports, tmp_path):
    folder = _damaged(exports["drivethru"], tmp_path, lambda w: w.pages[2].pop("/TrimBox"))
    failed(run, folder, "drivethru", "page boxes", "page 3 has no TrimBox")


def test_a_type_3_or_unembedded_font_fails(run, exports, tmp_path):
    type3 = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type3"),
                              NameObject("/Name"): NameObject("/Bitmap")})
    folder = _damaged(exports["drivethru"], tmp_path, lambda w: _append(w, 1, b"", {"/Font": {"/F3": type3}}))
    failed(run, folder, "drivethru", "fonts", "/Bitmap is a Type 3 font")
    helvetica = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                                  NameObject("/BaseFont"): NameObject("/Helvetica")})
    folder = _damaged(exports["drivethru"], tmp_path / "h", lambda w: _append(w, 1, b"", {"/Font": {"/FH": helvetica}}))
    failed(run, folder, "drivethru", "fonts", "/Helvetica is not embedded")


def test_fronts_before_backs_fail(run, exports, tmp_path):
    def swap(writer: PdfWriter) -> None:
        reader = PdfReader(next(exports["drivethru"].glob("*.pdf")))
        order = [i ^ 1 for i in range(len(reader.pages))]  # front, back, front, back
        for _ in range(len(writer.pages)):
            writer.remove_page(0)
        for i in order:
            writer.add_page(reader.pages[i])

    folder = _damaged(exports["drivethru"], tmp_path, swap)
    failed(run, folder, "drivethru", "page order", "on even pages", "DriveThruCards takes back, front, back, front")
    folder = _damaged(exports["drivethru"], tmp_path / "odd", lambda w: w.remove_page(len(w.pages) - 1))
    failed(run, folder, "drivethru", "page order", "an even count")


def test_a_pdf_from_another_target_is_not_pdfx(run, tmp_path):
    """``pdf-single`` writes one card a page in RGB, 3 mm bleed, no PDF/X keys: preflight says each."""
    out = tmp_path / "single"
    assert run("export-cards", "--target", "pdf-single", "--out", str(out), *FEW).exit_code == 0
    lines = failed(run, out, "drivethru", "pdf/x", "GTS_PDFXVersion is missing", "no OutputIntent")
    assert lines["page size"].startswith("FAIL") and "pages of 2.72 x 3.7 in" in lines["page size"]  # 69 x 94 mm
    assert lines["colour"].startswith("FAIL") and "sets an RGB colour" in lines["colour"]
    assert "no CMYK colour or image, so no ink to measure" in lines["ink"], lines["ink"]


def test_drivethru_art_shrunk_to_the_trim_fails_the_bleed(run, exports, tmp_path):
    def shrink(writer: PdfWriter) -> None:  # page 2's drawing scaled into the TrimBox: white bleed
        page = writer.pages[1]
        media, trim = [float(v) for v in page.mediabox], [float(v) for v in page.trimbox]
        sx, sy = (trim[2] - trim[0]) / (media[2] - media[0]), (trim[3] - trim[1]) / (media[3] - media[1])
        stream = StreamObject()
        stream.set_data(f"q {sx:.5f} 0 0 {sy:.5f} {trim[0]:g} {trim[1]:g} cm\n".encode()
                        + page.get_contents().get_data() + b"\nQ")
        page[NameObject("/Contents")] = writer._add_object(stream)

    folder = _damaged(exports["drivethru"], tmp_path, shrink)
    failed(run, folder, "drivethru", "bleed", "page 2: the art stops 9.0 pt short of the BleedBox",
           "left, bottom, right, top")


def test_drivethru_text_2_pt_from_the_page_edge_fails_the_safe_zone(run, exports, tmp_path):
    font = next(iter(PdfReader(next(exports["drivethru"].glob("*.pdf"))).pages[1]["/Resources"]["/Font"]))
    folder = _damaged(exports["drivethru"], tmp_path, lambda w: _append(
        w, 1, f"BT {font} 10 Tf 2 130 Td (Castle) Tj ET".encode()))
    failed(run, folder, "drivethru", "safe zone", "page 2: text in", "10.0 pt", "16.0 pt past the safe line",
           "2.0 pt from the page's edge")


def test_an_output_condition_not_in_the_icc_registry_is_a_warning(run, exports, tmp_path):
    def condition(name: str):
        def change(writer: PdfWriter) -> None:
            intent = writer._root_object["/OutputIntents"][0].get_object()
            intent[NameObject("/OutputConditionIdentifier")] = TextStringObject(name)
            intent[NameObject("/OutputCondition")] = TextStringObject(name)
        return change

    folder = _damaged(exports["drivethru"], tmp_path / "artifex", condition("Artifex CMYK SWOP Profile"))
    status, lines = check(run, folder, "drivethru")
    assert status == 0 and lines["output condition"].startswith("WARN"), lines
    assert "'Artifex CMYK SWOP Profile' is not a registered printing condition" in lines["output condition"]
    folder = _damaged(exports["drivethru"], tmp_path / "fogra", condition("FOGRA39"))
    status, lines = check(run, folder, "drivethru")
    assert status == 0 and "output condition" not in lines and "output intent FOGRA39" in lines["pdf/x"], lines


@pytest.fixture(scope="module")
def square(shared) -> dict[str, Path]:
    """Square cards (50 x 50 mm) at Tabletopia and Screentop, Palaces' round tokens beside them."""

    def build(root: Path) -> None:
        short = short_texts(root / "deck", "palaces", words=1)  # a 50 mm square's panel holds a name and a word
        for target in ("tabletopia", "screentop"):
            # (no player aid: Palaces' does not fit a 50 mm square at 7.5 pt, even on both sides)
            result = CliRunner().invoke(main, ["export-cards", "--target", target, "--card", "50x50", "--no-aids",
                                               "--out", str(root / target), *PALACES_FEW[2:], "--catalogue",
                                               str(short)], catch_exceptions=False)
            assert result.exit_code == 0, result.output

    root = shared.folder_of(("preflight square", PALACES_FEW), build)
    return {target: root / target for target in ("tabletopia", "screentop")}


@pytest.mark.parametrize("target", ("tabletopia", "screentop"))
def test_square_cards_are_told_from_tokens_by_the_manifest(run, square, target, tmp_path):
    status, lines = check(run, square[target], target)
    assert status == 0, lines
    assert "named tokens by the manifest: " in lines["tokens"] and "token-1.png" in lines["tokens"], lines
    assert "back.png" not in lines["tokens"], lines
    if target == "tabletopia":  # without its manifest, a square image is taken for a token
        folder = copy(square[target], tmp_path)
        next(folder.glob("*manifest.csv")).unlink()
        failed(run, folder, target, "size", "every image is a token")
