"""Type, shared by everything the toolkit prints: the units (``units``: millimetres, points, inches),
where a line may not end (``breaks``: the no-break spaces of each language), the bundled fonts
(``fonts``: their files, their names in a PDF, their registration with reportlab, their widths and
heights) and the subsets a PDF embeds of them, each tagged from its own contents (``subsets``). The
card renderer, the layout engine, the rulebook, the print sheets, the player aids, the tokens, the
charts and the analysis report all read them here; nothing else registers a font or defines a unit.
It imports none of them."""
