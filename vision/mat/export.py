"""Write a mat to a file to print at 100 %: a PNG that carries its resolution, or a
one-page PDF of the paper's size holding the mat as one image. No dependencies beyond
OpenCV and the standard library: the PDF is written by hand (a catalog, a page, a
content stream that places the image, the image as Flate-compressed RGB)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np

from vision.mat.draw import draw_mat
from vision.mat.layout import MatError, MatLayout

MM_PER_INCH = 25.4
POINTS_PER_MM = 72 / MM_PER_INCH


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(image: np.ndarray, dpi: float) -> bytes:
    """The image as PNG with a pHYs chunk, so a printer or viewer knows its real size."""
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise MatError("OpenCV could not encode the mat as PNG")
    data = buf.tobytes()
    per_metre = int(round(dpi / MM_PER_INCH * 1000))
    phys = _png_chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1))
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, IHDR length, type, data, crc
    return data[:ihdr_end] + phys + data[ihdr_end:]


def pdf_bytes(image: np.ndarray, page_mm: tuple[float, float], title: str = "") -> bytes:
    """A one-page PDF of ``page_mm`` with ``image`` (BGR) filling the page."""
    h, w = image.shape[:2]
    rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
    pixels = zlib.compress(np.ascontiguousarray(rgb).tobytes(), 6)
    pw, ph = (round(v * POINTS_PER_MM, 3) for v in page_mm)
    content = f"q {pw} 0 0 {ph} 0 0 cm /Im0 Do Q".encode()
    safe_title = title.replace("\\", "").replace("(", "").replace(")", "")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw} {ph}] /Resources << /XObject << /Im0 5 0 R >> >> "
        f"/Contents 4 0 R >>".encode(),
        b"<< /Length " + str(len(content)).encode() + b" >>\nstream\n" + content + b"\nendstream",
        f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB /BitsPerComponent 8 "
        f"/Filter /FlateDecode /Length {len(pixels)} >>\nstream\n".encode() + pixels + b"\nendstream",
        f"<< /Title ({safe_title}) /Producer (Table Companion) >>".encode(),
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {len(objects)} 0 R >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def save_mat(layout: MatLayout, path: Path, dpi: float = 150.0, style: str = "felt") -> Path:
    """Draw ``layout`` at ``dpi`` and write it to ``path`` (``.pdf`` or ``.png``)."""
    suffix = path.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise MatError(f"{path}: the mat is written as .pdf or .png, not {suffix or 'a file without suffix'}")
    if not 50 <= dpi <= 600:
        raise MatError(f"dpi {dpi:g} is outside 50-600")
    image = draw_mat(layout, dpi / MM_PER_INCH, style)
    if suffix == ".png":
        data = png_bytes(image, dpi)
    else:
        seats = f", {layout.seats} seats" if layout.seats else ""
        data = pdf_bytes(image, layout.size_mm, f"Table Companion mat: {layout.game}{seats}")
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise MatError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    return path
