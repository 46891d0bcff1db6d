"""The picture of the table in the rulebooks: found in the built PDF by its labels in the book's
language (both languages in a bilingual book, drawn once), drawn from the real card faces of the
catalogue (a card the deck does not hold is not drawn), and its block checked like any other."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from reportlab.platypus import SimpleDocTemplate

from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.games.registry import get
from toolkit.rulebook import build_rulebook, variants
from toolkit.placeholders.facts import Facts
from toolkit.placeholders.figures import Odds
from toolkit.rulebook.layout import Story, geometry
from toolkit.rulebook.markup import check_same_shape, load_source, parse
from toolkit.rulebook.table_picture import table_picture


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ").replace("\u00ad", "")).strip()


def pages(pdf: bytes) -> list[str]:
    return [norm(page.extract_text()) for page in PdfReader(io.BytesIO(pdf)).pages]


# Palaces' book shows the table as a game starts (issue 37); its mid-game picture, which a text of one's
# own may still ask for, is read here from the line its book had before.
PALACES_TABLE = {
    "en": "{table:player=The player’s seat|hand=Cards in hand, kept secret|palace=A palace under construction|"
          "ruins=Ruins on a palace|place=An empty building place|pile=Draw pile|discard=Discard pile|tokens=Victory tokens}",
    "ru": "{table:player=Место игрока|hand=Карты в руке|palace=Строящийся дворец|ruins=Руины на дворце|"
          "place=Пустое место|pile=Колода|discard=Сброс|tokens=Победные жетоны}"}


def source_of(game: str, lang: str, kind: str = "table"):
    """The game's text; for Palaces' mid-game picture, its text with that picture in place of the set-up's."""
    if game == "palaces" and kind == "table":
        text = load_source.__globals__["text_path"](game, lang).read_text(encoding="utf-8")
        return parse(re.sub(r"\{setup:[^}]*\}", lambda _: PALACES_TABLE[lang], text), f"{game}.{lang}.md")
    return load_source(game, lang)


def table_block(game: str, lang: str, kind: str = "table"):
    """The section and block of the game's picture of the table: ``table`` in the middle of a game (the
    castle game's example), ``setup`` as a game starts."""
    source = source_of(game, lang, kind)
    return next((section, block) for section in source.sections for block in section.blocks if block.kind == kind)


def labels(game: str, lang: str, kind: str = "table") -> dict[str, str]:
    _, block = table_block(game, lang, kind)
    return {key: norm(item[0].text) for key, item in zip(block.args, block.items)}


def printed_labels(game: str, lang: str) -> dict[tuple[str, str], str]:
    """The labels of the pictures the game's book prints: (kind, key): label."""
    kinds = ("setup", "table") if game == "diamoniak" else ("setup",)
    return {(kind, key): label for kind in kinds for key, label in labels(game, lang, kind).items()}


def picture_pdf(catalogue, lang: str, kind: str = "table") -> bytes:
    """The picture alone, drawn into a PDF of its own."""
    source = source_of(catalogue.game, lang, kind)
    facts = {lang: Facts(catalogue, lang, Odds(catalogue), variants(catalogue.game))}
    story = Story(catalogue, {lang: source}, facts, geometry("a4", False))
    _, block = table_block(catalogue.game, lang, kind)
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, invariant=1).build([table_picture(story, block, lang)])
    return buffer.getvalue()


def picture_text(catalogue, lang: str, kind: str = "table") -> str:
    """The text of the picture alone."""
    return norm(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(picture_pdf(catalogue, lang, kind))).pages))


def drawn_cards(catalogue, lang: str, kind: str = "table") -> set[str]:
    """The cards whose pictures the picture draws: their art, found among the PDF's images pixel for pixel."""
    from toolkit.cards.render import CARD_SIZES
    from toolkit.layout.engine import Look

    look = Look(catalogue, lang, CARD_SIZES["poker"])
    arts = {look.face(card).art.convert("RGB").tobytes(): card.id for card in catalogue.cards}
    found = set()
    for page in PdfReader(io.BytesIO(picture_pdf(catalogue, lang, kind))).pages:
        for image in page.images:
            key = image.image.convert("RGB").tobytes()
            if key in arts:
                found.add(arts[key])
    return found


@pytest.mark.parametrize("game", ["diamoniak", "palaces"])
def test_each_text_has_the_set_up_picture_in_its_setup_with_the_games_keys(game):
    """The table as a game starts under "Setting up"; the castle game's example shows the table in the
    middle of a game (issue 37: the mid-game picture had stood under "Setting up")."""
    for lang in ("ru", "en"):
        section, block = table_block(game, lang, "setup")
        assert section.id == "setup"
        assert sorted(block.args) == sorted(get(game).setup_keys)
        kinds = [b.kind for sec in load_source(game, lang).sections for b in sec.blocks if b.kind in ("table", "setup")]
        assert kinds == (["setup", "table"] if game == "diamoniak" else ["setup"])
    for lang in ("ru", "en"):
        section, block = table_block("diamoniak", lang)
        assert section.id == "example" and sorted(block.args) == sorted(get("diamoniak").table_keys)


