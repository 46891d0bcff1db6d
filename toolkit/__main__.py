"""``python -m toolkit`` runs the command line."""

from toolkit.entry import run

run()
