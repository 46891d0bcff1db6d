"""The command line: a thin click layer that parses options, calls one function and reports.

One module per command; what they share (the group and command classes, the option types, the
progress bar) is in ``toolkit.cli.options``. The commands import their heavy modules inside the
command, so that ``toolkit --help`` stays quick.
"""

import click

from toolkit.cli import (analyse, art, catalogue, export_cards, odds, preflight, print_cards, rulebook, simulate,
                         studio, sweep)
from toolkit.cli.options import ToolkitGroup


@click.group(cls=ToolkitGroup, no_args_is_help=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="toolkit", prog_name="toolkit")
def main():
    """Print-and-play sheets, rulebooks and exact odds for castle-building card games."""


for command in (catalogue.catalogue_command, art.art_command, print_cards.print_cards_command,
                export_cards.export_cards_command, preflight.preflight_command, rulebook.rulebook_command,
                simulate.simulate_command, odds.odds_command, analyse.analyse_command, sweep.sweep_command,
                studio.studio_command):
    main.add_command(command)
