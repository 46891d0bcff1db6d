"""toolkit rulebook on degenerate decks: a deck the game cannot be played to its end with is refused
in one line that names the user's input (the --set options, or the catalogue file and its fields),
never the rulebook's own text files or figures; a deck that is merely unusual gets a correct book.
Long or odd names and titles are drawn inside the page, never as a traceback."""

from __future__ import annotations

import copy
import dataclasses
import io
import re

import pypdf
import pypdfium2 as pdfium
import pytest

from toolkit.errors import UserError

from conftest import builtin_doc, write_catalogue
from toolkit.catalogue import load
from toolkit.catalogue.model import Text
from toolkit.odds.report import answer
from toolkit.rulebook import build_rulebook, variants
from toolkit.placeholders.facts import Facts
from toolkit.placeholders.figures import Odds
from toolkit.rulebook.layout import Story, geometry
from toolkit.rulebook.markup import load_source

MM = 72 / 25.4
CASTLES = ("castle-red", "castle-blue", "castle-green", "castle-yellow")
COLOURS = ("red", "blue", "green", "yellow")
PALACE_IDS = [c.id for c in load("palaces").cards]



def sets(**counts: int) -> list[str]:
    return [arg for card_id, n in counts.items() for arg in ("--set", f"{card_id.replace('_', '-')}={n}")]


def only(game: str, **counts: int) -> list[str]:
    """--set options that leave exactly these cards in the deck."""
    ids = [c.id for c in load(game).cards]
    wanted = {k.replace("_", "-"): v for k, v in counts.items()}
    return [arg for card_id in ids for arg in ("--set", f"{card_id}={wanted.get(card_id, 0)}")]


def each(kind: str, n: int) -> list[str]:
    return [arg for colour in COLOURS for arg in ("--set", f"{kind}-{colour}={n}")]


def text_of(pdf: bytes) -> str:
    pages = pypdf.PdfReader(io.BytesIO(pdf)).pages
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in pages).replace("\u00a0", " "))


REFUSED = [
    (["--game", "diamoniak", *each("castle", 0)],
     "--set castle-red=0 --set castle-blue=0 --set castle-green=0 --set castle-yellow=0: no colour has 6 castle "
     "cards, so no castle can be finished (diamoniak.toml: rules.castle_size = 6)"),
    (["--game", "diamoniak", *each("castle", 5)], "--set castle-red=5 --set castle-blue=5 --set castle-green=5 "
                                                  "--set castle-yellow=5: no colour has 6 castle cards"),
    (["--game", "diamoniak", "--set", "castle-red=5"],
     "--set castle-red=5: the red castle has only 5 cards of the 6 it needs, so a player building it could never "
     "finish"),
    (["--game", "diamoniak", *only("diamoniak")], "--set castle-red=0 "),
    (["--game", "diamoniak", "--set", "witch=500", "--designer"],  # the exact odds are the designer's (issue 22)
     "--set witch=500: the exact odds of this deck are out of reach"),
    (["--game", "palaces", *each("foundation", 0)],
     "--set foundation-red=0 --set foundation-blue=0 --set foundation-green=0 --set foundation-yellow=0: the deck "
     "has no foundation, so no palace can be started"),
    (["--game", "palaces", *each("roof", 0)], "--set roof-red=0 --set roof-blue=0 --set roof-green=0 "
                                              "--set roof-yellow=0: the deck has no roof"),
    (["--game", "palaces", *each("floor", 0), "--set", "tower=0"],
     "--set floor-red=0 --set floor-blue=0 --set floor-green=0 --set floor-yellow=0 --set tower=0: the deck has "
     "no floor and no tower"),
    (["--game", "palaces", *only("palaces", flood=20)], "--set foundation-red=0 --set foundation-blue=0 "),
    (["--game", "palaces", *only("palaces")], "the deck has no cards"),
    (["--game", "palaces", *sets(roof_blue=0, foundation_red=0, foundation_green=0, foundation_yellow=0)],
     "--set foundation-red=0 --set roof-blue=0 --set foundation-green=0 --set foundation-yellow=0: no colour has "
     "a foundation, a roof and a floor (or a tower)"),
    (["--game", "palaces", *only("palaces", foundation_red=2, floor_red=2, roof_red=2)],
     "the deck has 6 cards, too few to deal 4 players 5 cards each (palaces.toml: rules.hand_size = 5, "
     "game.players.max = 4)"),
]


