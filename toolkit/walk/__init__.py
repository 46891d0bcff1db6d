"""The walk of a game: one graph container (``graph.ArrayGraph``), the Python walk that fills it
(``walker``) and what the compiled walks share (``compiled``)."""
