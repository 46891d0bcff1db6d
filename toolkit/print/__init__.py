"""Printed output: print-and-play sheets (``print-cards``) and files for card printers and
Tabletop Simulator (``export-cards``)."""

from toolkit.print.sheets import PrintResult, print_cards

__all__ = ["PrintResult", "print_cards"]
