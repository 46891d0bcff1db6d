"""Property tests: random valid catalogues load; random broken ones, and any --set, fail with one clear line."""

from __future__ import annotations

import copy
import tempfile
import unicodedata
from pathlib import Path

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import builtin_doc, write_catalogue
from toolkit.catalogue import apply_overrides, load
from toolkit.catalogue.loader import art_dirs
from toolkit.catalogue.model import MAX_COUNT, MAX_DECK, PLAYERS, RESERVED_CARD_IDS, SYMBOLS
from toolkit.games.registry import get

from toolkit.errors import UserError

BASE = builtin_doc("diamoniak")
words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzабвгдеёжзийклмнопрстуфхцчшщэюя ", min_size=1, max_size=12).filter(str.strip)
ids = st.from_regex(r"[a-z]{1,6}(-[a-z0-9]{1,4})?", fullmatch=True)


@st.composite
def valid_docs(draw):
    doc = copy.deepcopy(BASE)
    n_colours = draw(st.integers(1, len(SYMBOLS)))
    colour_ids = draw(st.lists(ids, min_size=n_colours, max_size=n_colours, unique=True))
    symbols = draw(st.permutations(SYMBOLS))
    doc["colours"] = [
        {"id": cid, "name": {"ru": draw(words), "en": draw(words)},
         "rgb": "#%06x" % draw(st.integers(0, 0xFFFFFF)), "symbol": symbols[i]}
        for i, cid in enumerate(colour_ids)
    ]
    kinds = draw(st.lists(st.sampled_from(["castle", "diamond", "witch", "fairy"]), min_size=1, max_size=10))
    card_ids = draw(st.lists(ids, min_size=len(kinds), max_size=len(kinds), unique=True))
    doc["cards"] = []
    for kind, cid in zip(kinds, card_ids):
        card = {"id": cid, "kind": kind, "count": draw(st.integers(0, 30)),
                "name": {"ru": draw(words), "en": draw(words)},
                "text": {"ru": draw(words), "en": draw(words)}, "art": f"art/{cid}.png"}
        if kind == "castle":
            card["colour"] = draw(st.sampled_from(colour_ids))
        doc["cards"].append(card)
    return doc


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_docs())
def test_random_valid_catalogues_load(doc):
    with tempfile.TemporaryDirectory() as folder:
        cat = load(path=write_catalogue(Path(folder), doc))
    assert cat.total == sum(card["count"] for card in doc["cards"])
    assert [c.id for c in cat.cards] == [c["id"] for c in doc["cards"]]


junk = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False), words,
                 st.lists(st.integers(), max_size=2), st.dictionaries(words, st.integers(), max_size=2))


@st.composite
def broken_docs(draw):
    doc = draw(valid_docs())
    paths = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                paths.append(path + (key,))
                walk(value, path + (key,))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                paths.append(path + (i,))
                walk(value, path + (i,))

    walk(doc, ())
    path = draw(st.sampled_from(paths))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    action = draw(st.sampled_from(["delete", "replace", "add"]))
    if action == "delete":
        del parent[path[-1]]
    elif action == "replace":
        parent[path[-1]] = draw(junk.filter(lambda v: v is not None))
    elif isinstance(parent, dict):
        parent["zz-extra"] = 1
    else:
        parent.append(draw(junk.filter(lambda v: v is not None)))
    return doc


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_docs())
def test_random_broken_catalogues_fail_with_one_clear_line_or_load(doc):
    with tempfile.TemporaryDirectory() as folder:
        try:
            path = write_catalogue(Path(folder), doc)
        except (TypeError, ValueError):
            return  # TOML cannot express this document (e.g. mixed arrays)
        try:
            load(path=path)
        except UserError as err:
            message = str(err)
            assert message.startswith("mine.toml: ")
            assert "\n" not in message and len(message) < 400


# --- any damage at all: a catalogue or one line naming the file -----------------------------------

NASTY_TEXT = [
    "../outside.png", "art/../../outside.png", "/etc/passwd", "C:/art.png", "art\\x.png", "art/", ".", "..",
    "{price.__class__}", "{price[0]}", "{price!r}", "{", "}", "{}", "{0}", "{price:{price}}", "{castle_size:a|b|c}",
    "back", "card-back", "א", "城", "😀", "\u202e", "\u200b", "a\nb", "\t", "\x00", "\x1b[31m", "x" * 2000,
]
nasty = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, -1, 1, 31, 51, 101, 501, 1001, 2**63, -(2**63)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=30),
    st.sampled_from(NASTY_TEXT),
    st.lists(st.one_of(st.integers(-3, 3), st.text(max_size=3)), max_size=3),
    st.dictionaries(st.text(max_size=6), st.integers(-3, 600), max_size=3),
    st.dates(),
)


