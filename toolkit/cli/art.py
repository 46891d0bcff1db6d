"""`toolkit art`: the original card art as PNGs."""

from __future__ import annotations

import click

from toolkit.cli.options import GameChoice, ToolkitCommand, assets_option, deck_source, say

@click.command("art", cls=ToolkitCommand)
@click.option("--game", type=GameChoice("all"), default="all", show_default=True,
              help="Built-in game whose art to draw.")
@click.option("--catalogue", "catalogue_path", type=click.Path(dir_okay=False),
              help="Draw the art of this catalogue instead (a TOML file, a sheet, or the http(s) URL of one).")
@assets_option
@click.option("--set", "overrides", multiple=True, metavar="ID=N", help="Accepted like elsewhere; counts do not change art.")
@click.option("--out-dir", type=click.Path(file_okay=False), default="card_art", show_default=True,
              help="Folder to write into; each PNG goes to the path its catalogue names.")
def art_command(game, catalogue_path, assets, overrides, out_dir):
    """Draw the original card art (faces and backs) as 300 DPI PNGs."""
    from pathlib import Path

    from toolkit.cards.art import CARD_PX, write_art
    from toolkit.catalogue import load
    from toolkit.files import check_out_path

    catalogue_path = deck_source(catalogue_path, assets)
    check_out_path(out_dir, "--out-dir")
    from toolkit.games.registry import ids

    games = [None] if catalogue_path else (ids() if game == "all" else [game])
    for name in games:
        catalogue = load(name, catalogue_path, overrides, require_art=False)
        written = write_art(catalogue, Path(out_dir))
        say(f"{catalogue.game}: {len(written)} images of {CARD_PX[0]} x {CARD_PX[1]} px in {out_dir}/")
