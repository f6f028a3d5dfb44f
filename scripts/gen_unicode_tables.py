#!/usr/bin/env python3
"""Generate crates/core/src/py/unicode_tables.rs from CPython 3.12's own string methods.

Run with CPython 3.12 (Unicode 15.0.0), from the crate root:

    /root/.pyenv/versions/3.12.1/bin/python3 scripts/gen_unicode_tables.py

Every table is derived by *calling Python* on every code point (c.isalnum(),
c.isdecimal() + unicodedata.decimal(c), c.isspace(), c.casefold(), c.lower(),
and the Final_Sigma behaviour of str.lower()), never by reasoning about
general categories, so the Rust side reproduces exactly what the reference
interpreter does.

    --dump   write the canonical per-code-point dump to stdout instead (used by
             tests/unicode_exhaustive.rs to compare every code point).
    --check  regenerate in memory and fail if crates/core/src/py/unicode_tables.rs differs.

The dump format (one line per non-surrogate code point, all hex uppercase):

    CP;ALNUM;DEC;SPACE;CASEFOLD;LOWER;SIGMA

    ALNUM, SPACE   '1' or '0'               c.isalnum(), c.isspace()
    DEC            digit or '-'             unicodedata.decimal(c) if c.isdecimal()
    CASEFOLD       '=' if c.casefold() == c, else its code points joined by '.'
    LOWER          '=' if c.lower() == c,    else its code points joined by '.'
    SIGMA          three bits: (c + 'Σ').lower() ends with 'ς';
                   ('A' + c + 'Σ').lower() ends with 'ς';
                   ('AΣ' + c).lower()[1] == 'ς'

The generated file records the SHA-256 of this dump, so the Rust test can
detect a table change even on machines without Python 3.12.
"""

import hashlib
import os
import sys
import unicodedata

UNIDATA_VERSION = "15.0.0"
MAX = 0x110000
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "core", "src", "py", "unicode_tables.rs")

CAP_SIGMA, SMALL_SIGMA, FINAL_SIGMA = "\u03a3", "\u03c3", "\u03c2"


def check_python():
    if sys.version_info[:2] != (3, 12):
        sys.exit(f"gen_unicode_tables.py needs CPython 3.12, this is {sys.version}")
    if unicodedata.unidata_version != UNIDATA_VERSION:
        sys.exit(f"unicodedata.unidata_version is {unicodedata.unidata_version}, need {UNIDATA_VERSION}")


def is_surrogate(cp):
    return 0xD800 <= cp <= 0xDFFF


def code_points():
    for cp in range(MAX):
        if not is_surrogate(cp):
            yield cp


def sigma_bits(c):
    t1 = (c + CAP_SIGMA).lower()[-1] == FINAL_SIGMA
    t2 = ("A" + c + CAP_SIGMA).lower()[-1] == FINAL_SIGMA
    t3 = ("A" + CAP_SIGMA + c).lower()[1] == FINAL_SIGMA
    return t1, t2, t3


def mapping_field(c, m):
    if m == c:
        return "="
    return ".".join(f"{ord(x):X}" for x in m)


def dump_lines():
    for cp in code_points():
        c = chr(cp)
        dec = str(unicodedata.decimal(c)) if c.isdecimal() else "-"
        sig = "".join("1" if b else "0" for b in sigma_bits(c))
        yield (f"{cp:X};{int(c.isalnum())};{dec};{int(c.isspace())};"
               f"{mapping_field(c, c.casefold())};{mapping_field(c, c.lower())};{sig}\n")


def dump_sha256():
    h = hashlib.sha256()
    for line in dump_lines():
        h.update(line.encode("ascii"))
    return h.hexdigest()


# ---------------------------------------------------------------- tables

def inversion_list(pred):
    """Sorted boundaries: membership = odd number of boundaries <= cp."""
    out, prev = [], False
    for cp in range(MAX):
        v = (not is_surrogate(cp)) and pred(chr(cp))
        if v != prev:
            out.append(cp)
            prev = v
    if prev:
        out.append(MAX)
    return out


def decimal_zeros():
    dec = {cp: unicodedata.decimal(chr(cp)) for cp in code_points() if chr(cp).isdecimal()}
    for cp in code_points():
        c = chr(cp)
        assert c.isdecimal() == (unicodedata.decimal(c, None) is not None), hex(cp)
    zeros = sorted(cp for cp, v in dec.items() if v == 0)
    covered = {z + k: k for z in zeros for k in range(10)}
    assert covered == dec, "decimal digits are not all in blocks of ten starting at zero"
    return zeros


def case_map(fn):
    return {cp: fn(chr(cp)) for cp in code_points() if fn(chr(cp)) != chr(cp)}


