"""Fails unless the PNG file given exists and is not blank (one flat colour).

Standard library only: reads the chunks, inflates the image data and looks
at how varied the bytes are.
"""
import struct
import sys
import zlib

path = sys.argv[1]
with open(path, "rb") as f:
    data = f.read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit(f"{path}: not a PNG file")
pos, idat, size = 8, b"", None
while pos < len(data):
    (length,) = struct.unpack(">I", data[pos : pos + 4])
    kind = data[pos + 4 : pos + 8]
    body = data[pos + 8 : pos + 8 + length]
    if kind == b"IHDR":
        size = struct.unpack(">II", body[:8])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw = zlib.decompress(idat)
counts = [0] * 256
for b in raw:
    counts[b] += 1
distinct = sum(1 for c in counts if c)
dominant = max(counts) / len(raw)
print(f"{path}: {size[0]}x{size[1]}, {len(data)} bytes, {distinct} distinct byte values, dominant {dominant:.2f}")
if distinct < 32:
    sys.exit(f"{path}: the screenshot looks blank")
