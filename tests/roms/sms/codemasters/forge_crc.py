#!/usr/bin/env python3
"""Prints the four bytes that end codemasters.sms so that its CRC32 is a chosen value.

Genesis Plus GX chooses the Codemasters mapper only for ROMs in its CRC32 list, so the test image takes the CRC32 of
one listed title: $EA5C3A6F (an SMS entry) in the committed image, $152F0DCC (a GG entry) in the copy the test runs
as .gg. Usage: forge_crc.py IMAGE [CRC32 hex]; put the printed bytes in codemasters.s (FORGE) or the test."""
import sys
import zlib


def forge(prefix: bytes, target: int) -> bytes:
    """CRC32 is affine in the last four bytes: solve the 32 x 32 system over GF(2)."""
    base = zlib.crc32(prefix)
    zero = zlib.crc32(b"\0\0\0\0", base)
    cols = [zlib.crc32((1 << i).to_bytes(4, "little"), base) ^ zero for i in range(32)]
    want = target ^ zero
    basis = {}  # Gaussian elimination: leading bit -> (column, which input bits make it)
    for i, c in enumerate(cols):
        combo = 1 << i
        for bit in sorted(basis, reverse=True):
            if c >> bit & 1:
                c ^= basis[bit][0]
                combo ^= basis[bit][1]
        if c:
            basis[c.bit_length() - 1] = (c, combo)
    x = 0
    for bit in sorted(basis, reverse=True):
        if want >> bit & 1:
            want ^= basis[bit][0]
            x ^= basis[bit][1]
    assert want == 0
    out = x.to_bytes(4, "little")
    assert zlib.crc32(out, base) == target
    return out


if __name__ == "__main__":
    data = open(sys.argv[1], "rb").read()
    target = int(sys.argv[2], 16) if len(sys.argv) > 2 else 0xEA5C3A6F
    print(", ".join("0x%02X" % b for b in forge(data[:-4], target)))
