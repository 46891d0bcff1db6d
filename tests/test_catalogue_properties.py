"""Property tests: random valid catalogues load; random broken ones fail with one clear line."""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import builtin_doc, write_catalogue
from toolkit.catalogue import load
from toolkit.catalogue.model import SYMBOLS
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
