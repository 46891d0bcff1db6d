"""An icon named in text (``:sun:``) is drawn as its picture wherever text is printed (cards, player
aids, rulebooks) and said in words where the output is text alone (Tabletop Simulator, Screentop)."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pypdf
import pytest

from toolkit.catalogue import load
from toolkit.cards.render import CARD_SIZES, Line, Picture
from toolkit.layout.engine import deck_icons, icon_words

WEATHERVANE = Path(__file__).resolve().parent.parent / "examples" / "weathervane"
ICON = re.compile(r":[A-Za-z0-9_-]+:")


@pytest.fixture(scope="module")
def deck(tmp_path_factory) -> Path:
    """Weathervane with :sun: and :rain: in its English aid, and an English rulebook in plain
    Markdown that names icons in a heading, a paragraph and a list."""
    root = tmp_path_factory.mktemp("icons") / "weathervane"
    shutil.copytree(WEATHERVANE, root)
    aid = root / "texts" / "aid.en.md"
    aid.write_text(aid.read_text(encoding="utf-8").replace("1. Lay one card", "1. Lay one :sun: or :rain: card"),
                   encoding="utf-8")
    (root / "texts" / "rules.en.md").write_text(
        "# Weathervane\n\n## The :sun: and the :rain:\nA :rain: card beats a :sun: card at 10:30.\n\n"
        "## Setting up\n- Lay a :wind: card, then a :nothing: card.\n", encoding="utf-8")
    toml = root / "weathervane.toml"
    toml.write_text(re.sub(r"(?m)^rulebook = .*$", 'rulebook = { en = "texts/rules.en.md" }',
                           toml.read_text(encoding="utf-8")), encoding="utf-8")
    return toml


def test_icon_words_say_the_colour_or_the_name_and_leave_other_colons():
    catalogue = load(path=WEATHERVANE / "weathervane.toml")
    icons = deck_icons(catalogue)
    assert icon_words(":sun: at 10:30: a :moon: and **bold**", catalogue, "en") == \
        "[Sun] at 10:30: a :moon: and **bold**"
    assert icon_words(":rain: карта", catalogue, "ru", icons) == "[Дождь] карта"
    from dataclasses import replace

    renamed = replace(catalogue, colours=())  # no colour to name it: the icon's own name
    assert icon_words(":sun:", renamed, "en") == "[sun]"


def test_the_aid_draws_the_icon_inline_and_prints_no_name(run, deck, tmp_path):
    from toolkit.print.aids import aid_face

    face = aid_face(load(path=deck), "en", CARD_SIZES["poker"])
    assert sum(isinstance(op, Picture) for op in face.ops) == 2
    assert not any(ICON.search(op.text) for op in face.ops if isinstance(op, Line))
    # the icon stands between "one" and "or", on their baseline (its foot a little below it)
    one = next(op for op in face.ops if isinstance(op, Line) and op.text.endswith("Lay one"))
    sun = next(op for op in face.ops if isinstance(op, Picture))
    assert one.x + one.width / 2 < sun.box[0] and abs(sun.box[3] - one.y) < 0.3 * one.size
    out = tmp_path / "cards"
    result = run("export-cards", "--catalogue", str(deck), "--lang", "en", "--target", "pdf-single", "--out", str(out))
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(next(out.glob("*.pdf")))
    aid = next(page for page in reader.pages if "Your turn" in page.extract_text())
    assert not ICON.search(aid.extract_text())
    original = load(path=WEATHERVANE / "weathervane.toml")
    plain = aid_face(original, "en", CARD_SIZES["poker"])
    assert not any(isinstance(op, Picture) for op in plain.ops)
    assert len(aid.images) >= 2  # the ground and the icons


def test_the_aid_png_draws_the_icon(deck):
    from toolkit.print.aids import aid_face, aid_image

    catalogue = load(path=deck)
    face = aid_face(catalogue, "en", CARD_SIZES["poker"])
    image = aid_image(face, dpi=150)
    sun = next(op for op in face.ops if isinstance(op, Picture))
    scale = image.width / face.width
    x0, y0, x1, y1 = (round(v * scale) for v in sun.box)
    colours = image.crop((x0, y0, x1, y1)).getcolors(10_000)
    assert any(r > 180 and g > 120 and b < 90 for _, (r, g, b) in colours)  # the sun's yellow


def test_the_rulebook_draws_icons_inline(run, deck, tmp_path):
    out = tmp_path / "book.pdf"
    result = run("rulebook", "--catalogue", str(deck), "--lang", "en", "--out", str(out))
    assert result.exit_code == 0, result.output
    page = pypdf.PdfReader(io.BytesIO(out.read_bytes())).pages[0]
    text = re.sub(r"\s+", " ", page.extract_text())
    assert "The and the" in text and "card beats a card at 10:30." in text
    assert ":nothing:" in text  # no icon of the deck: printed as written
    assert not ICON.search(text.replace(":nothing:", ""))
    assert len(page.images) == 5  # sun and rain in the heading, rain and sun, wind


def test_tts_and_screentop_descriptions_say_icons_in_words(run, deck, tmp_path):
    for target in ("tts", "screentop"):
        out = tmp_path / target
        result = run("export-cards", "--catalogue", str(deck), "--lang", "en", "--target", target, "--out", str(out))
        assert result.exit_code == 0, result.output
        texts = " ".join(path.read_text(encoding="utf-8") for path in out.glob("*.json"))
        assert not ICON.search(texts), target
        assert "[Sun] Lay one more card." in texts, target
    data = json.loads((tmp_path / "tts" / "weathervane-en.json").read_text(encoding="utf-8"))
    descriptions = [card["Description"] for card in data["ObjectStates"][0]["ContainedObjects"]]
    assert "[Rain] Lay one more card." in descriptions
