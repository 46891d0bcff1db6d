"""`toolkit preflight`: a file or folder checked against a service's or table's rules."""

from __future__ import annotations

import click

from toolkit.cli.options import ToolkitCommand, say

PREFLIGHT_TARGETS = ("tgc", "mpc", "drivethru", "tabletopia", "screentop", "tts")


@click.command("preflight", cls=ToolkitCommand)
@click.argument("path", type=click.Path(exists=False))
@click.option("--target", type=click.Choice(PREFLIGHT_TARGETS), required=True,
              help="The service or table whose rules to check the file or folder against.")
@click.option("--card", "card_size", metavar="SIZE",
              help="The card size the files should have [default: the one their pixels match].")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of lines.")
def preflight_command(path, target, card_size, as_json):
    """Check a file or folder against a print service's or virtual table's rules: one line per
    check, exit status 1 if any fails."""
    from toolkit.print.preflight import preflight, report_lines, report_json

    result = preflight(path, target, card_size)
    if as_json:
        say(report_json(result))
    else:
        for line in report_lines(result):
            say(line)
    if not result.passed:
        raise SystemExit(1)
