"""`toolkit print-cards`: the print-and-play PDF (or the printer's calibration sheet)."""

from __future__ import annotations

import click

from toolkit.cli.options import (Millimetres, Offset, ToolkitCommand, card_option, catalogue_options, lang_option,
                                 load_deck, refuse_given, run_build, say, watch_option)

@click.command("print-cards", cls=ToolkitCommand)
@catalogue_options
@lang_option
@click.option("--paper", type=click.Choice(("a4", "letter"), case_sensitive=False), default="a4", show_default=True, help="Paper size.")
@card_option
@click.option("--bleed", type=Millimetres(), default=0.0, show_default=True, metavar="MM",
              help="Art printed this far past each cut line (cards then sit 2 x bleed apart).")
@click.option("--gutter", type=Millimetres(), default=0.0, show_default=True, metavar="MM", help="Space between cards.")
@click.option("--margin", type=Millimetres(), default=5.0, show_default=True, metavar="MM",
              help="Unprinted border of the paper; nothing is printed in it.")
@click.option("--duplex", type=click.Choice(("long", "short", "fold", "none")), default="long", show_default=True,
              help="Backs: each sheet's backs on the next page for a long- or short-edge flip; "
                   "fold: fronts and backs on one sheet either side of a fold line; none: fronts only.")
@click.option("--fold", is_flag=True,
              help="Fold-and-glue sheets for a one-sided printer: fronts and backs side by side on one side of "
                   "the paper, a fold line between them (the same as --duplex fold).")
@click.option("--draft", is_flag=True,
              help="A low-ink draft: the art and backgrounds printed light, no full-bleed fill, the text black.")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True,
              help="Cut lines continued outside the cards.")
@click.option("--aids/--no-aids", default=None,
              help="A player aid (the turn and the cards in brief) for each player, after the cards "
                   "[default: when the game has a player aid].")
@click.option("--back-offset", type=Offset(), default="0,0", show_default=True, metavar="X,Y",
              help="Shift every back this far, in mm (right and down as seen on the back's side): "
                   "what --calibration measures for your printer.")
@click.option("--calibration", is_flag=True,
              help="Print a two-sided calibration sheet instead of the cards: its marks show how far "
                   "your printer shifts the back side (see the docs page below).")
@click.option("--out", type=click.Path(dir_okay=False), help="PDF to write [default: output/<game>-cards-<lang>.pdf].")
@watch_option
def print_cards_command(game, catalogue_path, overrides, lang, paper, card_size, bleed, gutter, margin, duplex,
                        fold, draft, crop_marks, aids, back_offset, calibration, out, watch):
    """Print-and-play PDF: every card at its exact size on A4 or Letter, backs and tokens."""
    from pathlib import Path

    from toolkit.cards.render import parse_card_size
    from toolkit.files import PDF, check_out_path, check_outputs, write_atomic
    from toolkit.print import print_cards

    check_out_path(out)
    if fold and duplex != "fold":
        if click.get_current_context().get_parameter_source("duplex").name != "DEFAULT":
            from toolkit.errors import UserError

            raise UserError(f"--fold is --duplex fold (fronts and backs side by side); it cannot go with --duplex {duplex}")
        duplex = "fold"
    if calibration:
        from toolkit.print.calibration import calibration_sheet

        refuse_given(("game", "catalogue_path", "overrides", "card_size", "bleed", "gutter", "margin",
                       "crop_marks", "aids", "watch", "fold", "draft"), "--calibration prints the alignment sheet, no cards")
        check_outputs([("--out", out, PDF)], {})
        lang = lang or "en"
        result = calibration_sheet(paper=paper, duplex=duplex, back_offset=back_offset, lang=lang)
        path = write_atomic(Path(out) if out else Path("output") / f"calibration-{paper.lower()}-{lang}.pdf",
                            result.pdf)
        say(str(path))
        say(result.summary)
        return
    card_mm = parse_card_size(card_size)

    def build(read: dict):
        catalogue, code, wanted = load_deck(read, game, catalogue_path, overrides, lang, aids)
        check_outputs([("--out", out, PDF)], read["inputs"])
        result = print_cards(catalogue, lang=code, paper=paper, card_mm=card_mm, bleed=bleed, gutter=gutter,
                             margin=margin, duplex=duplex, crop=crop_marks, aids=wanted, back_offset=back_offset,
                             draft=draft)
        path = write_atomic(Path(out) if out else Path("output") / f"{catalogue.game}-cards-{code}.pdf", result.pdf)
        return path, result.summary()

    run_build(build, watch, game, catalogue_path)
