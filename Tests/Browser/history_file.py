"""Writes a `history.bin` (Sources/DashboardCore/Trends/HistoryFileFormat.swift) for browser tests that need a history
older than the test itself: a week of hourly totals, so the week's chart can be looked at."""

import struct

MAGIC = b"HABITSH\n"
TIERS = [(10, 361), (300, 289), (3600, 721)]
MASK = (1 << 64) - 1
UNKNOWN = -(2**31)


def digest(data):
    """ContentDigest (Sources/DashboardCore/Snapshot/ContentDigest.swift): two FNV-1a lanes folded into 64 bits."""
    first, second = 0xCBF29CE484222325, 0x84222325CBF29CE4
    for byte in data:
        first = ((first ^ byte) * 0x100000001B3) & MASK
        second = ((second ^ (byte ^ 0x5A)) * 0x100000001B3) & MASK
    return first ^ ((second * 0x9E3779B97F4A7C15) & MASK)


def string(text):
    data = text.encode()
    return struct.pack("<I", len(data)) + data


def encode(upstream, habits, last_hour_slot):
    """`habits` maps a habit's name to its hourly totals, oldest first (None for a gap), the last one in
    `last_hour_slot` (seconds since 1970 // 3600). The 10 s and 5 min tiers are left empty. Format 2: each slot is
    two samples, the first and the last total recorded in it (here the same)."""
    out = bytearray(MAGIC) + struct.pack("<I", 2) + string(upstream) + struct.pack("<I", len(TIERS))
    for spacing, capacity in TIERS:
        out += struct.pack("<II", spacing, capacity)
        hourly = spacing == 3600
        out += struct.pack("<Bq", 1 if hourly else 0, last_hour_slot if hourly else 0)
        series = sorted(habits.items()) if hourly else []
        out += struct.pack("<I", len(series))
        for name, samples in series:
            out += string(name) + struct.pack("<I", 2 * len(samples))
            out += b"".join(2 * struct.pack("<i", UNKNOWN if s is None else s) for s in samples)
        out += struct.pack("<I", 0)  # people
    out += struct.pack("<I", 0)  # rank changes
    return bytes(out) + struct.pack("<Q", digest(out))
