"""The PDF layer below the print sheets and exports (``toolkit.print``), the rulebook
(``toolkit.rulebook``) and the analysis report (``toolkit.analysis.report_pdf``): the canvas that
gives the same bytes for the same inputs and the card forms (``canvas``), and the round tokens
(``tokens``); the fonts, whose subsets have tags of their own, are ``toolkit.typeset``'s. It imports none of them."""
