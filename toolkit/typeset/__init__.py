"""Type, shared by everything the toolkit prints: the units (``units``: points and millimetres) and the
bundled fonts (``fonts``: their files, their names in a PDF, their registration with reportlab, their
widths and heights) and the subsets a PDF embeds of them, each tagged from its own contents (``subsets``). The card renderer, the layout engine, the rulebook, the print sheets, the player
aids, the tokens, the charts and the analysis report all read them here; nothing else registers a
font. It imports none of them."""
