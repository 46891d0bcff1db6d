"""The walk of a game: one graph container (``graph.ArrayGraph``), the Python walk that fills it, decisions
kept or played, and the chain under fixed players it builds (``walker``), the seats as a walk plays them
(``played``) and what the compiled walks share (``compiled``)."""
