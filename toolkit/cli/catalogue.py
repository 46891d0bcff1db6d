"""`toolkit catalogue`: the deck as a table or JSON."""

from __future__ import annotations

import json

import click

from toolkit.cli.options import ToolkitCommand, catalogue_options, lang_option, say

@click.command("catalogue", cls=ToolkitCommand)
@catalogue_options
@lang_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
def catalogue_command(game, catalogue_path, overrides, lang, as_json):
    """Show the deck: every card type with its kind, colour, count and name."""
    from toolkit.catalogue import load

    catalogue = load(game, catalogue_path, overrides)
    from toolkit.catalogue.words import deck_lang

    lang = deck_lang(catalogue, lang)
    if as_json:
        say(json.dumps(catalogue.as_json(), ensure_ascii=False, indent=2))
        return
    from toolkit.catalogue.table import deck_table

    say(deck_table(catalogue, lang))
