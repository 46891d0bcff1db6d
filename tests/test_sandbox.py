"""A deck is a sandbox (issue 33): every file a deck reads lies inside its folder (links followed), an
SVG icon shows no file from elsewhere, pictures open only as the formats the toolkit accepts, every
size is bounded before anything is decoded, and every number of a layout is a finite number. Each
ends in one line naming the file and what is wrong, never a crash, a hang or a file from elsewhere on
the cards."""

from __future__ import annotations

import base64
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import EpsImagePlugin, Image

from conftest import TINY_PNG, write_catalogue
from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.layout.engine import Look
from toolkit.layout.icons import Icons
from toolkit.layout.model import read

WEATHERVANE = Path(__file__).resolve().parents[1] / "examples" / "weathervane"
SVG = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
LAYOUT = '[elements.name]\ntype = "text"\ntext = "{name}"\nbox = [4, 4, "96%", 14]\n'


def red_png(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 8), (255, 0, 0)).save(path)
    return path


@pytest.fixture
def secret(tmp_path) -> Path:
    """A picture outside the deck's folder: what a hostile deck would put on the cards."""
    return red_png(tmp_path / "elsewhere" / "secret.png")


@pytest.fixture
def deck(tmp_path) -> Path:
    folder = tmp_path / "deck"
    folder.mkdir()
    return folder


def svg_icon(folder: Path, body: str, name: str = "icon.svg", size: str = 'width="10" height="10"') -> Path:
    path = folder / name
    path.write_text(f"<svg {SVG} {size}>{body}</svg>", encoding="utf-8")
    return path


def icon_error(path: Path) -> str:
    with pytest.raises(UserError) as err:
        icons = Icons({"x": path})
        icons.aspect("x")
        icons.image("x", 5, 5)
    message = str(err.value)
    assert "\n" not in message and str(path) in message, message
    return message


# --- 1. a deck reads nothing beyond its folder ---------------------------------------------------------


@pytest.mark.parametrize("href, problem", [
    ("{secret}", "<image> href '/"),
    ("file://{secret}", "shows no file from elsewhere"),
    ("https://example.com/secret.png", "shows no file from elsewhere"),
    ("../elsewhere/secret.png", "must stay inside the SVG's folder (no '..')"),
    ("link.png", "leaves the SVG's folder through a link"),
    ("inner.svg", "shows no other SVG"),
    ("data:image/svg+xml;base64," + base64.b64encode(f"<svg {SVG}/>".encode()).decode(), "embeds 'image/svg+xml'"),
])
def test_an_svg_icon_shows_no_picture_from_outside_its_folder(deck, secret, href, problem):
    (deck / "link.png").symlink_to(secret)
    svg_icon(deck, "", "inner.svg")
    path = svg_icon(deck, f'<image xlink:href="{href.format(secret=secret)}" width="10" height="10"/>')
    assert problem in icon_error(path)


def test_an_svg_icon_shows_pictures_beside_it_and_embedded_ones(deck):
    red_png(deck / "pictures" / "red.png")
    embedded = base64.b64encode(TINY_PNG).decode()
    path = svg_icon(deck, '<style>.a{fill:url(#g)}</style><defs><linearGradient id="g"><stop offset="0"/>'
                          '</linearGradient><symbol id="s"><rect class="a" width="2" height="2"/></symbol></defs>'
                          '<image href="pictures/red.png" width="10" height="10"/><use xlink:href="#s"/>'
                          f'<image href="data:image/png;base64,{embedded}" width="1" height="1"/>')
    image = Icons({"x": path}).image("x", 5, 5)
    assert image.getpixel((image.width - 1, image.height - 1)) == (255, 0, 0, 255)


