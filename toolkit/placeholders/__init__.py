"""The placeholders of the texts printed with a deck, the rulebook's and the player aid's: a text's
lines and the form of a placeholder (``text``), the catalogue's facts and the solver's figures formatted
for each language (``facts``, ``figures``) and the decks they can be filled for (``deck``). The rulebook
(``toolkit.rulebook``) and the player aid (``toolkit.print.aids``) read them here; it imports neither."""
