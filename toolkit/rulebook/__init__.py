"""``toolkit rulebook``: printable rules for a game, in Russian, English or both, built from the text
sources in ``texts/`` (see :mod:`toolkit.rulebook.markup`), the catalogue and the odds solver.

Every number printed comes from the catalogue or the solver at build time (see
:mod:`toolkit.rulebook.facts`), so the rulebook cannot disagree with the cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError

LANGUAGES = ("ru", "en", "ru+en")
PAPERS = ("a4", "letter")


@dataclass(frozen=True)
class RulebookResult:
    pdf: bytes
    pages: int            # pages of the PDF (printed sides of the sheets for a booklet)
    content_pages: int    # pages of the rulebook itself (booklet pages before imposition)
    lang: str
    paper: str
    booklet: bool

    def summary(self) -> str:
        size = f"{len(self.pdf) / 1e6:.1f} MB"
        if self.booklet:
            half = "A5" if self.paper == "a4" else "half-Letter"
            sheets, blank = self.pages // 2, 2 * self.pages - self.content_pages
            paper = "A4" if self.paper == "a4" else "Letter"
            return (f"{self.content_pages} {half} booklet pages{f' (+{blank} blank)' if blank else ''} on {sheets} "
                    f"{paper} sheet{'s' * (sheets != 1)} ({self.pages} sides, {size}): print double-sided, flip on "
                    "the short edge, fold and staple")
        return f"{self.pages} page{'s' * (self.pages != 1)} on {'A4' if self.paper == 'a4' else 'Letter'} ({size})"


def variants(game: str) -> dict[str, str]:
    """The engine's named rule variants: the rulebook names them exactly so."""
    from toolkit.games.registry import variants as engine_variants

    return engine_variants(game)


def build_rulebook(catalogue: Catalogue, lang: str = "en", paper: str = "a4", booklet: bool = False,
                   progress=None, designer: bool = False) -> RulebookResult:
    """The rulebook's PDF; ``progress(n)`` ticks while the odds solver works. ``designer``: the
    designer's sheet instead (``texts/designer.<lang>.md``: the exact odds and the sampled figures,
    which the players' book leaves out)."""
    from toolkit.rulebook.booklet import impose
    from toolkit.rulebook.deck import check_deck
    from toolkit.rulebook.facts import Facts
    from toolkit.rulebook.figures import Odds
    from toolkit.rulebook.layout import PAPERS as SIZES, Story, build_pdf, geometry
    from toolkit.rulebook.markup import check_same_shape, load_source

    if lang not in LANGUAGES:
        raise UserError(f"--lang {lang}: choose from {', '.join(LANGUAGES)}")
    if paper not in PAPERS:
        raise UserError(f"--paper {paper}: choose from {', '.join(PAPERS)}")
    check_deck(catalogue)
    game = catalogue.game
    kind = "designer" if designer else "rules"
    both = {code: load_source(game, code, kind) for code in ("ru", "en")}
    check_same_shape(both["ru"], both["en"])
    langs = lang.split("+")
    sources = {code: both[code] for code in langs}

    odds = Odds(catalogue, progress)
    engine_variants = variants(game)
    facts = {code: Facts(catalogue, code, odds, engine_variants) for code in langs}
    story = Story(catalogue, sources, facts, geometry(paper, booklet))
    # The document's properties speak the book's language (both of them, Russian first, for ru+en).
    heading = ({"ru": "{}: цифры для автора", "en": "{}: figures for designers"} if designer
               else {"ru": "{}: правила игры", "en": "{}: rules of play"})
    subject = ({"ru": "Шансы и выборочные цифры игры «{}»", "en": "Odds and sampled figures of the card game {}"}
               if designer else {"ru": "Правила карточной игры «{}»", "en": "Rules of the card game {}"})
    title = " / ".join(heading[code].format(catalogue.title[code]) for code in langs)
    pdf, pages = build_pdf(story, title=title,
                           subject=" / ".join(subject[code].format(catalogue.title[code]) for code in langs))
    for code in langs if not designer else ():  # the players' book describes every variant
        missing = [name for name in engine_variants if name not in facts[code].used_variants]
        if missing:
            raise UserError(f"{sources[code].file}: the optional rules do not describe the engine's variant "
                            f"'{missing[0]}' (write it as {{variant:{missing[0]}}})")
    content_pages, out_pages = pages, pages
    if booklet:
        pdf, out_pages = impose(pdf, SIZES[paper], title)
    return RulebookResult(pdf, out_pages, content_pages, lang, paper, booklet)