@pytest.mark.parametrize("game", ["diamoniak", "palaces"])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_rulebook_shows_the_table_labelled_in_its_language(game, lang, rulebook):
    text = pages(rulebook(game, lang).pdf)
    other = printed_labels(game, "en" if lang == "ru" else "ru")
    for key, label in printed_labels(game, lang).items():
        where = [i for i, page in enumerate(text) if label in page]
        assert where, f"{game} {lang}: label {key} '{label}' is not printed"
        if key[1] not in ("pile", "discard"):  # "Колода", "Сброс" are words of the prose too
            assert not any(other[key] in page for page in text), f"the other language's '{other[key]}' is printed"


@pytest.mark.parametrize("game", ["diamoniak", "palaces"])
def test_a_bilingual_book_draws_the_picture_once_labelled_in_both(game):
    text = " ".join(pages(build_rulebook(load(game), lang="ru+en", paper="letter", booklet=True).pdf))
    for lang in ("ru", "en"):
        for (kind, key), label in printed_labels(game, lang).items():
            if key in ("castle", "row", "palace", "ruins", "place", "hand"):
                assert text.count(label) == 1, (lang, kind, key, label)
    # the seat's label in both languages: on one line when they fit inside the frame, else a line each
    ru, en = labels(game, "ru", "setup")["player"], labels(game, "en", "setup")["player"]
    assert f"{ru} / {en}" in text or f"{ru} {en}" in text


def test_the_picture_is_drawn_from_the_catalogues_cards():
    catalogue = load("diamoniak")
    drawn = drawn_cards(catalogue, "en")
    assert {"castle-red", "diamond", "fairy", "castle-blue", "witch"} <= drawn
    assert not {"castle-green", "castle-yellow"} & drawn
    palaces = load("palaces")
    assert {"foundation-red", "floor-red", "tower", "ruins", "foundation-blue", "flood", "exchange"} <= drawn_cards(
        palaces, "ru")


def test_cards_the_deck_does_not_hold_are_not_drawn():
    catalogue = load("diamoniak", overrides=["castle-red=0", "fairy=0"])
    drawn = drawn_cards(catalogue, "en")
    assert not {"castle-red", "fairy"} & drawn
    assert {"castle-blue", "diamond"} <= drawn  # the castle is now blue
    palaces = load("palaces", overrides=["ruins=0", "tower=0", "foundation-red=0"])
    drawn = drawn_cards(palaces, "en")
    assert not {"ruins", "tower", "foundation-red"} & drawn and "foundation-blue" in drawn
    assert labels("palaces", "en")["place"] in picture_text(palaces, "en")
    build_rulebook(palaces, lang="ru+en", booklet=True)  # still builds


def test_same_inputs_same_picture():
    catalogue = load("palaces")
    assert picture_text(catalogue, "en") == picture_text(catalogue, "en")


def _with(text: str, old: str, new: str, name: str):
    assert old in text
    return parse(text.replace(old, new), name)


def test_the_block_is_checked():
    en_text = load_source("diamoniak", "en")
    ru_text = (load_source.__globals__["text_path"]("diamoniak", "ru")).read_text(encoding="utf-8")
    # a key missing from one language
    fewer = _with(ru_text, "|discard=Сброс, пока пустой}", "}", "diamoniak.ru.md")
    with pytest.raises(UserError, match="differ in section 'setup'"):
        check_same_shape(fewer, en_text)
    fewer = _with(ru_text, "|discard=Сброс}", "}", "diamoniak.ru.md")
    with pytest.raises(UserError, match="differ in section 'example'"):
        check_same_shape(fewer, en_text)
    with pytest.raises(UserError, match=r"diamoniak.ru.md:\d+: a table picture is"):
        _with(ru_text, "|discard=Сброс}", "|discard}", "diamoniak.ru.md")
    with pytest.raises(UserError, match="given twice"):
        _with(ru_text, "|discard=Сброс}", "|pile=Сброс}", "diamoniak.ru.md")
    # a key the game does not draw: both languages agree, the build names the line
    catalogue = load("diamoniak")
    source = _with(ru_text, "|discard=Сброс}", "|discard=Сброс|moon=Луна}", "diamoniak.ru.md")
    facts = {"ru": Facts(catalogue, "ru", Odds(catalogue), variants("diamoniak"))}
    story = Story(catalogue, {"ru": source}, facts, geometry("a4", False))
    block = next(b for s in source.sections for b in s.blocks if b.kind == "table")
    with pytest.raises(UserError, match=r"diamoniak.ru.md:\d+: .*unknown: moon"):
        table_picture(story, block, "ru")


