"""`toolkit rulebook`: the printable rules, with the odds solved for the deck."""

from __future__ import annotations

import click

from toolkit.cli.options import (Progress, ToolkitCommand, catalogue_inputs, catalogue_options, check_numba_environment,
                                 run_build, watch_option)

@click.command("rulebook", cls=ToolkitCommand)
@catalogue_options
@click.option("--lang", metavar="LANG",
              help="Language: one of the deck's (ru or en for the built-in games), or two joined by + (ru+en: both, "
                   "section by section, each block tagged)  [default: the deck's first language]")
@click.option("--paper", type=click.Choice(("a4", "letter"), case_sensitive=False), default="a4", show_default=True,
              help="Paper size.")
@click.option("--booklet", is_flag=True,
              help="A5 (half-Letter) pages two-up in saddle-stitch order: print double-sided (short-edge flip), "
                   "fold the stack and staple it.")
@click.option("--text", "texts", multiple=True, type=click.Path(dir_okay=False), metavar="PATH",
              help="Your own rulebook text in place of the catalogue's or the game's: a file named <name>.<lang>.md "
                   "in the rulebook markup (repeat it for each language; see docs/rulebook-texts.md).")
@click.option("--designer", is_flag=True,
              help="The designer's sheet instead of the players' book: the exact odds of the deck and the sampled "
                   "figures (the book keeps only a few rounded facts).")
@click.option("--out", type=click.Path(dir_okay=False),
              help="PDF to write [default: output/<game>-rules-<lang>.pdf, output/<game>-designer-<lang>.pdf].")
@watch_option
def rulebook_command(game, catalogue_path, overrides, lang, paper, booklet, texts, designer, out, watch):
    """Printable rules from the game's text, the catalogue and the odds solver, in one language or two."""
    from pathlib import Path

    from toolkit.catalogue import load
    from toolkit.games.registry import get
    from toolkit.files import PDF, check_out_path, check_outputs, write_atomic
    from toolkit.odds.report import progress_ceiling, progress_length
    from toolkit.rulebook import book_langs, build_rulebook

    check_numba_environment()
    check_out_path(out)
    texts = [Path(text) for text in texts]

    def build(read: dict):
        catalogue = load(game, catalogue_path, overrides)
        code = "+".join(book_langs(catalogue, lang))
        # the book checks its languages against each other, so it reads the game's text in each
        inputs = catalogue_inputs(catalogue, () if texts else ("designer" if designer else "rules",), catalogue.langs)
        read.update(catalogue=catalogue, inputs={**inputs, **{f"the rulebook text {text}": text for text in texts}})
        check_outputs([("--out", out, PDF)], read["inputs"])
        model = get(catalogue.game).rulebook_model
        progress = None if watch else Progress(progress_length(catalogue, model, 1, 0), "solving",
                                               ceiling=progress_ceiling(catalogue, model))
        try:
            result = build_rulebook(catalogue, lang=code, paper=paper.lower(), booklet=booklet, progress=progress,
                                    texts=texts, designer=designer)
        finally:
            if progress is not None:
                progress.close()
        default = f"{catalogue.game}-{'designer' if designer else 'rules'}-{code}.pdf"
        path = write_atomic(Path(out) if out else Path("output") / default, result.pdf)
        return path, result.summary()

    run_build(build, watch, game, catalogue_path)
