"""What the page asks of the deck, each answered by the function its command calls: the card summary
(``toolkit catalogue``), hand odds (``toolkit odds --model hand``), the exact figures (``toolkit
odds``), a quick simulation (``toolkit simulate``), and the files: print-and-play sheets (``toolkit
print-cards``), exports with their preflight verdicts (``toolkit export-cards``, ``toolkit
preflight``) and the rulebook (``toolkit rulebook``), written where those commands write them by
default, with the same refusals. Each returns what the page shows, as plain data for JSON."""

from __future__ import annotations

from pathlib import Path

from toolkit.errors import UserError

QUICK_GAMES = 2_000  # the quick simulation: about a second once the simulator is compiled
RULEBOOK_SCALE = 1.5  # rulebook pages shown at 108 DPI (PDF points times this)
OUTPUT = Path("output")  # where the commands write by default, from the folder the studio was started in


def summary(catalogue, lang: str) -> dict:
    from toolkit.catalogue.table import deck_table

    return {"lines": deck_table(catalogue, lang).splitlines()}


def hand(catalogue, size: int, where: str, at_least: int) -> dict:
    """The odds of at least ``at_least`` cards matching ``where`` (clauses joined by commas, each as
    ``--where`` takes it) in a hand of ``size``."""
    from toolkit.odds.report import answer

    clauses = tuple(clause.strip() for clause in where.split(",") if clause.strip())
    report = answer(catalogue, "hand", hand=size, where=clauses, at_least=at_least)
    return {"lines": report.lines, "chance": report.data["chance"]}


def figures(catalogue) -> dict:
    """The exact figures ``toolkit odds`` prints by default for a game with rules (its first model)."""
    from toolkit.games.registry import for_catalogue
    from toolkit.odds.report import answer, model_of

    for_catalogue(catalogue).require_rules(catalogue, "exact figures need")
    model = model_of(catalogue, None)
    return {"model": model, "lines": answer(catalogue, model).lines}


def simulation(catalogue, games: int = QUICK_GAMES) -> dict:
    from toolkit.games.registry import for_catalogue
    from toolkit.sim.report import report
    from toolkit.sim.simulate import simulate

    for_catalogue(catalogue).require_rules(catalogue, "a simulation needs")
    result = simulate(catalogue, players=catalogue.players[0], games=games, seed=1)
    return {"lines": report(result)[1].splitlines()}


def print_sheets(catalogue, lang: str, card_mm, inputs: dict) -> dict:
    """``toolkit print-cards`` with its defaults, at the page's card size and language."""
    from toolkit.files import PDF, check_outputs, write_atomic
    from toolkit.print import print_cards
    from toolkit.print.aids import has_aid

    path = OUTPUT / f"{catalogue.game}-cards-{lang}.pdf"
    check_outputs([("the sheets' file", path, PDF)], inputs)
    result = print_cards(catalogue, lang=lang, card_mm=card_mm, aids=has_aid(catalogue, lang))
    write_atomic(path, result.pdf)
    return {"path": str(path), "lines": [str(path), result.summary()]}


def export(catalogue, target: str, lang: str, card_mm, card_size: str) -> dict:
    """``toolkit export-cards --target TARGET`` with its defaults, then, for a print service or a
    virtual table, ``toolkit preflight`` of what it wrote."""
    from toolkit.print.aids import has_aid
    from toolkit.print.export import SERVICE_TARGETS, TARGETS, export_cards, export_folder

    if target not in TARGETS:
        raise UserError(f"--target {target}: unknown target (choose from {', '.join(TARGETS)})")
    folder = export_folder(catalogue, target, lang, None, False)
    result = export_cards(catalogue, target, folder, lang=lang, card_mm=card_mm, aids=has_aid(catalogue, lang),
                          card_size=card_size)
    lines = [f"{folder}/", result.summary]
    passed = None
    if target in SERVICE_TARGETS:
        from toolkit.print.preflight import preflight, report_lines

        verdict = preflight(folder, target, card_size)
        lines += ["", f"$ toolkit preflight {folder} --target {target}", *report_lines(verdict)]
        passed = verdict.passed
    return {"path": f"{folder}/", "lines": lines, "passed": passed}


def rulebook(catalogue, lang: str, inputs: dict) -> tuple[dict, list[bytes]]:
    """``toolkit rulebook`` with its defaults in ``lang``, and its pages as PNG pictures (``inputs``: the
    files the studio reads, the game's rulebook texts among them)."""
    from toolkit.files import PDF, check_outputs, write_atomic
    from toolkit.rulebook import build_rulebook

    path = OUTPUT / f"{catalogue.game}-rules-{lang}.pdf"
    check_outputs([("the rulebook's file", path, PDF)], inputs)
    result = build_rulebook(catalogue, lang=lang)
    write_atomic(path, result.pdf)
    return {"path": str(path), "lines": [str(path), result.summary()]}, pages(result.pdf)


def pages(pdf: bytes) -> list[bytes]:
    """Each page of ``pdf`` as a PNG (pdfium: one wheel, no system library)."""
    import pypdfium2

    from toolkit.studio.deck import png

    document = pypdfium2.PdfDocument(pdf)
    try:
        return [png(page.render(scale=RULEBOOK_SCALE).to_pil()) for page in document]
    finally:
        document.close()
