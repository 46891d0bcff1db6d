"""How fast ``toolkit studio`` shows a deck and a save of it, in a real browser.

    python benchmarks/bench_studio.py [--cards 100] [--saves 10]

A deck of ``--cards`` cards is made in a temporary folder (the Weathervane example's layout, icons and
back, with a generated cards.csv, one copy of each card), Debian's Chromium is started (Playwright,
``/usr/bin/chromium``), then the studio in a process of its own, as a designer starts it. Two figures:

* the first page: from starting the studio to its page showing every card's picture (each ``<img>``
  loaded), the deck's first drawing included;
* a save: from writing cards.csv with one card's name changed to that card's new picture loaded on the
  open page (the page notes the moment each replaced picture has loaded, ``window.studioSwaps``, on the
  same clock as this script), over ``--saves`` saves of a different card each, a second apart.

Targets: the first page within 5 s, a save within 2 s (goal 0.5 s). The load average is printed
before and after: the machine's other work slows both.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "weathervane"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
WEATHERS = ("sun", "rain", "wind", "snow")


def write_deck(folder: Path, cards: int, renamed: dict[int, str] | None = None) -> None:
    """The deck's sheet: card ``i`` named "Card i" (or ``renamed[i]``)."""
    renamed = renamed or {}
    rows = [("id", "name_en", "name_ru", "copies", "colour", "value", "text_en", "text_ru")]
    for i in range(cards):
        rows.append((f"c{i:03d}", renamed.get(i, f"Card {i}"), f"Карта {i}", "1", WEATHERS[i % 4],
                     str(i % 10 + 1), "The next player draws a card." if i % 10 == 0 else "",
                     "Следующий игрок берёт карту." if i % 10 == 0 else ""))
    with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=100)
    parser.add_argument("--saves", type=int, default=10)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        deck = Path(tmp) / "deck"
        shutil.copytree(EXAMPLE, deck)
        write_deck(deck, args.cards)
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        started = time.time()
        studio = subprocess.Popen([sys.executable, "-m", "toolkit", "studio", str(deck), "--port", "0", "--no-browser"],
                                  cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            url = studio.stdout.readline().strip()
            addressed = time.time() - started
            page.goto(url)
            page.wait_for_function(f"""document.querySelectorAll('[data-card] img').length === {args.cards} &&
                [...document.querySelectorAll('[data-card] img')].every(i => i.complete && i.naturalWidth)""",
                                   timeout=120_000, polling=20)
            first = time.time() - started
            took = []
            for save in range(args.saves):
                time.sleep(1.0)
                card = (save * 7 + 3) % args.cards
                name = f"Renamed {save}"
                saved = time.time()
                write_deck(deck, args.cards, {card: name})
                page.wait_for_function(f"window.studioSwaps.some(s => s.id === 'c{card:03d}' && s.at >= {saved * 1000})",
                                       timeout=30_000, polling=10)
                shown = page.evaluate(f"Math.max(...window.studioSwaps.filter(s => s.id === 'c{card:03d}').map(s => s.at))")
                assert page.locator(f"[data-card=c{card:03d}]").get_attribute("title") == name
                took.append(shown / 1000 - saved)
        finally:
            studio.terminate()
            studio.wait(timeout=30)
            browser.close()
    print(f"deck: {args.cards} cards; Chromium {CHROMIUM_ARGS[0]}")
    print(f"first page, every card shown: {first:.2f} s from starting the studio (target 5 s); the page's address "
          f"was printed after {addressed:.2f} s (the deck drawn)")
    print(f"a save to its card shown: median {statistics.median(took):.3f} s, fastest {min(took):.3f} s, "
          f"slowest {max(took):.3f} s over {len(took)} saves (target 2 s, goal 0.5 s)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
