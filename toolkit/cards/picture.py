"""A picture as a person's viewer shows it, in 8-bit sRGB, whatever file it came from.

What a photo viewer does and a plain ``convert("RGB")`` does not:

* turn the picture upright as its EXIF orientation says (a phone photo taken on its side);
* scale 16-bit greyscale (and 32-bit integer or float) pixels down to 8 bits: converted as they
  are, every value over 255 is clipped, and the picture prints white;
* convert through the colour profile the file carries (a phone's Display P3, a CMYK JPEG's press
  profile) into sRGB; a profile that cannot be read is ignored, as viewers do;
* lay transparency (an alpha channel, or a palette's transparent entry) over white paper;
* show the first frame of an animation (Pillow opens a file at its first frame).
"""

from __future__ import annotations

import io

from PIL import Image, ImageCms, ImageOps

PAPER = (255, 255, 255)
_WIDE_GREY = ("I;16", "I;16B", "I;16L", "I;16N", "I")  # whole-number grey of up to 16 bits a pixel


def as_viewed(image: Image.Image) -> Image.Image:
    """``image`` (loaded) upright, 8 bits a channel, in sRGB, transparency on white: an RGB image."""
    ImageOps.exif_transpose(image, in_place=True)
    if image.mode in _WIDE_GREY:
        image = image.convert("I").point(lambda v: v / 257).convert("L")
    elif image.mode == "F":  # floating-point grey, 0.0 (black) to 1.0 (white)
        image = image.point(lambda v: v * 255).convert("L")
    image = _to_srgb(image)
    if image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, PAPER)
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat
    return image.convert("RGB")


def _to_srgb(image: Image.Image) -> Image.Image:
    """``image`` through its embedded colour profile into sRGB (alpha kept), or as it is without one."""
    icc = image.info.get("icc_profile")
    if not icc or image.mode not in ("RGB", "RGBA", "CMYK", "L"):
        return image
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        alpha = image.getchannel("A") if image.mode == "RGBA" else None
        base = image.convert("RGB") if alpha is not None else image
        converted = ImageCms.profileToProfile(base, source, ImageCms.createProfile("sRGB"), outputMode="RGB")
    except (ImageCms.PyCMSError, OSError, ValueError):
        return image  # a profile that cannot be read or does not fit the pixels: as a viewer, ignore it
    if alpha is not None:
        converted.putalpha(alpha)
    return converted