def test_the_miniature_cards_carry_no_words():
    """At the picture's size a card's name would be 2-3 pt and cut by the overlap ("Red ca"): the
    cards are drawn without words, the labels say what lies where."""
    for game, kind in (("diamoniak", "table"), ("palaces", "table"), ("diamoniak", "setup"), ("palaces", "setup")):
        catalogue = load(game)
        text = picture_text(catalogue, "en", kind)
        for label in labels(game, "en", kind).values():
            text = text.replace(label, "")
        for card in catalogue.cards:
            words = norm(card.text["en"]).split(" ")
            assert " ".join(words[:4]) not in text, (game, card.id)
            assert card.name["en"] not in text, (game, card.id)


def test_the_seat_label_stands_inside_the_tables_frame():
    """Every label lies inside the picture's table: none hangs under it, above the next heading."""
    import pypdfium2 as pdfium

    for game, kind in (("diamoniak", "table"), ("palaces", "table"), ("diamoniak", "setup"), ("palaces", "setup")):
        catalogue = load(game)
        source = source_of(game, "ru", kind)
        facts = {"ru": Facts(catalogue, "ru", Odds(catalogue), variants(game))}
        story = Story(catalogue, {"ru": source}, facts, geometry("a4", False))
        _, block = table_block(game, "ru", kind)
        picture = table_picture(story, block, "ru")
        width, height = picture.wrap(85 * 72 / 25.4, 10_000)
        buffer = io.BytesIO()
        from reportlab.pdfgen.canvas import Canvas

        canvas = Canvas(buffer, pagesize=(width, height))
        picture.drawOn(canvas, 0, 0)
        canvas.save()
        page = pdfium.PdfDocument(buffer.getvalue())[0]
        text = page.get_textpage()
        seat = labels(game, "ru", kind)["player"]
        found = text.search(seat.split(" ")[0]).get_next()
        assert found is not None
        left, bottom, right, top = text.get_charbox(found[0])
        assert 2 < bottom and top < height - 2, (game, bottom, top, height)


def test_palaces_shows_palaces_at_different_stages_and_the_victory_tokens():
    catalogue = load("palaces")
    text = picture_text(catalogue, "en")
    # A legal position (issue 22: its FAQ says three palaces under construction leave no empty building
    # place): a palace of three cards with a tower, one under ruins, and an empty place; two foundations.
    drawn = drawn_cards(catalogue, "en")
    assert {"foundation-red", "foundation-blue"} <= drawn and "foundation-green" not in drawn
    assert text.count(labels("palaces", "en")["palace"]) == 1  # one label, under its one palace
    assert {"tower", "roof-red"} <= drawn
    assert labels("palaces", "en")["place"] in text
    assert all(str(token.value) in text.split(" ") for token in catalogue.tokens)


def test_the_set_up_picture_shows_the_start():
    """As a game starts nothing is built: the castle game's set-up shows no card face (the deck face down,
    the places outlined), Palaces' no card face either: the draw pile, the building places outlined and
    the victory tokens in their supply (the editor, wave 4: no tokens at the seat, the places shown)."""
    castles = load("diamoniak")
    assert drawn_cards(castles, "en", "setup") == set()
    assert labels("diamoniak", "en", "setup")["castle"] in picture_text(castles, "en", "setup")
    palaces = load("palaces")
    assert drawn_cards(palaces, "en", "setup") == set()
    text = picture_text(palaces, "en", "setup")
    assert labels("palaces", "en", "setup")["place"] in text
    assert all(str(token.value) in text.split(" ") for token in palaces.tokens)


def test_palaces_set_up_shows_the_tokens_in_a_common_supply_and_the_empty_building_places():
    """The editor (wave 4): nobody owns points at the start, so the tokens lie in a supply beside the
    draw pile, not at the seat; and the building places the rules speak of are outlined, all empty."""
    import dataclasses

    from toolkit.games.palaces import table

    for places in (3, 2):
        palaces = load("palaces")
        palaces = dataclasses.replace(palaces, rules={**palaces.rules, "max_palaces": places})
        scene = table.setup_scene(palaces, lambda card: card.id, "back")
        (_, pile, top, _), (_, built, middle, outlines) = scene.rows
        assert scene.tokens_row == 0 and scene.tokens  # drawn in the middle of the table's row
        pile_left = min(card.x for card in pile)
        assert all(x + 0.21 < pile_left for _, x, _ in scene.tokens)  # beside the draw pile, clear of it
        assert [label.key for label in top] == ["pile", "discard", "tokens"]
        assert not built and len(outlines) == places and [label.key for label in middle] == ["place"]