@pytest.mark.parametrize("args, message", REFUSED)
def test_a_deck_that_cannot_be_played_through_is_refused_naming_the_input(run, tmp_path, monkeypatch, args,
                                                                          message):
    monkeypatch.chdir(tmp_path)
    result = run("rulebook", *args)
    assert result.exit_code == 2, result.output
    line = result.stderr
    assert line.count("\n") == 1 and line.startswith("toolkit: error: "), line
    assert message in line, line
    for internal in (".md", "figure", "{", "odds:"):
        assert internal not in line, line
    assert list(tmp_path.iterdir()) == []


def _catalogue(tmp_path, game: str, change) -> str:
    doc = copy.deepcopy(builtin_doc(game))
    change(doc)
    return str(write_catalogue(tmp_path, doc, with_art=False))


def _hand_15(doc):
    doc["rules"]["hand_size"] = 15
    for card in doc["cards"]:
        if card["kind"] == "floor":
            card["count"] = 2


def _castle_7(doc):
    doc["rules"]["castle_size"] = 7


def _one_card(doc):
    doc["rules"]["castle_size"] = 1
    for card in doc["cards"]:
        card["count"] = int(card["id"] == "castle-red")


@pytest.mark.parametrize("game, change, message", [
    ("palaces", _hand_15, "mine.toml: the deck has 54 cards, too few to deal 4 players 15 cards each "
                          "(rules.hand_size = 15, game.players.max = 4)"),
    ("diamoniak", _castle_7, "mine.toml: cards[0].count, cards[1].count, cards[2].count, cards[3].count: no colour "
                             "has 7 castle cards, so no castle can be finished (rules.castle_size = 7)"),
    ("diamoniak", _one_card, "mine.toml: the deck has 1 card, too few for the odds of 3 draws in a row that the "
                             "rulebook quotes"),
])
def test_a_catalogue_file_is_named_with_its_fields(run, tmp_path, game, change, message):
    path = _catalogue(tmp_path, game, change)
    result = run("rulebook", "--catalogue", path, "--out", str(tmp_path / "rules.pdf"))
    assert result.exit_code == 2
    assert result.stderr == f"toolkit: error: {message}\n"
    assert not (tmp_path / "rules.pdf").exists()


