"""``toolkit rulebook``: printable rules for a game, in any language of its deck or two of them,
built from its text sources (the game's ``texts/``, the files its catalogue names, or ``--text``:
see :mod:`toolkit.rulebook.markup`), the catalogue and, for a game with an odds model, the solver.

Every number printed comes from the catalogue or the solver at build time (see
:mod:`toolkit.placeholders.facts`), so the rulebook cannot disagree with the cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError

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


def book_langs(catalogue: Catalogue, lang: str | None) -> list[str]:
    """``--lang``: one of the deck's languages, or two joined by ``+`` (the book in both, section by
    section); by default the deck's first."""
    if lang is None:
        return [catalogue.langs[0]]
    langs = lang.split("+")
    if len(langs) > 2 or len(set(langs)) < len(langs) or any(code not in catalogue.langs for code in langs):
        from toolkit.catalogue.checks import printable

        pair = "+".join(catalogue.langs[:2]) if len(catalogue.langs) > 1 else None
        raise UserError(f"--lang {printable(lang)}: choose a language of the deck ({', '.join(catalogue.langs)})"
                        + (f" or two joined by + ({pair})" if pair else ""))
    return langs


def rule_texts(catalogue: Catalogue, langs: list[str], texts=(), kind: str = "rules") -> dict:
    """The rulebook's text in each of ``langs``: the user's files (``texts``, each named
    ``<name>.<lang>.md``) when given, else the files the catalogue names (``game.rulebook``), else the
    game's own in every language it has; for ``kind`` ``designer``, the game's own designer's sheet.
    All the texts read must have the same shape (sections, placeholders), so a translation cannot
    fall behind."""
    from toolkit.games.registry import for_catalogue
    from toolkit.rulebook.markup import check_same_shape, load_source, read_source, text_lang

    sources, named = {}, "--text"
    for path in texts:
        code = text_lang(path)
        if code in sources:
            raise UserError(f"--text {path}: a second {code} text (the first is {sources[code].file})")
        sources[code] = read_source(path)
    if not sources and catalogue.rulebook_texts and kind == "rules":
        sources = {code: read_source(path) for code, path in catalogue.rulebook_texts.items()}
        named = f"{catalogue.source.name}: game.rulebook"
    if not sources:
        game = for_catalogue(catalogue)
        sources = {code: load_source(catalogue.game, code, kind) for code in catalogue.langs
                   if game.has_text(kind, code)}
        named = f"the {catalogue.game} game"
        if not sources and kind != "rules":
            raise UserError(f"{catalogue.source.name}: the game '{catalogue.game}' has no designer's sheet")
        if not sources:  # a game of its own that names no text
            raise UserError(f"{catalogue.source.name}: the game '{catalogue.game}' has no rulebook text: name one "
                            "per language in game.rulebook (docs/rulebook-texts.md), or give --text PATH")
    missing = [code for code in langs if code not in sources]
    if missing:
        what = "rulebook text" if kind == "rules" else "designer's sheet"
        raise UserError(f"{named}: no {missing[0]} {what} (there is "
                        f"{', '.join(src.file for src in sources.values())})")
    first, *others = sources.values()
    for other in others:
        check_same_shape(first, other)
    return {code: sources[code] for code in langs}


def build_rulebook(catalogue: Catalogue, lang: str | None = None, paper: str = "a4", booklet: bool = False,
                   progress=None, texts=(), designer: bool = False) -> RulebookResult:
    """The rulebook's PDF in ``lang`` (``book_langs``); ``progress(n)`` ticks while the odds solver
    works. ``texts``: the user's rulebook texts (paths named ``<name>.<lang>.md``) in place of the
    catalogue's or the game's own. ``designer``: the designer's sheet instead (the game's
    ``texts/designer.<lang>.md``: the exact odds and the sampled figures, which the players' book
    leaves out)."""
    from toolkit.catalogue.words import words
    from toolkit.placeholders.deck import check_deck
    from toolkit.placeholders.facts import Facts
    from toolkit.placeholders.figures import Odds
    from toolkit.rulebook.booklet import impose
    from toolkit.rulebook.layout import PAPERS as SIZES, Story, build_pdf, geometry

    langs = book_langs(catalogue, lang)
    if designer and texts:
        raise UserError("--designer prints the game's own designer's sheet: it takes no --text")
    if paper not in PAPERS:
        raise UserError(f"--paper {paper}: choose from {', '.join(PAPERS)}")
    check_deck(catalogue)
    game = catalogue.game
    sources = rule_texts(catalogue, langs, texts, "designer" if designer else "rules")

    odds = Odds(catalogue, progress)
    engine_variants = variants(game)
    facts = {code: Facts(catalogue, code, odds, engine_variants) for code in langs}
    story = Story(catalogue, sources, facts, geometry(paper, booklet), designer)
    # The document's properties speak the book's language (both of them, in the order asked for); its
    # title is the text's own '# Title' where it gives one.
    said = {code: words(catalogue, code) for code in langs}
    book = "designer" if designer else "book"
    title = " / ".join(facts[code].plain(sources[code].meta["title"]) if "title" in sources[code].meta
                       else said[code][f"{book}_title"].format(title=catalogue.title[code]) for code in langs)
    pdf, pages = build_pdf(story, title=title, subject=" / ".join(
        said[code][f"{book}_subject"].format(title=catalogue.title[code]) for code in langs))
    for code in langs if not designer else ():  # the players' book describes every variant
        missing = [name for name in engine_variants if name not in facts[code].used_variants]
        if missing:
            raise UserError(f"{sources[code].file}: the optional rules do not describe the engine's variant "
                            f"'{missing[0]}' (write it as {{variant:{missing[0]}}})")
    content_pages, out_pages = pages, pages
    if booklet:
        pdf, out_pages = impose(pdf, SIZES[paper], title)
    return RulebookResult(pdf, out_pages, content_pages, "+".join(langs), paper, booklet)
