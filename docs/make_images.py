"""Draw the README's pictures again from the toolkit's own output: ``python docs/make_images.py``.

* ``print-sheet.png``: the first sheet of the Palaces print-and-play PDF (English) and the page of
  backs printed behind it, side by side on grey;
* ``rulebook-en.png`` and ``rulebook-ru.png``: page 1 of the English castle game (Castles and Witches) and the Russian Palaces
  rulebooks;
* ``odds-chart.png``: ``toolkit odds --plot`` of the default (solo Diamoniak) model.

Pages are rendered with pypdfium2 (the ``test`` extra installs it).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2
from PIL import Image

DOCS = Path(__file__).resolve().parent
GREY = (214, 216, 222)


def toolkit(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "toolkit", *args], check=True, stdout=subprocess.DEVNULL)


def page(pdf: Path, index: int, width: int) -> Image.Image:
    document = pypdfium2.PdfDocument(pdf)
    try:
        sheet = document[index]
        image = sheet.render(scale=width / sheet.get_width()).to_pil().convert("RGB")
    finally:
        document.close()
    return image


def side_by_side(images: list[Image.Image], gap: int = 24) -> Image.Image:
    width = sum(image.width for image in images) + gap * (len(images) + 1)
    height = max(image.height for image in images) + 2 * gap
    canvas = Image.new("RGB", (width, height), GREY)
    x = gap
    for image in images:
        canvas.paste(image, (x, gap))
        x += image.width + gap
    return canvas


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        toolkit("print-cards", "--game", "palaces", "--out", str(work / "cards.pdf"))
        toolkit("rulebook", "--game", "diamoniak", "--lang", "en", "--out", str(work / "en.pdf"))
        toolkit("rulebook", "--game", "palaces", "--lang", "ru", "--out", str(work / "ru.pdf"))
        sheets = [page(work / "cards.pdf", i, 497) for i in (0, 1)]
        side_by_side(sheets).save(DOCS / "print-sheet.png", optimize=True)
        for name, pdf in (("rulebook-en.png", "en.pdf"), ("rulebook-ru.png", "ru.pdf")):
            page(work / pdf, 0, 990).quantize(colors=256).save(DOCS / name, optimize=True)
        toolkit("odds", "--plot", str(work / "odds.png"))
        Image.open(work / "odds.png").convert("RGB").quantize(colors=256).save(DOCS / "odds-chart.png", optimize=True)


if __name__ == "__main__":
    main()
