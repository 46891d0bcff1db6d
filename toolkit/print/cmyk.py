"""sRGB to CMYK for print services, colour-managed by littleCMS (Pillow's ImageCms), the total ink
(C + M + Y + K) held to a limit on every pixel.

No ICC profile of a standard printing condition (FOGRA39, GRACoL, SWOP) installs from a package
index, so a user's own profile (``--cmyk-profile``, e.g. Adobe's "Coated GRACoL 2006") is used when
given, and otherwise the toolkit's generic one, built here: a real ICC v2 output profile
(class ``prtr``, CMYK data, Lab connection space; header, desc, cprt, wtpt, the A2B0-2 / B2A0-2
lut16 tables and gamt that ICC.1 asks of an output profile) computed from a small print model:

* Each ink is a filter on the paper, one transmittance per band of light (linear ProPhoto RGB),
  fitted to the Lab of typical coated-stock solids (C 55/-37/-50, M 48/74/-3, Y 89/-5/93,
  K 16/0/0). A tint covers ``a(t) = t + 4 g t (1 - t)`` of the paper (dot gain ``g`` =
  14 % at 50 %) and reflects ``1 - a(t) (1 - T)`` per band (Murray-Davies); the densities of
  overprinted inks add, and the page shows that sum compressed towards a darkest density
  (``_seen``), as ink on ink does.
  Paper is the reference white (wtpt = D50, unprinted paper = L* 100).
* The separation (B2A) solves C, M, Y for each colour by Newton's method, then puts their grey
  component into K (grey-component replacement: K rises from nothing where C, M, Y share
  ``GCR_START`` to solid where they share 100 %) and solves C, M, Y again over that K, and where the four inks pass the limit raises K and solves again, then scales C, M, Y
  down as the last resort. Every node of the table is within the limit, and so is every colour
  littleCMS interpolates between them (a sum of inks is linear); a margin below the limit absorbs
  the rounding of 16 and 8 bits.

All three intents share the one colorimetric table, clipping out-of-gamut colours to the nearest
ink mix the solver reaches. The bytes are the same on every run (a fixed date, no random id). The
tags are packed here with ``struct``: littleCMS can write profiles, but Pillow's ImageCms only opens
them and makes the built-in sRGB, Lab and XYZ ones.

A user's profile may allow far more ink (300 % and over is common for coated stock), so every
converted image is held to the limit after the transform too (:func:`limit_ink`).
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageCms

from toolkit.errors import UserError

GENERIC_NAME = "Generic coated CMYK, 240 % ink"  # in the file, so no software named
LIMIT_MARGIN = 0.02          # the profile's own limit sits this far (of 100 %) below the one asked for
GCR_START, GCR_CURVE = 0.1, 1.0  # K starts where C, M, Y share 10 %, and replaces them all at 100 %
DOT_GAIN = 0.14              # tone value increase at a 50 % tint
A2B_GRID, B2A_GRID = 9, 17   # grid points per input channel of the forward and the separation tables

D50 = np.array([0.9642, 1.0, 0.8249])
# The model's three bands of light: linear ProPhoto (ROMM) RGB, whose primaries (D50) are wide enough
# that every printing ink is a plain filter in them (sRGB's are not: solid cyan lies outside sRGB).
RGB_TO_XYZ = np.array([[0.7976749, 0.1351917, 0.0313534],
                       [0.2880402, 0.7118741, 0.0000857],
                       [0.0000000, 0.0000000, 0.8252100]])
XYZ_TO_RGB = np.linalg.inv(RGB_TO_XYZ)
DENSITY_CAP = 5.0            # the most any ink mix can darken a band (natural log: 0.7 % reflected)
SOLID_DARKEST = 0.02         # a solid ink reflects at least this much of any band
SOLIDS_LAB = {"C": (55, -37, -50), "M": (48, 74, -3), "Y": (89, -5, 93), "K": (16, 0, 0)}


# --- colour arithmetic -------------------------------------------------------------------------------


def _f(t: np.ndarray) -> np.ndarray:
    return np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)


def _f_inv(t: np.ndarray) -> np.ndarray:
    return np.where(t > 6 / 29, t ** 3, 3 * (6 / 29) ** 2 * (t - 4 / 29))


def xyz_to_lab(xyz: np.ndarray) -> np.ndarray:
    fx, fy, fz = (_f(xyz[..., i] / D50[i]) for i in range(3))
    return np.stack([116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)], axis=-1)


def lab_to_xyz(lab: np.ndarray) -> np.ndarray:
    fy = (lab[..., 0] + 16) / 116
    fx, fz = fy + lab[..., 1] / 500, fy - lab[..., 2] / 200
    return np.stack([_f_inv(fx) * D50[0], _f_inv(fy) * D50[1], _f_inv(fz) * D50[2]], axis=-1)


def _bands(lab, darkest: float = 0.0) -> np.ndarray:
    """The band reflectances (linear ProPhoto RGB, paper = 1) of a Lab colour, clipped to (darkest, 1]."""
    return np.clip(lab_to_xyz(np.asarray(lab, float)) @ XYZ_TO_RGB.T, max(darkest, 1e-6), 1.0)


# --- the print model ---------------------------------------------------------------------------------


def _raw(effective: np.ndarray) -> np.ndarray:
    """Sum of the inks' own densities that prints as the ``effective`` density (see :func:`_seen`)."""
    return -DENSITY_CAP * np.log(1 - np.minimum(effective, DENSITY_CAP * 0.999) / DENSITY_CAP)


