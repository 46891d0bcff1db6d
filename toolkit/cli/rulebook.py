"""`toolkit rulebook`: the printable rules, with the odds solved for the deck."""

from __future__ import annotations

import click

from toolkit.cli.options import Progress, ToolkitCommand, catalogue_inputs, catalogue_options, check_numba_environment, say

@click.command("rulebook", cls=ToolkitCommand)
@catalogue_options
@click.option("--lang", type=click.Choice(("ru", "en", "ru+en")), default="en", show_default=True,
              help="Language: ru, en, or ru+en (both, section by section, each block tagged).")
@click.option("--paper", type=click.Choice(("a4", "letter"), case_sensitive=False), default="a4", show_default=True,
              help="Paper size.")
@click.option("--booklet", is_flag=True,
              help="A5 (half-Letter) pages two-up in saddle-stitch order: print double-sided (short-edge flip), "
                   "fold the stack and staple it.")
@click.option("--designer", is_flag=True,
              help="The designer's sheet instead of the players' book: the exact odds of the deck and the sampled "
                   "figures (the book keeps only a few rounded facts).")
@click.option("--out", type=click.Path(dir_okay=False),
              help="PDF to write [default: output/<game>-rules-<lang>.pdf, output/<game>-designer-<lang>.pdf].")
def rulebook_command(game, catalogue_path, overrides, lang, paper, booklet, designer, out):
    """Printable rules from the catalogue and the odds solver: Russian, English or both."""
    from pathlib import Path

    from toolkit.catalogue import load
    from toolkit.files import check_out_path, check_outputs, write_atomic
    from toolkit.odds.report import progress_ceiling, progress_length
    from toolkit.rulebook import build_rulebook

    check_numba_environment()
    check_out_path(out)
    catalogue = load(game, catalogue_path, overrides)
    check_outputs([("--out", out)], catalogue_inputs(catalogue))
    from toolkit.games.registry import get

    model = get(catalogue.game).rulebook_model
    progress = Progress(progress_length(catalogue, model, 1, 0), "solving", ceiling=progress_ceiling(catalogue, model))
    try:
        result = build_rulebook(catalogue, lang=lang, paper=paper.lower(), booklet=booklet, progress=progress,
                                designer=designer)
    finally:
        progress.close()
    default = f"{catalogue.game}-{'designer' if designer else 'rules'}-{lang}.pdf"
    path = write_atomic(Path(out) if out else Path("output") / default, result.pdf)
    say(str(path))
    say(result.summary())
