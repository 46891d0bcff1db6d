"""`toolkit studio`: the deck in a browser page that follows every save (``toolkit.studio``)."""

from __future__ import annotations

import threading

import click

from toolkit.cli.options import (ToolkitCommand, Whole, card_option, catalogue_inputs, catalogue_options, lang_option,
                                 say)

DEFAULT_PORT = 8765


@click.command("studio", cls=ToolkitCommand)
@click.argument("deck", required=False)
@catalogue_options
@lang_option
@card_option
@click.option("--port", type=Whole(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="Port of the page on 127.0.0.1 (0: any free port; the page's address is printed).")
@click.option("--no-browser", is_flag=True, help="Do not open the page in the web browser; only print its address.")
@click.option("--poll", type=click.FloatRange(0.5, 3600), default=10.0, show_default=True, metavar="SECONDS",
              help="How often a deck from a URL is asked for again (a conditional request: an unchanged deck "
                   "is not downloaded).")
def studio_command(deck, game, catalogue_path, overrides, lang, card_size, port, no_browser, poll):
    """Show the deck in a web page as it prints, redrawn at every save, with its odds and print buttons.

    DECK is a catalogue (.toml), a sheet (.csv, .xlsx, .ods), a folder holding one, a game's id or
    the URL of a published sheet; without it, --game or --catalogue as for every command (a URL's deck
    with files of its own: --catalogue URL --assets DIR). Ctrl-C ends the studio."""
    from toolkit.cards.render import parse_card_size
    from toolkit.cli.watch import follow
    from toolkit.studio.deck import Deck, find_deck
    from toolkit.studio.server import bind, make_app, run

    card_mm = parse_card_size(card_size)
    game, catalogue_path = find_deck(deck, game, catalogue_path)
    sock, url = bind(port)
    # the files a run reads, the rulebook's and the player aid's texts too (the page prints them)
    studio = Deck(game, catalogue_path, overrides,
                  inputs=lambda catalogue: catalogue_inputs(catalogue, ("rules", "aid"), catalogue.langs))
    studio.load(card_mm, lang)

    def updated(read: dict, changed: str) -> None:
        line = studio.update(read, changed)
        if line:
            click.echo(line, err=True)

    def watching() -> None:
        try:
            follow(updated, game, catalogue_path, poll)
        except Exception as err:  # the page stays, without following the saves
            click.echo(f"toolkit: studio: no longer following the saves: {err}", err=True)

    threading.Thread(target=watching, name="studio-watch", daemon=True).start()
    say(url)
    click.echo("toolkit: studio: the page follows every save of the deck; Ctrl-C ends it", err=True)
    if not no_browser:
        import webbrowser

        webbrowser.open(url)
    run(make_app(studio, card_size, lang), sock)
