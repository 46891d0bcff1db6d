"""`toolkit export-cards`: card files for print services and virtual tables."""

from __future__ import annotations

import click

from toolkit.cli.options import (Millimetres, ToolkitCommand, card_option, catalogue_options, lang_option, load_deck,
                                 run_build, watch_option)

EXPORT_TARGETS = ("tgc", "mpc", "drivethru", "tabletopia", "screentop", "tts", "png", "pdf-single")


@click.command("export-cards", cls=ToolkitCommand)
@catalogue_options
@lang_option
@click.option("--target", type=click.Choice(EXPORT_TARGETS), required=True,
              help="tgc, mpc, drivethru: the files The Game Crafter, MakePlayingCards or DriveThruCards "
                   "take, at their pixel sizes; tabletopia, screentop, tts: virtual tables; png: one 300 DPI "
                   "PNG per face and back + manifest.csv at the catalogue's size; pdf-single: one card per "
                   "page with TrimBox/BleedBox.")
@card_option
@click.option("--bleed", type=Millimetres(), metavar="MM",
              help="Art past the cut line, for png and pdf-single [default: 3]; the print services set "
                   "their own, and virtual tables cut at the trim.")
@click.option("--aids/--no-aids", default=None,
              help="Add the player aid: a PNG and a manifest row, a card of the TTS deck, pages at the end "
                   "[default: when the game has a player aid].")
@click.option("--base-url", metavar="URL",
              help="tts, screentop: where you will host the images (http:// or https://); the saved "
                   "object then names them there, so that every player of a multiplayer table sees them.")
@click.option("--saved-objects", is_flag=True,
              help="tts: write into Tabletop Simulator's Saved Objects folder on this computer "
                   "(instead of --out).")
@click.option("--cmyk-profile", type=click.Path(dir_okay=False), metavar="ICC",
              help="drivethru: the CMYK ICC profile of the printing condition to convert to "
                   "[default: the built-in generic coated profile].")
@click.option("--out", type=click.Path(file_okay=False), help="Folder to write [default: output/<game>-<target>-<lang>/].")
@watch_option
def export_cards_command(game, catalogue_path, overrides, lang, target, card_size, bleed, aids, base_url,
                         saved_objects, cmyk_profile, out, watch):
    """Card files for print services (tgc, mpc, drivethru, png, pdf-single) and virtual tables
    (tabletopia, screentop, tts)."""
    from toolkit.cards.render import parse_card_size
    from toolkit.files import check_out_path
    from toolkit.print.export import export_cards, export_folder

    check_out_path(out)
    card_mm = parse_card_size(card_size)

    def build(read: dict):
        catalogue, code, wanted = load_deck(read, game, catalogue_path, overrides, lang, aids)
        folder = export_folder(catalogue, target, code, out, saved_objects)
        result = export_cards(catalogue, target, folder, lang=code, card_mm=card_mm, bleed=bleed, aids=wanted,
                              card_size=card_size, base_url=base_url, cmyk_profile=cmyk_profile)
        return f"{folder}/", result.summary

    run_build(build, watch, game, catalogue_path)