def _seen(raw: np.ndarray) -> np.ndarray:
    """Ink on ink darkens less and less (it does not add up: the gloss of the surface, light
    scattered in the paper): the densities of overprinted inks add in ``raw``, and the page shows
    ``DENSITY_CAP (1 - exp(-raw / DENSITY_CAP))``."""
    return DENSITY_CAP * (1 - np.exp(-raw / DENSITY_CAP))


# Per ink, per band: the transmittance of the solid, so that each solid alone prints its Lab.
SOLIDS = np.exp(-_raw(-np.log([_bands(SOLIDS_LAB[ink], SOLID_DARKEST) for ink in "CMYK"])))


def coverage(t: np.ndarray) -> np.ndarray:
    """The share of paper a tint ``t`` covers, dot gain included."""
    return t + 4 * DOT_GAIN * t * (1 - t)


def densities(tints: np.ndarray) -> np.ndarray:
    """Each ink's own (raw) density per band at ``tints`` (..., 4) -> (..., 4 inks, 3 bands)."""
    a = coverage(np.clip(tints, 0, 1))[..., None]
    return -np.log(1 - a * (1 - SOLIDS))


def cmyk_to_lab(tints: np.ndarray) -> np.ndarray:
    """The model's Lab for ink tints in 0..1, (..., 4) -> (..., 3)."""
    bands = np.exp(-_seen(densities(tints).sum(axis=-2)))
    return xyz_to_lab(bands @ RGB_TO_XYZ.T)


def _solve_cmy(target: np.ndarray, k: np.ndarray, steps: int = 12) -> np.ndarray:
    """C, M, Y in 0..1 that, over black ``k``, come closest to the band densities ``target``
    (Newton's method on the three bands, clamped to the inks' range)."""
    need = target - densities(np.stack([0 * k, 0 * k, 0 * k, k], axis=-1))[..., 3, :]
    cmy = np.full(target.shape, 0.3)
    for _ in range(steps):
        tints = np.concatenate([cmy, k[..., None]], axis=-1)
        d = densities(tints)[..., :3, :]                      # (..., ink, band)
        a = coverage(cmy)[..., None]
        da = (1 + 4 * DOT_GAIN * (1 - 2 * cmy))[..., None]
        jac = (da * (1 - SOLIDS[:3]) / (1 - a * (1 - SOLIDS[:3])))  # d density / d tint
        residual = d.sum(axis=-2) - need
        step = np.linalg.solve(np.swapaxes(jac, -1, -2) + 1e-9 * np.eye(3), residual[..., None])[..., 0]
        cmy = np.clip(cmy - step, 0, 1)
    return cmy


