"""`toolkit rulebook`: the printable rules, with the odds solved for the deck."""

from __future__ import annotations

import click

from toolkit.cli.options import (Progress, ToolkitCommand, catalogue_inputs, catalogue_options, check_numba_environment,
                                 say, watch_option)

@click.command("rulebook", cls=ToolkitCommand)
@catalogue_options
@click.option("--lang", type=click.Choice(("ru", "en", "ru+en")), default="en", show_default=True,
              help="Language: ru, en, or ru+en (both, section by section, each block tagged).")
@click.option("--paper", type=click.Choice(("a4", "letter"), case_sensitive=False), default="a4", show_default=True,
              help="Paper size.")
@click.option("--booklet", is_flag=True,
              help="A5 (half-Letter) pages two-up in saddle-stitch order: print double-sided (short-edge flip), "
                   "fold the stack and staple it.")
@click.option("--out", type=click.Path(dir_okay=False), help="PDF to write [default: output/<game>-rules-<lang>.pdf].")
@watch_option
def rulebook_command(game, catalogue_path, overrides, lang, paper, booklet, out, watch):
    """Printable rules from the catalogue and the odds solver: Russian, English or both."""
    from pathlib import Path

    from toolkit.catalogue import load
    from toolkit.games.registry import get
    from toolkit.files import check_out_path, check_outputs, write_atomic
    from toolkit.odds.report import progress_ceiling, progress_length
    from toolkit.rulebook import build_rulebook

    check_numba_environment()
    check_out_path(out)

    def build(read: dict, quiet: bool):
        catalogue = load(game, catalogue_path, overrides)
        # the book checks its two languages against each other, so it reads both texts
        read.update(catalogue=catalogue, inputs=catalogue_inputs(catalogue, ("rules",), ("ru", "en")))
        check_outputs([("--out", out)], read["inputs"])
        model = get(catalogue.game).rulebook_model
        progress = None if quiet else Progress(progress_length(catalogue, model, 1, 0), "solving",
                                               ceiling=progress_ceiling(catalogue, model))
        try:
            result = build_rulebook(catalogue, lang=lang, paper=paper.lower(), booklet=booklet, progress=progress)
        finally:
            if progress is not None:
                progress.close()
        path = write_atomic(Path(out) if out else Path("output") / f"{catalogue.game}-rules-{lang}.pdf", result.pdf)
        return path, result.summary()

    if watch:
        from toolkit.cli.watch import watch as watch_builds

        watch_builds(lambda read: build(read, quiet=True)[0], game, catalogue_path)
    path, summary = build({}, quiet=False)
    say(str(path))
    say(summary)
