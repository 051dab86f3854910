"""What the games' pictures share: the font, found once per size.

DejaVu (Debian's fonts-dejavu-core, installed by scripts/setup.sh) has ä and ö; without it Pillow's
own font is used, so a picture is never missing, only plainer.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import ImageFont

REGULAR = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
)
BOLD = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
)


@lru_cache(maxsize=16)
def font(size: int, bold: bool = False) -> Any:
    for path in BOLD if bold else REGULAR:
        if Path(path).exists():
            return ImageFont.truetype(path, size)
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has only the fixed-size bitmap font
        return ImageFont.load_default()
