"""What each print service and virtual table accepts, per card size: the numbers that
``export-cards`` writes to and ``preflight`` checks against.

Sizes are the services' own, in inches at 300 DPI (a service's "poker" card is 2.5 x 3.5 in, a
little larger than the catalogue's 63 x 88 mm). ``image_px`` is the whole picture a service takes
for one card, bleed included; ``bleed_px`` is the bleed on each side (the trim is the image less
twice the bleed); ``safe_px`` is the distance from the image's edge to the safe zone, inside which
all text and important art must stay. A service offers only the sizes listed here: any other size
is refused. Virtual tables (Tabletopia, Screentop, Tabletop Simulator) take any card size: their
images are the card cut at the trim, at 300 DPI.

Sources: the services' published templates and upload checks (poker figures as collected in the
issue that asked for these targets; bridge, mini and tarot from the same templates).
"""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.errors import UserError
from toolkit.typeset.units import MM_PER_INCH

DPI = 300
VIRTUAL_SAFE_IN = 0.0625  # a virtual table rounds the corners: text keeps 1/16 in inside the trim


@dataclass(frozen=True)
class CardSpec:
    """One card size at one service, in pixels at ``DPI``."""

    size: str                    # poker, bridge, mini, tarot
    image_px: tuple[int, int]    # the whole image, bleed included
    bleed_px: float              # bleed on each side
    safe_px: float               # from the image's edge to the safe zone

    @property
    def trim_px(self) -> tuple[float, float]:
        return (self.image_px[0] - 2 * self.bleed_px, self.image_px[1] - 2 * self.bleed_px)

    @property
    def card_mm(self) -> tuple[float, float]:
        """The trim in millimetres (what the card renderer lays out)."""
        return tuple(round(p / DPI * MM_PER_INCH, 4) for p in self.trim_px)  # type: ignore[return-value]

    @property
    def bleed_mm(self) -> float:
        return round(self.bleed_px / DPI * MM_PER_INCH, 4)

    @property
    def safe_mm(self) -> float:
        """The safe zone's distance inside the trim."""
        return round((self.safe_px - self.bleed_px) / DPI * MM_PER_INCH, 4)


def _inches(size: str, trim_in: tuple[float, float], bleed_in: float, safe_in: float) -> CardSpec:
    """A size given in inches: bleed and safe zone measured from the trim (the safe zone inside it)."""
    w = round((trim_in[0] + 2 * bleed_in) * DPI)
    h = round((trim_in[1] + 2 * bleed_in) * DPI)
    return CardSpec(size, (w, h), bleed_in * DPI, (bleed_in + safe_in) * DPI)


# The trims the services share (inches).
TRIM_IN = {"poker": (2.5, 3.5), "bridge": (2.25, 3.5), "mini": (1.75, 2.5), "tarot": (2.75, 4.75)}


def _mpc(size: str) -> CardSpec:
    """MakePlayingCards: 36 px of bleed each side, the safe zone 72 px from the image's edge."""
    w, h = (round(side * DPI) for side in TRIM_IN[size])
    return CardSpec(size, (w + 72, h + 72), 36, 72)


@dataclass(frozen=True)
class Target:
    name: str                      # the --target value
    service: str                   # who takes the files
    sizes: dict[str, CardSpec] | None  # the card sizes it offers (None: a virtual table, any size)
    kind: str                      # png-set, pdf, grid (one sheet of faces), tts
    note: str                      # one line for --help and the README

    def spec(self, size: str | None, card_mm: tuple[float, float]) -> CardSpec:
        """The spec for the card size asked for: ``size`` is the preset's name (None for a WxH
        size in mm). A print service refuses a size it does not offer; a virtual table takes any
        size, cut at the trim at 300 DPI, the safe zone 1/16 in inside it (the rounded corners)."""
        if self.sizes is None:
            w, h = (round(side / MM_PER_INCH * DPI) for side in card_mm)
            return CardSpec(size or f"{card_mm[0]:g}x{card_mm[1]:g}", (w, h), 0.0, VIRTUAL_SAFE_IN * DPI)
        if size in self.sizes:
            return self.sizes[size]
        offered = ", ".join(self.sizes)
        asked = size or f"{card_mm[0]:g}x{card_mm[1]:g}"
        raise UserError(f"--card {asked}: {self.service} does not offer this card size (it offers {offered})")


TARGETS: dict[str, Target] = {
    "tgc": Target(
        "tgc", "The Game Crafter",
        {size: _inches(size, trim, 0.125, 0.125) for size, trim in TRIM_IN.items()},
        "png-set", "one RGB PNG per face and the back, 1/8 in bleed, text 1/8 in inside the trim"),
    "mpc": Target(
        "mpc", "MakePlayingCards",
        {size: _mpc(size) for size in TRIM_IN},
        "png-set", "one image per face and the back, 36 px bleed, safe zone 72 px from the edge"),
    "drivethru": Target(
        "drivethru", "DriveThruCards",
        {size: _inches(size, TRIM_IN[size], 0.125, 0.125) for size in ("poker", "tarot")},
        "pdf", "one PDF/X-1a CMYK file, pages back, front, back, front..., 1/8 in bleed, ink at most 240 %"),
    "tabletopia": Target(
        "tabletopia", "Tabletopia", None,
        "png-set", "one image per face and one back, every image the same size, cut at the trim"),
    "screentop": Target(
        "screentop", "Screentop", None,
        "grid", "a grid PNG of faces and a back per card, cut at the trim"),
    "tts": Target(
        "tts", "Tabletop Simulator", None,
        "tts", "deck sheets of at most 10 x 7 (the 70th slot the hidden card), at most 4096 px a side"),
}

TTS_MAX_COLS, TTS_MAX_ROWS, TTS_MAX_PX = 10, 7, 4096
DRIVETHRU_INK_LIMIT = 240  # per cent, total of C + M + Y + K


def service_target(name: str) -> Target:
    try:
        return TARGETS[name]
    except KeyError:
        raise UserError(f"--target {name}: unknown target (choose from {', '.join(TARGETS)})") from None