def runs(mapping):
    """Compress single-char mappings into disjoint runs (start, end, delta, step).

    step 1: every cp in start..=end maps to cp + delta.
    step 2: every other cp from start maps to cp + delta; the cps in between
            map to themselves (are absent from the mapping), so spans never overlap.
    """
    single = sorted((k, ord(v)) for k, v in mapping.items() if len(v) == 1)
    out = []
    for k, v in single:
        d = v - k
        if out:
            s, e, dd, st = out[-1]
            if dd == d and st == 1 and k == e + 1:
                out[-1] = (s, k, d, 1)
                continue
            if dd == d and k == e + 2 and (e + 1) not in mapping and (st == 2 or s == e):
                out[-1] = (s, k, d, 2)
                continue
        out.append((k, k, d, 1))
    return out


def pack_runs(rs):
    """Each run as (u32, i32): start | (count - 1) << 21 | step2 << 31, delta."""
    packed = []
    for s, e, d, st in rs:
        count = (e - s) // st + 1
        assert s < (1 << 21) and 1 <= count <= (1 << 10)
        packed.append((s | ((count - 1) << 21) | ((1 << 31) if st == 2 else 0), d))
    return packed


def unpack_lookup(packed, cp):
    """Python mirror of the Rust lookup, used to self-check the tables."""
    lo, hi = 0, len(packed)
    while lo < hi:
        mid = (lo + hi) // 2
        if (packed[mid][0] & 0x1FFFFF) <= cp:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0:
        return None
    w, d = packed[lo - 1]
    start, count, step = w & 0x1FFFFF, ((w >> 21) & 0x3FF) + 1, 2 if w >> 31 else 1
    off = cp - start
    if off % step == 0 and off // step < count:
        return cp + d
    return None


def multi(mapping):
    items = sorted((k, v) for k, v in mapping.items() if len(v) > 1)
    keys = [k for k, _ in items]
    data = "".join(v for _, v in items)
    offs, pos = [0], 0
    for _, v in items:
        pos += len(v.encode("utf-8"))
        offs.append(pos)
    assert pos < 0x10000
    return keys, offs, data


# ---------------------------------------------------------------- rust output

def fmt_array(name, ty, values, fmt, per_line=12, doc=None):
    lines = []
    if doc:
        lines += [f"/// {d}" if d else "///" for d in doc.split("\n")]
    lines.append(f"pub static {name}: [{ty}; {len(values)}] = [")
    for i in range(0, len(values), per_line):
        lines.append("    " + " ".join(fmt(v) + "," for v in values[i:i + per_line]))
    lines.append("];")
    return "\n".join(lines) + "\n"


def h16(v):
    return f"0x{v:04X}"


def h32(v):
    return f"0x{v:05X}"


def rust_str(s):
    return "".join(c if 0x20 <= ord(c) < 0x7F and c not in '"\\' else f"\\u{{{ord(c):X}}}" for c in s)