@pytest.mark.parametrize("entry, problem", [
    ('sun = "{secret}"', "must be relative to the layout's folder (no leading / or drive)"),
    ('sun = "../elsewhere/secret.png"', "must stay inside the layout's folder (no '..')"),
    ('sun = "link.png"', "leaves the layout's folder through a link"),
])
def test_a_layouts_icon_lies_inside_its_folder(deck, secret, entry, problem):
    (deck / "link.png").symlink_to(secret)
    (deck / "layout.toml").write_text(LAYOUT + "[icons]\n" + entry.format(secret=secret) + "\n", encoding="utf-8")
    with pytest.raises(UserError) as err:
        read(deck / "layout.toml")
    assert str(err.value).startswith("layout.toml: icons: sun: path '") and problem in str(err.value), err.value


@pytest.mark.parametrize("font, problem", [
    ("{font}", "must be relative to the layout's folder"),
    ("../elsewhere/own.ttf", "must stay inside the layout's folder"),
    ("link.ttf", "leaves the layout's folder through a link"),
])
def test_a_layouts_font_lies_inside_its_folder(deck, tmp_path, font, problem):
    from toolkit.typeset.fonts import FONT_FILES

    own = tmp_path / "elsewhere" / "own.ttf"
    own.parent.mkdir()
    shutil.copy(FONT_FILES["sans"], own)
    (deck / "link.ttf").symlink_to(own)
    (deck / "layout.toml").write_text(LAYOUT + f'font = "{font.format(font=own)}"\n', encoding="utf-8")
    with pytest.raises(UserError) as err:
        read(deck / "layout.toml")
    assert str(err.value).startswith("layout.toml: elements.name: font: path '") and problem in str(err.value)


def test_art_through_a_link_out_of_the_deck_is_refused(doc, deck, secret):
    doc["cards"][3]["art"] = "link.png"
    path = write_catalogue(deck, doc)
    (deck / "link.png").unlink()
    (deck / "link.png").symlink_to(secret)
    with pytest.raises(UserError) as err:
        load(path=path)
    assert str(err.value) == "mine.toml: cards[3].art: art path 'link.png' leaves the art folder through a link"
    (deck / "cards.csv").write_text("name,copies,art\nAce,1,link.png\n", encoding="utf-8")
    with pytest.raises(UserError) as err:
        load(path=deck / "cards.csv")
    assert "row 2, column \"art\": art path 'link.png' leaves the art folder through a link" in str(err.value)


def test_a_file_the_catalogue_names_through_a_link_out_of_the_deck_is_refused(doc, deck, secret):
    shutil.copy(WEATHERVANE / "layout.toml", secret.parent / "layout.toml")
    (deck / "layout.toml").symlink_to(secret.parent / "layout.toml")
    doc["game"]["layout"] = "layout.toml"
    with pytest.raises(UserError) as err:
        load(path=write_catalogue(deck, doc))
    assert str(err.value) == "mine.toml: game.layout: path 'layout.toml' leaves the deck's folder through a link"


@pytest.mark.parametrize("value, problem", [
    ("{secret}", "must be relative to the deck's folder"),
    ("../elsewhere/secret.png", "must stay inside the deck's folder"),
])
def test_a_picture_a_cards_field_names_lies_inside_the_deck(doc, deck, secret, value, problem):
    (deck / "layout.toml").write_text('[elements.portrait]\ntype = "art"\nfield = "portrait"\nbox = [0, 0, 20, 20]\n',
                                      encoding="utf-8")
    doc["game"]["layout"] = "layout.toml"
    doc["cards"][0]["portrait"] = value.format(secret=secret)
    catalogue = load(path=write_catalogue(deck, doc))
    with pytest.raises(UserError) as err:
        Look(catalogue, "en").face(catalogue.cards[0])
    assert f"card '{catalogue.cards[0].id}': portrait '" in str(err.value) and problem in str(err.value)


# --- 3. pictures open only as the formats the toolkit accepts ---------------------------------------------


POSTSCRIPT = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n{ } loop\n"


def test_postscript_named_png_is_never_run(deck, monkeypatch):
    opened = []
    monkeypatch.setattr(EpsImagePlugin.EpsImageFile, "_open", lambda self: opened.append(self) or 1 / 0)
    (deck / "sun.png").write_bytes(POSTSCRIPT)
    assert "the icon is not a picture (PNG, JPEG" in icon_error(deck / "sun.png")
    from toolkit.print.preflight import _open

    assert "cannot be read as an image" in _open(deck / "sun.png").error
    assert opened == []


