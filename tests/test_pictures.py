"""Art is printed as a person's viewer shows it: upright by its EXIF orientation, 16-bit pixels scaled
(not clipped to white), through its colour profile, transparency on white, an animation's first frame.
Each picture is written here as a camera, a scanner or a drawing program would write it, and what the
card renderer reads back is compared with the picture as it should look."""

from __future__ import annotations

import dataclasses
import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image, ImageCms

from toolkit.cards import render
from toolkit.layout.engine import Look
from toolkit.catalogue import load

SIZE = (40, 60)  # width, height of the upright picture


def upright() -> Image.Image:
    """A picture whose orientation shows: red top third, green middle, blue bottom, a black corner."""
    a = np.zeros((SIZE[1], SIZE[0], 3), np.uint8)
    a[:20, :, 0] = 255
    a[20:40, :, 1] = 255
    a[40:, :, 2] = 255
    a[:5, :5] = 0
    return Image.fromarray(a, "RGB")


def difference(a: Image.Image, b: Image.Image) -> int:
    assert a.size == b.size and a.mode == b.mode == "RGB"
    return int(np.abs(np.asarray(a, np.int16) - np.asarray(b, np.int16)).max())


def loaded(tmp_path, name: str, data: bytes) -> Image.Image:
    path = tmp_path / name
    path.write_bytes(data)
    return render.load_art(path, "test")


def saved(image: Image.Image, fmt: str, **options) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


# EXIF orientation -> how the camera stored the upright picture (the viewer undoes it)
STORED = {3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270,
          2: Image.Transpose.FLIP_LEFT_RIGHT}


@pytest.mark.parametrize("orientation", sorted(STORED))
@pytest.mark.parametrize("fmt", ["PNG", "JPEG"])
def test_a_photo_is_turned_upright_by_its_exif_orientation(tmp_path, orientation, fmt):
    exif = Image.Exif()
    exif[0x0112] = orientation
    jpeg = {"quality": 100, "subsampling": 0} if fmt == "JPEG" else {}
    data = saved(upright().transpose(STORED[orientation]), fmt, exif=exif, **jpeg)
    seen = loaded(tmp_path, f"photo.{fmt.lower()}", data)
    assert difference(seen, upright()) <= (0 if fmt == "PNG" else 40)  # JPEG: its own small errors, not a turn


def png16(pixels: np.ndarray, colour_type: int) -> bytes:
    """A 16-bit PNG (grey: colour type 0, RGB: 2) written chunk by chunk (Pillow writes 16-bit grey only)."""
    height, width = pixels.shape[:2]
    rows = b"".join(b"\0" + pixels[y].astype(">u2").tobytes() for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 16, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def test_sixteen_bit_grey_keeps_its_tones(tmp_path):
    grey = (np.arange(SIZE[0] * SIZE[1]).reshape(SIZE[1], SIZE[0]) * 27).astype(np.uint16)  # 0 .. 64,773
    expected = Image.fromarray(np.repeat((grey // 257).astype(np.uint8)[..., None], 3, axis=2), "RGB")
    for name, data in (("grey.png", png16(grey, 0)), ("grey.tif", saved(Image.fromarray(grey), "TIFF"))):
        seen = loaded(tmp_path, name, data)
        assert difference(seen, expected) <= 1, name
        assert np.asarray(seen).mean() < 140  # today's clip to 255 made it nearly all white


def test_sixteen_bit_rgb(tmp_path):
    pixels = np.zeros((SIZE[1], SIZE[0], 3), np.uint16)
    pixels[..., 0], pixels[..., 1] = 65535, 30000
    seen = loaded(tmp_path, "rgb16.png", png16(pixels, 2))
    assert seen.getpixel((0, 0)) == (255, 117, 0)


def test_transparency_lies_on_white(tmp_path):
    rgba = upright().convert("RGBA")
    rgba.putalpha(_half_alpha())
    expected = Image.new("RGB", SIZE, (255, 255, 255))
    expected.paste(upright(), mask=_half_alpha())
    assert difference(loaded(tmp_path, "alpha.png", saved(rgba, "PNG")), expected) <= 1
    palette = upright().quantize(4)
    palette.info["transparency"] = palette.getpixel((0, 59))  # the blue entry is transparent
    seen = loaded(tmp_path, "palette.gif", saved(palette, "GIF", transparency=palette.getpixel((0, 59))))
    assert seen.getpixel((0, 59)) == (255, 255, 255) and seen.getpixel((10, 0)) == (255, 0, 0)


def _half_alpha() -> Image.Image:
    mask = Image.new("L", SIZE, 255)
    mask.paste(0, (0, 30, SIZE[0], SIZE[1]))
    return mask


def test_cmyk_jpeg_plain_and_through_its_profile(tmp_path):
    cmyk = Image.new("CMYK", SIZE, (0, 255, 255, 0))  # full magenta and yellow: red
    seen = loaded(tmp_path, "plain.jpg", saved(cmyk, "JPEG", quality=95))
    r, g, b = seen.getpixel((20, 30))
    assert r > 240 and g < 15 and b < 15
    from toolkit.print.cmyk import generic_profile

    profile = generic_profile(300)
    seen = loaded(tmp_path, "profiled.jpg", saved(cmyk, "JPEG", quality=95, icc_profile=profile))
    viewer = ImageCms.profileToProfile(Image.open(io.BytesIO(saved(cmyk, "JPEG", quality=95))),
                                       ImageCms.ImageCmsProfile(io.BytesIO(profile)),
                                       ImageCms.createProfile("sRGB"), outputMode="RGB")
    assert difference(seen, viewer) <= 1 and seen.getpixel((20, 30)) != (255, 0, 0)


def test_a_broken_profile_is_ignored_as_a_viewer_does(tmp_path):
    seen = loaded(tmp_path, "broken.png", saved(upright(), "PNG", icc_profile=b"not a profile at all"))
    assert difference(seen, upright()) == 0


def test_an_animation_shows_its_first_frame(tmp_path):
    frames = [Image.new("RGB", SIZE, colour) for colour in ((255, 0, 0), (0, 0, 255))]
    data = saved(frames[0], "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    assert loaded(tmp_path, "anim.gif", data).getpixel((20, 30)) == (255, 0, 0)


def test_a_sixteen_bit_picture_on_a_card_is_not_white(tmp_path):
    """The whole path: a card whose art is a 16-bit scan is drawn with its tones (it printed white)."""
    grey = np.full((SIZE[1] * 10, SIZE[0] * 10), 20_000, np.uint16)  # a mid-dark grey
    path = tmp_path / "scan.png"
    path.write_bytes(png16(grey, 0))
    catalogue = load("diamoniak", require_art=False)
    card = dataclasses.replace(catalogue.card("witch"), art_path=path)
    face = Look(catalogue, "en").face(card)
    assert face.art.getpixel((face.art.width // 2, face.art.height // 4)) == (77, 77, 77)  # 20,000 / 257
