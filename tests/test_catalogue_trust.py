"""Issue 9 for the catalogue: whatever a catalogue file or ``--set`` holds, one clear line (exit 2)
or a catalogue; no write outside the chosen folder, no hang, no Pillow warning, no wrong text."""

from __future__ import annotations

import dataclasses
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from conftest import builtin_doc, write_catalogue
from toolkit.cards import art, render
from toolkit.typeset import fonts
from toolkit.catalogue import load
from toolkit.catalogue import checks
from toolkit.catalogue.model import MAX_ART_PIXELS, MAX_CATALOGUE_BYTES, MAX_COUNT, MAX_DECK
from toolkit.games.registry import games

RULE_RANGES = {name: span for game in games().values() for name, span in game.rules.items()}
from toolkit.errors import UserError

ROOT = Path(__file__).resolve().parent.parent


def toolkit(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """The real command in a process of its own: a hang fails the test instead of stalling it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "toolkit", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)


def one_line_error(result) -> str:
    """The message of a run that failed as a user error should: exit status 2, one line on stderr."""
    status = result.exit_code if hasattr(result, "exit_code") else result.returncode
    assert status == 2, (status, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolkit: error: "), result.stderr
    return lines[0].removeprefix("toolkit: error: ")


def failure(doc: dict, tmp_path: Path, **load_args) -> str:
    path = write_catalogue(tmp_path, doc)
    with pytest.raises(UserError) as err:
        load(path=path, **load_args)
    message = str(err.value)
    assert "\n" not in message and message.startswith("mine.toml: "), message
    return message.removeprefix("mine.toml: ")


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims ``width`` x ``height`` pixels in a few bytes (Pillow reads the header lazily)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")


# --- 1. art paths stay inside their folder --------------------------------------------------------

LEAVING = [
    ("../outside.png", "must stay inside the art folder"),
    ("diamoniak/../../outside.png", "must stay inside the art folder"),
    ("/tmp/outside.png", "must be relative to the art folder"),
    ("C:/outside.png", "must be relative to the art folder"),
    ("C:outside.png", "must be relative to the art folder"),
    ("diamoniak\\..\\..\\outside.png", "use / between folders"),
    ("diamoniak/", "is not a file name"),
    ("./", "is not a file name"),
    ("witch\u0000.png", "control character U+0000"),
    ("a" * 300 + ".png", "is too long"),
]


@pytest.mark.parametrize("value, problem", LEAVING)
def test_art_paths_that_leave_the_art_folder_are_refused(doc, tmp_path, value, problem):
    doc["cards"][3]["art"] = value
    (tmp_path / "cat").mkdir()
    path = write_catalogue(tmp_path / "cat", doc, with_art=False)
    for require_art in (True, False):
        with pytest.raises(UserError) as err:
            load(path=path, require_art=require_art)
        assert str(err.value).startswith("mine.toml: cards[3].art: art path "), err.value
        assert problem in str(err.value) and "\n" not in str(err.value)
    assert not (tmp_path / "outside.png").exists()


def test_back_art_path_is_checked_too(doc, tmp_path):
    doc["game"]["back_art"] = "../back.png"
    assert failure(doc, tmp_path, require_art=False).startswith("game.back_art: art path '../back.png' must stay inside")


def test_write_art_refuses_to_write_outside_out_dir(tmp_path):
    """Defence in depth: a catalogue made in code (no loader) still cannot write outside out_dir."""
    catalogue = load("diamoniak", require_art=False)
    out = tmp_path / "out"
    for bad in ("../escape.png", "/tmp/escape.png", "a/../../escape.png"):
        cards = (dataclasses.replace(catalogue.cards[0], art=bad),) + catalogue.cards[1:]
        with pytest.raises(UserError, match="art path"):
            art.write_art(dataclasses.replace(catalogue, cards=cards), out)
    assert not (tmp_path / "escape.png").exists()


def test_write_art_does_not_follow_a_link_out_of_out_dir(tmp_path):
    catalogue = load("diamoniak", require_art=False)
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / "diamoniak").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(UserError, match="leads out of"):
        art.write_art(catalogue, out)
    assert list(elsewhere.iterdir()) == []


# --- 2. card ids that would overwrite the exported back -------------------------------------------


@pytest.mark.parametrize("card_id", ["back", "card-back"])
def test_card_ids_that_name_the_back_file_are_reserved(doc, tmp_path, card_id):
    doc["cards"][5]["id"] = card_id
    assert failure(doc, tmp_path) == (
        f"cards[5].id: '{card_id}' is reserved: exports name the card back's file after it"
    )


def test_ids_with_trailing_newline_are_not_ids(doc, tmp_path):
    doc["cards"][5]["id"] = "witch\n"
    assert failure(doc, tmp_path) == "cards[5].id: 'witch\\n' is not an id (lower-case letters, digits and dashes)"


# --- 3. placeholders are plain rule names ---------------------------------------------------------

BAD_PLACEHOLDERS = [
    "Pay {price.__class__}",
    "Pay {price[0]}",
    "Pay {price!r}",
    "Pay {price!s:x|y}",
    "Pay {}",
    "Pay {0}",
    "Pay { price }",
    "Pay {price:{price}|b}",
]


@pytest.mark.parametrize("text", BAD_PLACEHOLDERS)
def test_only_plain_rule_names_are_placeholders(doc, tmp_path, text):
    doc["cards"][4]["text"]["en"] = text
    message = failure(doc, tmp_path)
    assert message.startswith("cards[4].text.en: bad placeholder '{"), message
    assert "write a rule name" in message


@pytest.mark.parametrize("text", ["Pay { 3", "Pay } 3"])
def test_lone_braces_are_refused(doc, tmp_path, text):
    doc["cards"][4]["text"]["en"] = text
    assert failure(doc, tmp_path).startswith("cards[4].text.en: bad placeholder: a lone '{' or '}'")


def test_doubled_braces_and_plural_placeholders_still_work(doc, tmp_path):
    doc["cards"][4]["text"]["en"] = "Pay {price:diamond|diamonds} {{price}}"
    cat = load(path=write_catalogue(tmp_path, doc))
    assert cat.card("diamond").text.en == "Pay 3 diamonds {price}"


# --- 4., 5. what --catalogue may name -------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    message = one_line_error(toolkit("catalogue", "--catalogue", str(fifo), cwd=tmp_path, timeout=30))
    assert message == f"{fifo}: is not a regular file, so not a catalogue file"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_is_refused(tmp_path):
    message = one_line_error(toolkit("catalogue", "--catalogue", "/dev/zero", cwd=tmp_path, timeout=30))
    assert message == "/dev/zero: is not a regular file, so not a catalogue file"


def test_a_folder_and_an_oversized_file_are_one_line(tmp_path):
    with pytest.raises(UserError, match=r"^.*: is a folder, not a catalogue file$"):
        load(path=tmp_path)
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * MAX_CATALOGUE_BYTES + b"\n")
    with pytest.raises(UserError, match=r"^big.toml: the file is larger than a catalogue may be \(at most 1 MB\)$"):
        load(path=big)


def test_a_byte_order_mark_is_accepted(doc, tmp_path):
    path = write_catalogue(tmp_path, doc)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load(path=path).total == 54


@pytest.mark.parametrize(
    "text, problem",
    [
        ("a = " + "9" * 5000, "not valid TOML: a number with far too many digits"),
        ("a = " + "[" * 5000 + "]" * 5000, "not valid TOML: arrays or tables nested too deeply"),
        ('"a\\nb" = 1', 'not valid TOML'),
    ],
)
def test_toml_python_cannot_hold_is_one_line(tmp_path, text, problem):
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    try:
        load(path=path)
    except UserError as err:
        message = str(err)
    else:  # pragma: no cover - the document is never a catalogue
        pytest.fail("loaded")
    assert "\n" not in message and message.startswith("mine.toml: "), message
    if problem != "not valid TOML":
        assert message == f"mine.toml: {problem}"


def test_keys_and_values_with_line_breaks_stay_on_one_line(doc, tmp_path):
    doc["cards"][0]["odd\nkey"] = 1
    assert failure(doc, tmp_path) == 'cards[0]."odd\\nkey": unknown key, and not a field name (a field is named with a-z, 0-9 and _, at most 40 characters; the keys: docs/catalogue.md)'


# --- 6. a folder where an art file should be ------------------------------------------------------


def test_a_folder_given_as_art_is_called_a_folder(doc, tmp_path):
    doc["cards"][5]["art"] = "mine/witch.png"
    path = write_catalogue(tmp_path, doc)
    (tmp_path / "mine" / "witch.png").unlink()
    (tmp_path / "mine" / "witch.png").mkdir()
    with pytest.raises(UserError) as err:
        load(path=path)
    assert str(err.value) == "mine.toml: cards[5].art: art file 'mine/witch.png' is a folder, not an image"


# --- 7. characters the fonts cannot draw, control characters --------------------------------------


@pytest.mark.parametrize(
    "where, value, problem",
    [
        (("cards", 2, "name", "en"), "Castle א", "PT Sans and PT Serif cannot draw 'א' (U+05D0)"),
        (("cards", 2, "name", "ru"), "Замок 城", "PT Sans and PT Serif cannot draw '城' (U+57CE)"),
        (("cards", 2, "text", "en"), "Win 😀", "PT Sans and PT Serif cannot draw '😀' (U+1F600)"),
        (("cards", 2, "text", "en"), "سلام", "cannot draw 'ا' (U+0627), 'س' (U+0633), 'ل' (U+0644), 'م' (U+0645)"),
        (("game", "title", "en"), "Dia\nmoniak", "the control character U+000A is not allowed"),
        (("cards", 2, "text", "en"), "Win\tnow", "the control character U+0009 is not allowed"),
        (("cards", 2, "text", "en"), "Win\u0085now", "the control character U+0085 is not allowed"),
        (("colours", 0, "name", "en"), "re\u200bd", "the invisible format character U+200B is not allowed"),
        (("cards", 2, "text", "en"), "\u202eniw", "the invisible format character U+202E is not allowed"),
        (("cards", 2, "name", "en"), "N" * 101, "too long: 101 characters, at most 100"),
    ],
)
def test_text_the_cards_cannot_print_is_refused(doc, tmp_path, where, value, problem):
    target = doc
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    path = ".".join(f"[{k}]" if isinstance(k, int) else k for k in where).replace(".[", "[")
    message = failure(doc, tmp_path)
    assert message.startswith(f"{path}: ") and problem in message, message


def test_russian_and_typographic_punctuation_are_drawable(doc, tmp_path):
    doc["cards"][5]["text"]["ru"] = "«Ёлка» — ведьма… забирает 3 карты; №1, 5 €"
    doc["cards"][5]["text"]["en"] = "“Witch” – takes ‘three’ cards…\u00a0now"
    cat = load(path=write_catalogue(tmp_path, doc))
    assert cat.card("witch").text.ru.startswith("«Ёлка»")


def test_the_characters_taken_without_a_look_are_drawn_by_every_font():
    """SURELY_DRAWN spares the loader a look into the fonts: it must hold only what every style draws."""
    for family, drawn in checks.font_coverage().items():
        assert checks.SURELY_DRAWN <= drawn, (family, sorted(checks.SURELY_DRAWN - drawn))
    # every built-in font the cards use is one of the checked ones (a deck's own font, registered by an
    # earlier test in this process under a "file:" key, is checked when its deck loads)
    for key, path in fonts.FONT_FILES.items():
        if key.startswith("file:"):
            continue
        assert path.parent in fonts.FONT_FOLDERS.values()


def test_a_character_outside_the_fast_set_is_looked_up_in_the_fonts(doc, tmp_path):
    doc["cards"][5]["name"]["en"] = "Witch Ā"  # Ā: drawn by PT Sans and PT Serif, not in the fast set
    assert 0x100 not in checks.SURELY_DRAWN
    assert load(path=write_catalogue(tmp_path, doc)).card("witch").name.en == "Witch Ā"


# --- 8. art images: one limit, checked from the header, no Pillow warning -------------------------


@pytest.mark.parametrize("size", [(8000, 6000), (10000, 10000), (20000, 10000)])
def test_oversized_art_is_one_line_at_load(doc, tmp_path, size):
    path = write_catalogue(tmp_path, doc)
    (tmp_path / doc["cards"][5]["art"]).write_bytes(png_header(*size))
    message = one_line_error(toolkit("catalogue", "--catalogue", str(path), cwd=tmp_path))
    assert message.startswith("mine.toml: cards[5].art: the art file 'diamoniak/witch.png' is "), message
    assert message.endswith("at most 40 megapixels)")
    assert size[0] * size[1] > MAX_ART_PIXELS


def test_art_at_the_limit_loads(doc, tmp_path):
    path = write_catalogue(tmp_path, doc)
    (tmp_path / doc["cards"][5]["art"]).write_bytes(png_header(8000, 5000))
    assert load(path=path).card("witch").art_path == tmp_path / doc["cards"][5]["art"]


def test_art_that_is_not_an_image_is_one_line(doc, tmp_path):
    path = write_catalogue(tmp_path, doc)
    (tmp_path / doc["cards"][5]["art"]).write_bytes(b"%!PS-Adobe-3.0 EPSF-3.0\n")
    with pytest.raises(UserError) as err:
        load(path=path)
    assert str(err.value).startswith("mine.toml: cards[5].art: the art file 'diamoniak/witch.png' is not an image (PNG")


def test_the_renderer_opens_art_through_the_same_check(tmp_path, recwarn):
    big = tmp_path / "big.png"
    big.write_bytes(png_header(10000, 10000))  # past Pillow's own warning threshold
    with pytest.raises(UserError, match=r"^here: the art file .* is 10000 x 10000 pixels \(100 megapixels; at most 40"):
        render.load_art(big, "here")
    assert not [w for w in recwarn if "Image" in str(w.category)]


# --- 9. bounds -------------------------------------------------------------------------------------

BOUNDS = [
    (("cards", 5, "count"), MAX_COUNT + 1, f"cards[5].count: expected a whole number from 0 to {MAX_COUNT}, got 501"),
    (("cards", 5, "count"), 10**30, "cards[5].count: expected a whole number from 0 to 500, got a number of 31 digits"),
    (("rules", "castle_size"), 31, "rules.castle_size: expected a whole number from 1 to 30, got 31"),
    (("rules", "price"), 51, "rules.price: expected a whole number from 1 to 50, got 51"),
    (("rules", "witch_takes"), 0, "rules.witch_takes: expected a whole number from 1 to 50, got 0"),
    (("game", "players", "max"), 5, "game.players.max: expected a whole number from 1 to 4, got 5"),
    (("game", "players", "min"), 0, "game.players.min: expected a whole number from 1 to 4, got 0"),
    (("game", "age"), 100, "game.age: expected a whole number from 0 to 99, got 100"),
    (("game", "minutes", "max"), 601, "game.minutes.max: expected a whole number from 1 to 600, got 601"),
]


@pytest.mark.parametrize("where, value, message", BOUNDS, ids=[m.split(":")[0] for _, _, m in BOUNDS])
def test_numbers_outside_their_range_are_refused(doc, tmp_path, where, value, message):
    target = doc
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    assert failure(doc, tmp_path) == message


def test_the_whole_deck_is_at_most_1000_cards(doc, tmp_path):
    for card in doc["cards"]:
        card["count"] = 200
    assert failure(doc, tmp_path) == f"cards: the deck has 1400 cards, at most {MAX_DECK}"


def test_a_deck_of_no_cards_loads_and_says_so(doc, tmp_path):
    for card in doc["cards"]:
        card["count"] = 0
    cat = load(path=write_catalogue(tmp_path, doc))
    assert cat.total == 0 and cat.is_empty
    assert not load("diamoniak").is_empty


PALACES = [
    (("rules", "hand_size"), 16, "rules.hand_size: expected a whole number from 1 to 15, got 16"),
    (("rules", "goal"), 101, "rules.goal: expected a whole number from 1 to 100, got 101"),
    (("rules", "goal_two_players"), 11, "rules.goal_two_players: the shorter two-player goal (11) is more than the goal (10)"),
    (("rules", "exchange_cards"), 6, "rules.exchange_cards: an exchange cannot take 6 cards from a hand of 5"),
    (("rules", "max_palaces"), 11, "rules.max_palaces: expected a whole number from 1 to 10, got 11"),
    (("tokens", 0, "value"), 101, "tokens[0].value: expected a whole number from 1 to 100, got 101"),
    (("tokens", 0, "count"), 501, "tokens[0].count: expected a whole number from 0 to 500, got 501"),
]


@pytest.mark.parametrize("where, value, message", PALACES, ids=[m.split(":")[0] for _, _, m in PALACES])
def test_palaces_rules_and_tokens_are_bounded(tmp_path, where, value, message):
    doc = builtin_doc("palaces")
    target = doc
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    assert failure(doc, tmp_path) == message


def test_every_rule_has_a_range():
    for game in games().values():  # each game's schema gives every rule key a range of whole numbers
        assert game.rules and all(type(low) is int and type(high) is int and low <= high
                                  for low, high in game.rules.values()), game.id


@pytest.mark.parametrize(
    "override, message",
    [
        ("witch=²", "--set witch=²: the count must be a whole number from 0 to 500 in digits 0-9, got '²'"),
        ("witch=٣", "--set witch=٣: the count must be a whole number from 0 to 500 in digits 0-9, got '٣'"),
        ("witch=501", "--set witch=501: the count must be a whole number from 0 to 500 in digits 0-9, got '501'"),
        ("witch=" + "9" * 5000, "--set witch=" + "9" * 34 + "…: the count must be a whole number"),
        ("witch=\x1b[31m", "--set witch=\\x1b[31m: the count must be a whole number"),
    ],
)
def test_set_takes_ascii_digits_within_the_limit(run, override, message):
    result = run("catalogue", "--set", override)
    assert one_line_error(result).startswith(message)


def test_set_keeps_the_whole_deck_within_the_limit(run):
    result = run("catalogue", "--set", "diamond=500", "--set", "witch=500")
    assert one_line_error(result) == "--set diamond=500 --set witch=500: the deck would have 1027 cards, at most 1000"
    assert load("diamoniak", overrides=["diamond=500", "witch=473"]).total == MAX_DECK


def test_a_file_name_with_a_line_break_stays_one_line(doc, tmp_path):
    doc["cards"][0]["count"] = -1
    path = write_catalogue(tmp_path, doc, name="my\ncatalogue.toml")
    with pytest.raises(UserError) as err:
        load(path=path)
    assert str(err.value) == "my\\ncatalogue.toml: cards[0].count: expected a whole number from 0 to 500, got -1"


def test_write_art_refuses_two_pictures_for_one_file_before_writing_any(tmp_path):
    catalogue = load("diamoniak", require_art=False)
    last = catalogue.cards[-1]
    cards = catalogue.cards[:-1] + (dataclasses.replace(last, art=catalogue.cards[0].art.upper()),)
    out = tmp_path / "out"
    with pytest.raises(UserError, match=r"^diamoniak.toml: card 'fairy' and card 'castle-red' would both be drawn to"):
        art.write_art(dataclasses.replace(catalogue, cards=cards), out)
    assert not out.exists()


def test_more_card_types_than_the_limit_are_refused(doc, tmp_path):
    from toolkit.catalogue.model import MAX_CARD_TYPES

    witch = next(card for card in doc["cards"] if card["id"] == "witch")
    extra = [dict(witch, id=f"witch-{i}", count=0) for i in range(MAX_CARD_TYPES + 1 - len(doc["cards"]))]
    doc["cards"] += extra
    with pytest.raises(UserError, match=rf"mine.toml: cards: {MAX_CARD_TYPES + 1} card types, at most {MAX_CARD_TYPES}"):
        load(path=write_catalogue(tmp_path, doc))
    doc["cards"].pop()
    assert len(load(path=write_catalogue(tmp_path, doc)).cards) == MAX_CARD_TYPES