def _paths(node, path=()):
    """Every key path in a document, with the value there."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield path + (key,), value
        yield from _paths(value, path + (key,))


@st.composite
def damaged_docs(draw):
    """A valid document (its art files written by the caller) with one to three things broken: a
    text or an art path given nasty text, a number pushed out of range, or any key deleted,
    replaced or added."""
    doc = draw(valid_docs())
    valid = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        found = list(_paths(doc))
        strings = [path for path, value in found if isinstance(value, str)]
        numbers = [path for path, value in found if isinstance(value, int)]
        target = draw(st.sampled_from(["string", "number", "any"]))
        pool = {"string": strings, "number": numbers}.get(target) or [path for path, _ in found]
        if not pool:
            break
        path = draw(st.sampled_from(pool))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if target == "string":
            nasty_text = draw(st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=12)))
            keep = draw(st.booleans())
            parent[path[-1]] = (parent[path[-1]] if keep else "") + nasty_text
        elif target == "number":
            parent[path[-1]] = draw(st.one_of(st.integers(-(10**30), 10**30), st.sampled_from(
                [0, -1, 1, 31, 51, 101, 501, 601, 1001, 2**63, -(2**63)])))
        else:
            action = draw(st.sampled_from(["delete", "replace", "add"]))
            if action == "delete":
                del parent[path[-1]]
            elif action == "add" and isinstance(parent, dict):
                parent[draw(st.text(min_size=1, max_size=8))] = draw(nasty)
            else:
                parent[path[-1]] = draw(nasty)
    return valid, doc


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_docs())
def test_any_damaged_catalogue_loads_or_fails_with_one_line_naming_the_file(docs):
    valid, doc = docs
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "cat"
        root.mkdir()
        path = write_catalogue(root, valid)  # art for the valid paths only: nothing outside `root`
        try:
            path.write_bytes(tomli_w.dumps(doc).encode("utf-8"))
        except (TypeError, ValueError):
            return  # TOML cannot express this document (a surrogate, a mixed array...)
        try:
            cat = load(path=path)
        except UserError as err:
            message = str(err)
            assert message.startswith("mine.toml: "), message
            assert "\n" not in message and "\r" not in message and len(message) < 400, message
        else:
            assert_sane(cat)
        assert sorted(p.name for p in Path(folder).iterdir()) == ["cat"]


def assert_sane(cat) -> None:
    """What a loaded catalogue promises, whatever its file held."""
    assert all(0 <= card.count <= MAX_COUNT for card in cat.cards) and cat.total <= MAX_DECK
    game = get(cat.game)  # a registered game, or a game of its own (whose rule numbers are its own)
    assert all(low <= cat.rules[name] <= high for name, (low, high) in game.rules.items() if name in cat.rules)
    assert PLAYERS[0] <= cat.players[0] <= cat.players[1] <= PLAYERS[1]
    texts = [cat.title, cat.note] + [c.name for c in cat.colours] + [c.name for c in cat.cards]
    texts += [c.text for c in cat.cards] + [t.name for t in cat.tokens]
    for text in texts:
        for words in text.values():  # every language of the deck
            assert not any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in words), words
            assert "<class" not in words
    for card in cat.cards:
        assert card.id not in RESERVED_CARD_IDS
        assert ".." not in Path(card.art).parts and not Path(card.art).is_absolute() and "\\" not in card.art
        if card.art_path is not None:
            assert any(card.art_path.resolve().is_relative_to(folder.resolve())
                       for folder in art_dirs(cat.source, game))


CATALOGUE = load("diamoniak")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=12), st.sampled_from(["witch=²", "witch=٣", "witch=501", "=3", "witch=",
                                                                  "diamond=500", "witch=500", "fairy=0"])),
                max_size=3))
def test_any_set_applies_or_fails_with_one_line(overrides):
    try:
        changed = apply_overrides(CATALOGUE, overrides)
    except UserError as err:
        message = str(err)
        assert message.startswith("--set "), message
        assert "\n" not in message and "\r" not in message and len(message) < 400, message
    else:
        assert changed.total <= MAX_DECK and all(0 <= card.count <= MAX_COUNT for card in changed.cards)