def lab_to_cmyk(lab: np.ndarray, limit: float) -> np.ndarray:
    """The separation: Lab (..., 3) -> ink tints (..., 4) in 0..1, their sum at most ``limit``."""
    target = _raw(-np.log(_bands(lab)))
    grey = _solve_cmy(target, np.zeros(target.shape[:-1])).min(axis=-1)  # the part C, M, Y share
    k = np.clip((grey - GCR_START) / (1 - GCR_START), 0, 1) ** GCR_CURVE
    cmyk = np.concatenate([_solve_cmy(target, k), k[..., None]], axis=-1)
    over = cmyk.sum(axis=-1) > limit
    if over.any():  # more K, less C, M, Y: bisect on how much of the way to solid K
        lo, hi = np.zeros(over.sum()), np.ones(over.sum())
        k0, t0 = k[over], target[over]
        for _ in range(14):
            mid = (lo + hi) / 2
            kk = k0 + mid * (1 - k0)
            fits = _solve_cmy(t0, kk).sum(axis=-1) + kk <= limit
            hi, lo = np.where(fits, mid, hi), np.where(fits, lo, mid)
        kk = k0 + hi * (1 - k0)
        cmyk[over] = np.concatenate([_solve_cmy(t0, kk), kk[:, None]], axis=-1)
    return limit_ink(cmyk, limit)


def limit_ink(cmyk: np.ndarray, limit: float, full: float = 1.0) -> np.ndarray:
    """Hold the ink sum (..., 4 channels, a solid ink being ``full``) to ``limit``: first
    the grey component of C, M, Y is moved into K (each unit taken from all three and given to K
    lowers the sum by two, and darkens little), then what is still over scales C, M, Y down."""
    cmyk = np.array(cmyk, dtype=float)
    excess = cmyk.sum(axis=-1) - limit
    move = np.clip(np.minimum(np.minimum(excess / 2, cmyk[..., :3].min(axis=-1)), full - cmyk[..., 3]), 0, None)
    cmyk[..., :3] -= move[..., None]
    cmyk[..., 3] += move
    cmy = cmyk[..., :3].sum(axis=-1)
    room = np.clip(limit - cmyk[..., 3], 0, None)
    scale = np.where(cmy > room, room / np.maximum(cmy, 1e-12), 1.0)
    cmyk[..., :3] *= scale[..., None]
    return cmyk


# --- the ICC profile ----------------------------------------------------------------------------------


def _s15(x: float) -> bytes:
    return struct.pack(">i", round(x * 65536))


def _xyz_type(xyz) -> bytes:
    return b"XYZ \0\0\0\0" + b"".join(_s15(v) for v in xyz)


def _text_type(text: str) -> bytes:
    return b"text\0\0\0\0" + text.encode("ascii") + b"\0"


def _desc_type(text: str) -> bytes:
    """textDescriptionType (ICC v2): the ASCII name, no Unicode or ScriptCode names."""
    ascii_ = text.encode("ascii") + b"\0"
    return (b"desc\0\0\0\0" + struct.pack(">I", len(ascii_)) + ascii_ + struct.pack(">II", 0, 0)
            + struct.pack(">HB", 0, 0) + b"\0" * 67)


