"""A token's name stays on the token and readable: shrunk to half its size at most, then cut."""

from __future__ import annotations

import dataclasses

import pytest

from toolkit.catalogue import load
from toolkit.catalogue.model import Text
from toolkit.cards.render import text_width
from toolkit.pdf import tokens
from toolkit.print import print_cards

DIAMETER = 25.0
SIZE, WIDTH = DIAMETER * 0.085, DIAMETER * 0.62  # as draw_token asks


@pytest.mark.parametrize("name", ["Victory token", "Очко победы", "", "W" * 100, "Long name " * 10,
                                  "Token a<b& " + "T" * 90])
def test_a_token_name_fits_its_token_at_a_readable_size(name):
    lines, size = tokens._label_lines(name, SIZE, WIDTH)
    assert 1 <= len(lines) <= 2
    assert size >= SIZE * tokens.LABEL_MIN
    assert all(text_width(line, "label", size) <= WIDTH + 1e-9 for line in lines)
    if text_width(name, "label", SIZE * tokens.LABEL_MIN) <= 2 * WIDTH / 1.2:
        assert " ".join(lines).split() == name.split()  # nothing cut that fitted


def test_a_sheet_of_tokens_with_long_names_prints():
    palaces = load("palaces")
    named = dataclasses.replace(palaces, tokens=tuple(dataclasses.replace(t, name=Text(ru="Ж" * 100, en="W" * 100))
                                                     for t in palaces.tokens))
    result = print_cards(named, lang="en", duplex="none")
    assert result.tokens == sum(t.count for t in palaces.tokens) and result.pdf.startswith(b"%PDF")
