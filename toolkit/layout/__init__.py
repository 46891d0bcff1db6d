"""Layouts as data: a card's look read from a TOML file (``model``), laid out for a deck, a language
and a card size into draw operations that the two renderers of ``toolkit.cards.render`` draw
(``engine``). See docs/layouts.md for the file format."""
