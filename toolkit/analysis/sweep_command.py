"""`toolkit sweep`: placeholder until the grid runner lands (replaced whole by its author)."""

import click


@click.command("sweep")
def sweep_command():
    """Analyse every configuration of a grid of compositions."""
    raise click.UsageError("sweep: in construction")