# --- 4. every size bounded before decoding ---------------------------------------------------------------


def deep_groups() -> str:
    return "<g>" * 1000 + '<rect width="5" height="5"/>' + "</g>" * 1000


def use_chain() -> str:
    groups = "".join(f'<g id="g{i}">' + "<g>" * 20 + (f'<use xlink:href="#g{i + 1}"/>' if i < 19 else "<rect/>")
                     + "</g>" * 20 + "</g>" for i in range(20))
    return f'<defs>{groups}</defs><use xlink:href="#g0"/>'


def pattern_chain() -> str:
    style = "".join(f".c{i}{{fill:url(#p{i + 1})}}" for i in range(299))
    patterns = "".join(f'<pattern id="p{i}" width="5" height="5" patternUnits="userSpaceOnUse">'
                       f'<rect class="c{i}" width="5" height="5"/></pattern>' for i in range(300))
    return f'<style>{style}</style>{patterns}<rect fill="url(#p0)" width="10" height="10"/>'


def run_apart(args: list[str], cwd: Path, timeout: float = 120):
    """The command line in a process of its own: a crash of the renderer must not take the tests with it."""
    return subprocess.run([sys.executable, "-m", "toolkit", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize("body, size, problem", [
    (deep_groups(), 'width="10" height="10"', "elements nest more than 64 deep"),
    (use_chain(), 'width="10" height="10"', "elements nest more than 64 deep"),
    (pattern_chain(), 'width="10" height="10"', "elements nest more than 64 deep"),
    ('<rect width="5" height="5"/>', 'width="100000" height="100000"', "is too large (at most 16,000,000 pixels)"),
])
def test_an_svg_that_would_crash_the_renderer_is_one_line_and_leaves_nothing(tmp_path, body, size, problem):
    deck = tmp_path / "deck"
    shutil.copytree(WEATHERVANE, deck)
    svg_icon(deck / "icons", body, "sun.svg", size)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    result = run_apart(["print-cards", "--catalogue", "weathervane.toml", "--no-aids", "--out", "cards.pdf"], deck)
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("toolkit: error: "), result.stderr
    assert "sun.svg: " in result.stderr and problem in result.stderr, result.stderr
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_an_svg_with_a_doctype_is_refused_before_its_entities_are_read(deck):
    laughs = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
              + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
              + f"]><svg {SVG}><text>&i;</text></svg>")
    (deck / "laughs.svg").write_text(laughs, encoding="utf-8")
    assert "declares a DOCTYPE" in icon_error(deck / "laughs.svg")


def test_an_svg_icon_file_has_a_size_limit(deck):
    path = svg_icon(deck, "<!--" + "x" * 1_000_000 + "-->")
    assert "larger than an SVG icon may be (at most 1,000,000 bytes)" in icon_error(path)


def test_a_picture_an_svg_shows_is_bounded_too(deck):
    from test_catalogue_trust import png_header

    (deck / "bomb.png").write_bytes(png_header(20000, 20000))
    path = svg_icon(deck, '<image href="bomb.png" width="10" height="10"/>')
    assert "<image> href: 'bomb.png' is larger than an icon may be (at most 16,000,000 pixels)" in icon_error(path)
    embedded = base64.b64encode(png_header(20000, 20000)).decode()
    path = svg_icon(deck, f'<image href="data:image/png;base64,{embedded}" width="10" height="10"/>')
    assert "the embedded picture is larger than an icon may be (at most 16,000,000 pixels)" in icon_error(path)
    path = svg_icon(deck, '<image href="missing.png" width="10" height="10"/>')
    assert "'missing.png': no such picture beside the SVG" in icon_error(path)


def test_a_decompression_bomb_icon_names_the_limit(deck):
    from test_catalogue_trust import png_header

    (deck / "bomb.png").write_bytes(png_header(20000, 20000))
    assert "too large (at most 16,000,000 pixels)" in icon_error(deck / "bomb.png")


def test_a_huge_layout_box_is_one_line(deck):
    (deck / "layout.toml").write_text(LAYOUT.replace('"96%", 14', "100000, 14"), encoding="utf-8")
    with pytest.raises(UserError, match=r"^layout.toml: elements.name: box: 100000 is not a length of a card "
                                        r"\(millimetres from -500 to 500"):
        read(deck / "layout.toml")
    (deck / "layout.toml").write_text(LAYOUT.replace('"96%"', '"100000%"'), encoding="utf-8")
    with pytest.raises(UserError, match="box: '100000%': a length is at most 200% either way"):
        read(deck / "layout.toml")


def test_a_long_chain_of_kinds_is_one_line(deck):
    kinds = "".join(f'[kinds.k{i}]\nextends = "{f"k{i + 1}" if i < 1999 else "base"}"\n' for i in range(2000))
    (deck / "layout.toml").write_text(LAYOUT + kinds, encoding="utf-8")
    with pytest.raises(UserError, match=r"^layout.toml: kinds.k32: extends: kinds extend kinds more than 32 deep \(k0 -> k1 -> ...\)"):
        read(deck / "layout.toml")


def test_a_csv_whose_first_line_defeats_the_sniffer_is_read_at_once(tmp_path):
    (tmp_path / "slow.csv").write_text(',"' * 200_000 + "\nAce,1\n", encoding="utf-8")
    started = time.monotonic()
    result = run_apart(["catalogue", "--catalogue", "slow.csv"], tmp_path, timeout=60)
    assert time.monotonic() - started < 30
    assert result.returncode == 2 and result.stderr.startswith("toolkit: error: slow.csv: "), result.stderr
    assert result.stderr.count("\n") == 1


def test_the_delimiter_is_the_one_the_column_names_use_most(tmp_path):
    (tmp_path / "court.csv").write_text("name;copies;text\nAce;1;a, b, c and d\n", encoding="utf-8")
    (tmp_path / "back.png").write_bytes(TINY_PNG)
    assert load(path=tmp_path / "court.csv").cards[0].text["en"] == "a, b, c and d"


# --- 5. numbers that are not numbers -----------------------------------------------------------------------


@pytest.mark.parametrize("change, message", [
    ("size = nan", "layout.toml: elements.name: size: nan is not a font size"),
    ("size = inf", "layout.toml: elements.name: size: inf is not a font size"),
    ('box = [0, 0, inf, 10]', "layout.toml: elements.name: box: inf is not a length of a card"),
    ('box = [0, nan, 10, 10]', "layout.toml: elements.name: box: nan is not a length of a card"),
    ('padding = [-inf, 1]', "layout.toml: elements.name: padding: -inf is not a length of a card"),
])
def test_a_layouts_numbers_are_finite(deck, change, message):
    text = LAYOUT.replace('box = [4, 4, "96%", 14]', change) if change.startswith("box") else LAYOUT + change
    (deck / "layout.toml").write_text(text + "\n", encoding="utf-8")
    with pytest.raises(UserError) as err:
        read(deck / "layout.toml")
    assert str(err.value).startswith(message), err.value



def test_art_in_a_box_far_larger_than_the_card_is_drawn_at_fewer_dots(doc, deck):
    from toolkit.catalogue.model import MAX_ART_PIXELS

    (deck / "layout.toml").write_text('[elements.picture]\ntype = "art"\nbox = [-500, -500, 500, 500]\n',
                                      encoding="utf-8")
    doc["game"]["layout"] = "layout.toml"
    path = write_catalogue(deck, doc)
    red_png(deck / doc["cards"][0]["art"])
    catalogue = load(path=path)
    picture = Look(catalogue, "en").face(catalogue.cards[0]).ops[0]
    assert picture.box == (-500, -500, 500, 500) and picture.image.width * picture.image.height <= MAX_ART_PIXELS