def _lut16(inputs: list[np.ndarray], clut: np.ndarray, outputs: int, grid: int) -> bytes:
    """lut16Type (mft2): identity matrix, the given input curves (0..65535 each), the table
    (values 0..65535, first input slowest), identity output curves."""
    n_in, entries = len(inputs), len(inputs[0])
    head = b"mft2\0\0\0\0" + struct.pack(">BBBB", n_in, outputs, grid, 0)
    matrix = b"".join(_s15(1.0 if i == j else 0.0) for i in range(3) for j in range(3))
    tables = np.concatenate([*inputs, np.clip(np.round(clut), 0, 65535).ravel(),
                             np.tile([0, 65535], outputs)]).astype(">u2")
    return head + matrix + struct.pack(">HH", entries, 2) + tables.tobytes()


def _encode_lab(lab: np.ndarray) -> np.ndarray:
    """Lab in the 16-bit encoding of lut16 tables (L 100 = 0xFF00, a = b = 0 at 0x8000)."""
    return np.stack([lab[..., 0] * 652.8, (lab[..., 1] + 128) * 256, (lab[..., 2] + 128) * 256], axis=-1)


def _b2a_nodes(grid: int) -> np.ndarray:
    """The Lab of each node of a B2A table whose L input curve puts L 100 on the last node."""
    steps = np.arange(grid) / (grid - 1)
    L, a, b = np.meshgrid(steps * 100, steps * 65535 / 256 - 128, steps * 65535 / 256 - 128, indexing="ij")
    return np.stack([L, a, b], axis=-1).reshape(-1, 3)


def _l_curve() -> np.ndarray:
    """Input curve of L*: 0xFF00 (L 100) to 65535, so that paper white falls on a node (257 j is
    the j-th entry's input, and 0xFF00 = 257 * 254)."""
    x = np.arange(256) * 257.0
    return np.minimum(np.round(x * 65535 / 65280), 65535)


def _tag_table(tags: list[tuple[bytes, bytes]]) -> bytes:
    """Header and tags; a tag whose data is another's (the same bytes object) shares its offset."""
    count = len(tags)
    offset = 128 + 4 + 12 * count
    entries, blobs, placed = [], [], {}
    for sig, data in tags:
        if id(data) not in placed:
            placed[id(data)] = offset
            blob = data + b"\0" * (-len(data) % 4)
            blobs.append(blob)
            offset += len(blob)
        entries.append(struct.pack(">4sII", sig, placed[id(data)], len(data)))
    size = offset
    header = (struct.pack(">I", size) + b"\0" * 4 + struct.pack(">I", 0x02100000) + b"prtrCMYKLab "
              + struct.pack(">6H", 2026, 1, 1, 0, 0, 0) + b"acsp" + b"\0" * 4 + struct.pack(">I", 0)
              + b"\0" * 8 + b"\0" * 8 + struct.pack(">I", 0) + b"".join(_s15(v) for v in D50)
              + b"\0" * 4 + b"\0" * 16 + b"\0" * 28)
    assert len(header) == 128
    return header + struct.pack(">I", count) + b"".join(entries) + b"".join(blobs)


@cache
def generic_profile(limit_percent: int) -> bytes:
    """The generic CMYK output profile's bytes (see the module's docstring)."""
    limit = limit_percent / 100 - LIMIT_MARGIN
    identity = np.arange(256) * 257.0
    # Forward: CMYK -> Lab.
    steps = np.arange(A2B_GRID) / (A2B_GRID - 1)
    tints = np.stack(np.meshgrid(steps, steps, steps, steps, indexing="ij"), axis=-1).reshape(-1, 4)
    a2b = _lut16([identity] * 4, np.clip(_encode_lab(cmyk_to_lab(tints)), 0, 65535), 3, A2B_GRID)
    # Separation: Lab -> CMYK, and the gamut: 0 where the model prints the colour within 3 dE.
    nodes = _b2a_nodes(B2A_GRID)
    cmyk = lab_to_cmyk(nodes, limit)
    b2a = _lut16([_l_curve(), identity, identity], cmyk * 65535, 4, B2A_GRID)
    missed = np.linalg.norm(cmyk_to_lab(cmyk) - nodes, axis=-1) > 3
    gamt = _lut16([_l_curve(), identity, identity], missed[:, None] * 65535.0, 1, B2A_GRID)
    desc = _desc_type(GENERIC_NAME.replace(" 240 ", f" {limit_percent} "))
    return _tag_table([
        (b"desc", desc), (b"cprt", _text_type("No copyright, use freely")), (b"wtpt", _xyz_type(D50)),
        (b"A2B0", a2b), (b"A2B1", a2b), (b"A2B2", a2b),
        (b"B2A0", b2a), (b"B2A1", b2a), (b"B2A2", b2a), (b"gamt", gamt),
    ])