def generate():
    check_python()
    parts = []
    sizes = {}

    def inv_tables(prefix, pred, what):
        inv = inversion_list(pred)
        bmp = [b for b in inv if b < 0x10000]
        astral = [b for b in inv if b >= 0x10000]
        # A range open across U+FFFF/U+10000 would need care; assert it does not happen.
        assert len(bmp) % 2 == 0, f"{prefix}: range crosses the BMP boundary"
        parts.append(fmt_array(f"{prefix}_BMP", "u16", bmp, h16,
                               doc=f"{what}: BMP inversion list (member iff an odd number of entries are <= c)."))
        parts.append(fmt_array(f"{prefix}_ASTRAL", "u32", astral, h32, per_line=10,
                               doc=f"{what}: inversion list for U+10000 and above."))
        sizes[prefix] = 2 * len(bmp) + 4 * len(astral)
        return inv

    inv_tables("ALNUM", str.isalnum, "`c.isalnum()`")
    # Final_Sigma classes, from the behaviour of str.lower() itself. CPython's
    # handle_capital_sigma skips case-ignorable chars and asks "cased?" only of
    # the first char that is not ignorable, so three classes decide everything:
    #   (c + 'Σ').lower() ends in 'ς'       <=> c is cased and not ignorable
    #   else ('A' + c + 'Σ').lower() does   <=> c is case-ignorable (skipped)
    #   else                                    c is neither
    def sig_class(c):
        t1, t2, _ = sigma_bits(c)
        return "C" if t1 else ("I" if t2 else "O")

    inv_tables("SIGMA_IGNORABLE", lambda c: sig_class(c) == "I",
               "Final_Sigma: chars CPython skips (`_PyUnicode_IsCaseIgnorable`)")
    inv_tables("SIGMA_CASED", lambda c: sig_class(c) == "C",
               "Final_Sigma: chars that are cased and not case-ignorable (`_PyUnicode_IsCased`)")

    zeros = decimal_zeros()
    parts.append(fmt_array("DECIMAL_ZEROS", "u32", zeros, h32, per_line=10,
                           doc="`c.isdecimal()`: the digit-zero of every block of ten decimal digits (value = c - zero)."))
    sizes["DECIMAL_ZEROS"] = 4 * len(zeros)

    spaces = [cp for cp in code_points() if chr(cp).isspace()]
    assert len(spaces) == 29, spaces
    non_ascii_spaces = [cp for cp in spaces if cp >= 0x80]
    parts.append(fmt_array("SPACE_NON_ASCII", "u16", non_ascii_spaces, h16,
                           doc="`c.isspace()` for c >= U+0080, sorted (the ASCII ones are 09-0D, 1C-20)."))
    assert [cp for cp in spaces if cp < 0x80] == [9, 10, 11, 12, 13, 0x1C, 0x1D, 0x1E, 0x1F, 0x20]
    sizes["SPACE_NON_ASCII"] = 2 * len(non_ascii_spaces)

    for prefix, fn, what in (("LOWER", str.lower, "`c.lower()` (per char; U+03A3 is context-dependent and special-cased in Rust)"),
                             ("CASEFOLD", str.casefold, "`c.casefold()`")):
        m = case_map(fn)
        rs = runs(m)
        packed = pack_runs(rs)
        keys, offs, data = multi(m)
        # Self-check: the packed tables reproduce the mapping for every code point.
        mk = set(keys)
        for cp in code_points():
            c = chr(cp)
            want = fn(c)
            if cp in mk:
                i = keys.index(cp)
                got = data.encode("utf-8")[offs[i]:offs[i + 1]].decode("utf-8")
            else:
                r = unpack_lookup(packed, cp)
                got = chr(r) if r is not None else c
            assert got == want, (prefix, hex(cp), got, want)
        parts.append(
            f"/// {what}: single-char mappings as runs `(start | (count-1) << 21 | step2 << 31, delta)`.\n"
            f"/// Sorted by start; spans are disjoint. Chars absent map to themselves.\n"
            f"pub static {prefix}_RUNS: [(u32, i32); {len(packed)}] = [\n"
            + "".join(f"    (0x{w:08X}, {d}),\n" for w, d in packed)
            + "];\n")
        parts.append(fmt_array(f"{prefix}_MULTI_KEYS", "u32", keys, h32, per_line=10,
                               doc=f"{what}: chars whose mapping has more than one char (sorted)."))
        parts.append(fmt_array(f"{prefix}_MULTI_OFFS", "u16", offs, str, per_line=16,
                               doc=f"Byte offsets into `{prefix}_MULTI_DATA`: entry i is `DATA[OFFS[i]..OFFS[i+1]]`."))
        parts.append(f"/// Concatenated multi-char {prefix.lower()} outputs.\n"
                     f"pub static {prefix}_MULTI_DATA: &str = \"{rust_str(data)}\";\n")
        sizes[prefix] = 8 * len(packed) + 4 * len(keys) + 2 * len(offs) + len(data.encode("utf-8"))

    digest = dump_sha256()
    total = sum(sizes.values())
    header = (
        "// @generated by scripts/gen_unicode_tables.py -- DO NOT EDIT.\n"
        f"// Source: CPython {sys.version.split()[0]}, unicodedata.unidata_version {unicodedata.unidata_version}.\n"
        "// Regenerate from the crate root with CPython 3.12 (Unicode 15.0.0):\n"
        "//     /root/.pyenv/versions/3.12.1/bin/python3 scripts/gen_unicode_tables.py\n"
        "// Every table comes from calling Python's own str methods on every code point.\n"
        f"// Static table data: {total} bytes ("
        + ", ".join(f"{k} {v}" for k, v in sizes.items()) + ").\n\n"
        f"/// `unicodedata.unidata_version` of the interpreter the tables came from.\n"
        f"pub const UNIDATA_VERSION: &str = \"{unicodedata.unidata_version}\";\n\n"
        "/// SHA-256 of the canonical per-code-point dump (`gen_unicode_tables.py --dump`),\n"
        "/// checked by tests/unicode_exhaustive.rs when Python 3.12 is unavailable.\n"
        f"pub const DUMP_SHA256: &str = \"{digest}\";\n\n"
    )
    return header + "\n".join(parts), sizes


def main():
    check_python()
    if "--dump" in sys.argv[1:]:
        out = sys.stdout
        for line in dump_lines():
            out.write(line)
        return
    text, sizes = generate()
    if "--check" in sys.argv[1:]:
        with open(OUT, encoding="utf-8") as f:
            if f.read() != text:
                sys.exit(f"{OUT} is stale: regenerate it")
        print("up to date")
        return
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"wrote {os.path.normpath(OUT)} ({len(text.encode('utf-8'))} bytes source, "
          f"{sum(sizes.values())} bytes of table data)")


if __name__ == "__main__":
    main()
