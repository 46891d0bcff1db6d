"""`toolkit analyse`: placeholder until the balance report lands (replaced whole by its author)."""

import click


@click.command("analyse")
def analyse_command():
    """Balance and strategy report of many simulated games."""
    raise click.UsageError("analyse: in construction")