# --- the conversion ------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Separation:
    """A CMYK output profile (its bytes embed as the PDF's output intent) and the transform to it."""

    icc: bytes
    name: str               # the profile's description: names the printing condition
    generic: bool           # the toolkit's own profile (not a registered printing condition)
    limit: int              # total ink, per cent
    transform: ImageCms.ImageCmsTransform

    def image(self, rgb: Image.Image) -> Image.Image:
        """An RGB image in CMYK, the ink held to the limit on every pixel."""
        cmyk = ImageCms.applyTransform(rgb.convert("RGB"), self.transform)
        pixels = np.asarray(cmyk)
        cap = self.limit * 255 // 100
        over = pixels.sum(axis=-1, dtype=np.int16) > cap
        if not over.any():
            return cmyk
        pixels = pixels.copy()
        # Rounding down never adds ink: the pixels fixed stay within the limit in 8 bits too.
        pixels[over] = np.floor(limit_ink(pixels[over], cap, 255.0) + 1e-9).astype(np.uint8)
        return Image.fromarray(pixels, "CMYK")

    @cache
    def colour(self, rgb: tuple[float, float, float]) -> tuple[float, float, float, float]:
        """One RGB colour (0..1) as C, M, Y, K (0..1) through the same transform and limit."""
        pixel = Image.new("RGB", (1, 1), tuple(round(c * 255) for c in rgb))
        return tuple(v / 255 for v in self.image(pixel).getpixel((0, 0)))  # type: ignore[return-value]


PROFILE_CLASSES = {"scnr": "an input", "mntr": "a display", "prtr": "an output", "link": "a device link",
                   "spac": "a colour space", "abst": "an abstract", "nmcl": "a named colour"}


def _open_profile(path: Path, option: str) -> tuple[bytes, ImageCms.ImageCmsProfile, str]:
    try:
        data = path.read_bytes()
    except OSError as err:
        raise UserError(f"{option} {path}: cannot read the file: {err.strerror or err}") from None
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
    except (OSError, ImageCms.PyCMSError, ValueError):
        raise UserError(f"{option} {path}: not an ICC colour profile") from None
    info = profile.profile
    if info.xcolor_space.strip() != "CMYK" or info.device_class != "prtr":
        kind = PROFILE_CLASSES.get(info.device_class, f"'{info.device_class}'")
        raise UserError(f"{option} {path}: not a CMYK output (printer) profile (it is {kind} profile "
                        f"for {info.xcolor_space.strip()} data)")
    name = (info.profile_description or "").strip() or path.stem
    return data, profile, name


def separation(profile_path: str | Path | None = None, limit: int = 240,
               option: str = "--cmyk-profile") -> Separation:
    """The transform from sRGB to the user's CMYK profile, or to the generic one when none is given."""
    if profile_path is None:
        data = generic_profile(limit)
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
        name, generic = profile.profile.profile_description, True
    else:
        data, profile, name = _open_profile(Path(profile_path), option)
        generic = False
    try:
        transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), profile, "RGB", "CMYK",
                                            renderingIntent=ImageCms.Intent.PERCEPTUAL)
    except ImageCms.PyCMSError as err:
        raise UserError(f"{option} {profile_path}: littleCMS cannot use this profile ({err})") from None
    return Separation(data, name, generic, limit, transform)