@pytest.mark.usefixtures("shared_books")  # the book through the session's shared books
def test_a_deck_without_witches_gets_a_correct_book(run, tmp_path):
    out = tmp_path / "rules.pdf"
    result = run("rulebook", "--set", "witch=0", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "three cards in a row come without a witch about 10 times in 10" in text_of(out.read_bytes())
    result = run("rulebook", "--set", "witch=0", "--designer", "--out", str(out))  # the exact odds
    assert result.exit_code == 0, result.output
    text = text_of(out.read_bytes())
    assert "the first card is a witch 0 times in 47, which is 0.00%" in text
    assert "Such a player needs 1 turn on average" in text  # the noun agrees with the number printed
    assert "The most likely finish is on turn 1 (100.00% of games)" in text


def test_a_palaces_deck_small_enough_to_solve_exactly_still_gets_its_figures(run, tmp_path):
    """The text gives an average ("about") and draws its chart; a deck whose first palace the solver
    could answer exactly once stopped the book with an error about a figure."""
    args = only("palaces", foundation_red=4, floor_red=12, roof_red=4)
    deck = load("palaces", overrides=args[1::2])
    assert answer(deck, "first-palace", max_states=1000).data["exact"]
    out = tmp_path / "rules.pdf"
    result = run("rulebook", "--game", "palaces", *args, "--designer", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "“about" in text_of(out.read_bytes())


# --- long and odd text ------------------------------------------------------------------------------

def _renamed(game: str, name: str | None = None, title: str | None = None, token: str | None = None):
    """The built-in catalogue with its first card, title or tokens renamed: past the loader's limits
    on purpose, since the rulebook must hold whatever it is given."""
    catalogue = load(game)
    if name is not None:
        first = dataclasses.replace(catalogue.cards[0], name=Text(ru=name, en=name))
        catalogue = dataclasses.replace(catalogue, cards=(first, *catalogue.cards[1:]))
    if title is not None:
        catalogue = dataclasses.replace(catalogue, title=Text(ru=title, en=title))
    if token is not None:
        catalogue = dataclasses.replace(catalogue, tokens=tuple(dataclasses.replace(t, name=Text(ru=token, en=token))
                                                                for t in catalogue.tokens))
    return catalogue


def _outside(pdf: bytes, side: float) -> list:
    """Printed characters outside the page's text area (``side`` mm from the left and right edges)."""
    bad = []
    for number, page in enumerate(pdfium.PdfDocument(pdf), start=1):
        width, height = page.get_size()
        text = page.get_textpage()
        for i in range(text.count_chars()):
            x0, y0, x1, y1 = text.get_charbox(i)
            if x1 > x0 and text.get_text_range(i, 1).strip():
                if not (side * MM - 1 <= x0 and x1 <= width - side * MM + 1 and 0 <= y0 and y1 <= height):
                    bad.append((number, text.get_text_range(i, 1), x0, x1))
    return bad


@pytest.mark.parametrize("game, kwargs", [
    ("diamoniak", {"name": "Fish & <chips> </b>", "title": "A & <B>"}),
    ("palaces", {"name": "Long name " * 5, "token": "Token a<b& " + "T" * 90}),  # longer: refused (test below)
    ("diamoniak", {"name": "W" * 12, "title": "T" * 100}),
])
def test_long_and_odd_names_stay_on_the_page(game, kwargs):
    result = build_rulebook(_renamed(game, **kwargs), "en")
    assert _outside(result.pdf, 16) == []
    text = text_of(result.pdf)
    if "&" in kwargs.get("name", ""):
        assert "Fish & <chips> </b> ×6" in text and "A & <B>" in text  # printed as written, not as markup


def test_a_name_no_card_can_hold_is_refused_not_cut():
    with pytest.raises(UserError, match=r"card 'castle-red': its name \(300 characters\) does not fit a poker"):
        build_rulebook(_renamed("diamoniak", name="W" * 300), "en")


def test_a_long_title_is_cut_in_the_footer_before_the_page_number():
    result = build_rulebook(_renamed("diamoniak", title="Title " * 20), "ru+en", booklet=True)
    pages = pypdf.PdfReader(io.BytesIO(result.pdf)).pages
    footer = [line for page in pages for line in page.extract_text().splitlines() if "…" in line]
    assert footer, "no footer was cut"
    assert _outside(result.pdf, 14) == []


@pytest.mark.parametrize("name", ["W" * 300, "Long name " * 30, "Короткое"])
def test_a_caption_under_a_picture_takes_a_few_lines_at_most(name):
    """The first card's caption in the grid: a long name is cut with "…" to a few lines of its cell,
    the count always after it."""
    catalogue = _renamed("diamoniak", name=name)
    facts = {"en": Facts(catalogue, "en", Odds(catalogue), variants("diamoniak"))}
    story = Story(catalogue, {"en": load_source("diamoniak", "en")}, facts, geometry("a4", False))
    # the pictures of the deck as it is (a card's own face cannot hold such a name: the layout refuses it)
    story.picture = Story(load("diamoniak"), story.sources, facts, story.geom).picture
    table = story.cards("Components").table
    cell = table._colWidths[0]
    caption = table._cellvalues[0][0][-1]
    _, height = caption.wrap(cell - 6.4, 10_000)
    assert height <= 3 * caption.style.leading
    assert caption.text.endswith("×6</b>") and (name in caption.text.replace("\u00a0", " ")) == (len(name) < 20)


@pytest.mark.usefixtures("shared_books")  # the book through the session's shared books
def test_cli_out_with_a_name_too_long_is_one_line(run, tmp_path):
    result = run("rulebook", "--set", "witch=0", "--out", str(tmp_path / ("x" * 300 + ".pdf")))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "cannot write here: File name too long" in result.stderr
    assert list(tmp_path.iterdir()) == []
