#!/usr/bin/env python3
"""Number differentials: the crate's float reading, repr and exp against CPython.

Seeded adversarial inputs are generated here, answered by CPython in this
process and by the Rust side (`target/release/examples/numbers_diff`, one
process per kind and chunk, the inputs batched through stdin), and compared
exactly:

    float  Python float(s) (py::float::parse_py_float): bits of the double
    json   json.dumps(json.loads(t)) (the crate's JSON parser + canonical printer)
    repr   repr(x) of doubles (py::float::repr)
    exp    math.exp(x) (py::exp::exp): bits, on the freshness domain and beyond

    python3 tests/numbers/numbers_diff.py --seed S --float N --json N --repr N --exp N
    python3 tests/numbers/numbers_diff.py --ci     # the CI sizes, a fresh seed (printed)

The interpreter must be CPython 3.12 on glibc (math.exp is the C library's):
`.lians-venv/bin/python`. Exit status 1 on any difference (the first ones are
printed with their inputs), 0 otherwise. README.md beside this file has the
offline counts.
"""
import argparse
import json
import math
import os
import random
import struct
import subprocess
import sys
import time
from decimal import Decimal

sys.set_int_max_str_digits(0)  # the generator's own digit strings; json.loads keeps its limit below

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_BIN = os.path.join(ROOT, "target", "release", "examples", "numbers_diff")
CI_SIZES = {"float": 120_000, "json": 80_000, "repr": 200_000, "exp": 100_000}


def bits(f: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", f))[0]


def from_bits(b: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", b))[0]


# ---------------------------------------------------------------- doubles


def random_double(rng: random.Random) -> float:
    """A finite double > 0 from one of several adversarial families."""
    k = rng.randrange(10)
    if k == 0:  # any bit pattern
        while True:
            x = from_bits(rng.getrandbits(63))
            if math.isfinite(x) and x > 0:
                return x
    if k == 1:  # subnormals and the smallest normals
        return from_bits(rng.randrange(1, (1 << 53) + 4))
    if k == 2:  # the largest doubles
        return from_bits(0x7FEFFFFFFFFFFFFF - rng.randrange(1 << rng.randrange(1, 52)))
    if k == 3:  # powers of two and their neighbours
        return from_bits(max(1, min(0x7FEFFFFFFFFFFFFF, (rng.randrange(1, 2047) << 52) + rng.randrange(-3, 4))))
    if k == 4:  # short decimals of every scale, and their neighbours
        x = float(f"{rng.randrange(1, 10 ** rng.randrange(1, 18))}e{rng.randrange(-330, 300)}")
        if not (math.isfinite(x) and x > 0):
            return 1.0
        return from_bits(bits(x) + rng.randrange(-2, 3)) if bits(x) > 2 else x
    if k == 5:  # 6-place values (the scorer's own) and their neighbours
        x = rng.randrange(1, 10**6) / 1e6 * 10 ** rng.randrange(-3, 8)
        return from_bits(bits(x) + rng.randrange(-1, 2))
    if k == 6:  # integers around 2^53 and the 1e16 / 1e-4 notation switches
        return float(rng.choice([2**53 + rng.randrange(-5, 6), 10**16 + rng.randrange(-5, 6) * 2, 1e-4, 1e16, 9999999999999998.0]))
    # uniform exponent
    return from_bits((rng.randrange(1, 2047) << 52) | rng.getrandbits(52))


def decode(x: float) -> tuple[int, int]:
    """x = m * 2**e exactly, for finite x >= 0."""
    b = bits(x)
    biased, frac = (b >> 52) & 0x7FF, b & ((1 << 52) - 1)
    return (frac, -1074) if biased == 0 else (frac | (1 << 52), biased - 1075)


def digits_of(n: int, q: int) -> tuple[str, int]:
    """Digits (no leading or trailing zeros) and exponent E with n * 2**q = int(digits) * 10**E."""
    s, e = (str(n << q), 0) if q >= 0 else (str(n * 5**-q), q)
    t = s.rstrip("0") or "0"
    return t, e + len(s) - len(t)


def exact_digits(d: Decimal) -> tuple[str, int]:
    """Digits and exponent of a (short) Decimal."""
    t = d.as_tuple()
    digits = "".join(map(str, t.digits)).lstrip("0") or "0"
    stripped = digits.rstrip("0") or "0"
    return stripped, t.exponent + len(digits) - len(stripped)


def halfway(x: float) -> tuple[str, int]:
    """The exact midpoint between x and the next double up (above the largest
    double: half its gap to 2**1024, which rounds to infinity)."""
    m, e = decode(x)
    return digits_of(2 * m + 1, e - 1)


# ---------------------------------------------------------------- spellings


def random_digits(rng: random.Random, n: int) -> str:
    """n random digits, the first not 0."""
    if n <= 1:
        return str(rng.randrange(1, 10))
    return str(rng.randrange(1, 10)) + str(rng.getrandbits(4 * n) % 10 ** (n - 1)).zfill(n - 1)


LARGE_EXP = [False]  # --large-exp: half of all mantissas from large_exponent_mantissa


def large_exponent_mantissa(rng: random.Random) -> tuple[str, int]:
    """Eisel-Lemire's hard cases: doubles of any exponent (subnormals too) as
    repr digits, their halfway points cut to 16..40 digits (just below, and
    with the last kept digit raised: just above), the exact halfway point
    with or without a far tail, its first 19 digits with a short random tail
    (so w and w + 1 straddle it), and short random mantissas at every scale."""
    while True:
        x = from_bits((rng.randrange(0, 2047) << 52) | rng.getrandbits(52))
        if x > 0:
            break
    j = rng.randrange(5)
    if j == 0:
        return exact_digits(Decimal(repr(x)))
    if j == 3:
        n = rng.randrange(1, 20)
        return random_digits(rng, n), rng.randrange(-345 - n, 311 - n)
    d, e = halfway(x)
    if j == 1:
        c = min(len(d), rng.randrange(16, 41))
        cut, e2 = d[:c], e + len(d) - c
        if rng.randrange(2):
            cut = str(int(cut) + 1)  # above the halfway point (may gain a digit: same value)
        return cut, e2
    if j == 2:
        if rng.randrange(2):
            z = rng.randrange(0, 40)
            return d + "0" * z + "1", e - z - 1
        return d, e
    head = d[:19].ljust(19, "0")
    tail = random_digits(rng, rng.randrange(1, 12))
    return head + tail, e + len(d) - 19 - len(tail)


def mantissa(rng: random.Random) -> tuple[str, int]:
    """Significant digits D and exponent E (value D * 10**E) of an adversarial value."""
    if LARGE_EXP[0] and rng.randrange(2):
        return large_exponent_mantissa(rng)
    k = rng.randrange(14)
    if k >= 12:
        return large_exponent_mantissa(rng)
    x = random_double(rng)
    if k <= 2:  # halfway points, exactly, just above, just below (past 800 digits too)
        d, e = halfway(x)
        z = rng.choice([0, 0, rng.randrange(1, 40), rng.randrange(700, 1300)])
        m = rng.randrange(3)
        if m == 0:
            return d + "0" * z, e - z
        if m == 1:
            return d + "0" * z + "1", e - z - 1
        if d[-1] == "0":
            return d + "0" * z, e - z
        return d[:-1] + str(int(d[-1]) - 1) + "9" * (z + 1), e - z - 1
    if k == 3:  # the exact value of a double, with or without a tail
        d, e = digits_of(*decode(x))
        if rng.randrange(2):
            tail = "0" * rng.randrange(0, 900) + rng.choice(["1", "5", "9", "49999", "50001"])
            return d + tail, e - len(tail)
        return d, e
    if k == 4:  # repr digits with a long tail (digits past the 800th matter only as a sticky bit)
        r = repr(x)
        d, e = exact_digits(Decimal(r))
        tail = "0" * rng.randrange(0, 1200) + random_digits(rng, rng.randrange(1, 30))
        return d + tail, e - len(tail)
    if k == 5:  # long random mantissas, any magnitude
        n = rng.choice([rng.randrange(18, 40), rng.randrange(40, 800), rng.randrange(780, 830), rng.randrange(800, 2500)])
        return random_digits(rng, n), rng.randrange(-330 - n, 310 - n)
    if k == 6:  # short mantissas, exponents of every size
        d = random_digits(rng, rng.randrange(1, 20))
        mag = rng.choice([rng.randrange(0, 30), rng.randrange(300, 345), 10 ** rng.randrange(3, 25)])
        return d, rng.choice([-1, 1]) * mag
    if k == 7:  # the subnormal and overflow edges, spelled with up to 40 digits
        edge = rng.choice(["2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324", "1.797693134862315807937289714053e308", "1.7976931348623158e308", "4.9406564584124654e-324", "2.2250738585072011e-308", "2.2250738585072014e-308"])
        d, e = exact_digits(Decimal(edge))
        cut = rng.randrange(1, min(len(d), 40) + 1)
        d = d[:cut].rstrip("0") or "1"
        return d, e + (len(exact_digits(Decimal(edge))[0]) - len(d))
    if k == 8:  # runs of zeros inside the mantissa
        a, b = random_digits(rng, rng.randrange(1, 8)), random_digits(rng, rng.randrange(1, 8))
        d = a + "0" * rng.randrange(1, 1500) + b
        return d, rng.randrange(-340 - len(d), 300 - len(d)) if rng.randrange(2) else -len(d) + rng.randrange(0, 3)
    if k == 9:  # repr and %.Ne of a double
        s = repr(x) if rng.randrange(2) else f"{x:.{rng.randrange(0, 60)}e}"
        return exact_digits(Decimal(s))
    if k == 10:  # near 1 and the scorer's range with long tails: 0.7 + zeros + 1
        head = rng.choice(["7", "872751", "5", "1", "999999", "309285", "3092845"])
        z = rng.randrange(0, 1200)
        return head + "0" * z + "1", -(len(head) + z + 1) + rng.randrange(0, 2)
    # an integer value, maybe huge
    d = random_digits(rng, rng.randrange(1, 330))
    return d, 0


def spell(rng: random.Random, d: str, e: int, json_form: bool) -> str:
    """One spelling of int(d) * 10**e (d without leading zeros)."""
    n = len(d)
    style = rng.randrange(6)
    if style == 0 or abs(e) > 2000:  # scientific, point after the first digit
        body = d[0] + ("." + d[1:] if n > 1 else "")
        ee = e + n - 1
    elif style == 1 and not json_form:  # all digits then the exponent
        body, ee = d, e
    elif style <= 3 and -2000 <= e <= 0:  # fixed notation
        if -e >= n:
            body = "0." + "0" * (-e - n) + d
        elif e == 0:
            body = d
        else:
            body = d[: n + e] + "." + d[n + e :]
        ee = None
    else:  # point somewhere, exponent adjusted
        p = rng.randrange(1, n + 1)
        body = d[:p] + ("." + d[p:] if p < n else "")
        ee = e + n - p
    if json_form and body.endswith("."):
        body = body[:-1]
    if not json_form and rng.randrange(8) == 0:
        body = "0" * rng.randrange(1, 5) + body
    if ee is None and rng.randrange(4) == 0:
        ee = 0
    if ee is not None:
        exp = str(abs(ee))
        if rng.randrange(6) == 0:
            exp = "0" * rng.randrange(1, 4) + exp
        sign = "-" if ee < 0 else rng.choice(["", "+"])
        body += rng.choice("eE") + sign + exp
    if rng.randrange(3) == 0:
        body = "-" + body
    elif not json_form and rng.randrange(6) == 0:
        body = "+" + body
    return body


DIGIT_ZEROS = [0x660, 0x6F0, 0x966, 0xFF10, 0x1D7CE, 0xE50]  # Arabic-Indic, ..., fullwidth, math bold, Thai


def float_spelling(rng: random.Random) -> str:
    k = rng.randrange(40)
    if k == 0:
        return rng.choice(["nan", "NaN", "-nan", "+inf", "-Infinity", "iNfInItY", "infinit", "in f", "nan1", "", " ", ".", "e5", "1e", "1e+", "-", "+.e1", "0x10", "1.2.3", "1e5.0", "١٢", "1 2"])
    d, e = mantissa(rng)
    s = spell(rng, d, e, json_form=False)
    if k <= 6:  # underscores between digits (valid) and misplaced ones (ValueError)
        cuts = sorted({rng.randrange(1, len(s)) for _ in range(rng.randrange(1, 12))}) if len(s) > 1 else []
        parts, last = [], 0
        for i in cuts:
            if s[i - 1].isdigit() and s[i].isdigit():
                parts.append(s[last:i])
                last = i
        parts.append(s[last:])
        s = "_".join(parts)
        if k == 6 and len(s) > 1:
            i = rng.randrange(len(s) + 1)
            s = s[:i] + rng.choice(["_", "__"]) + s[i:]
    elif k <= 8:  # whitespace (C isspace is stripped; U+001C..001F are not) and non-ASCII spaces
        ws = [" ", "\t", "\x0b", "\x0c", "\r", "\u3000", "\xa0", "\u2003", "\x1c", "\x85"]
        s = "".join(rng.choice(ws) for _ in range(rng.randrange(3))) + s + "".join(rng.choice(ws) for _ in range(rng.randrange(3)))
    elif k == 9:  # non-ASCII decimal digits
        z = rng.choice(DIGIT_ZEROS)
        s = s.translate({ord("0") + i: z + i for i in range(10) if rng.randrange(2)})
    return s


def json_spelling(rng: random.Random) -> str:
    k = rng.randrange(40)
    if k == 0:
        return rng.choice(["NaN", "Infinity", "-Infinity", "01", "-", "1.", ".5", "1e", "+1", "1e+", "-0", "0", "-0.0", "1E400", "-1e-400", " 1.5 ", "[1.0,2]"])
    if k == 1:  # integers (4300 digits is CPython's limit for int(str))
        n = rng.choice([rng.randrange(1, 25), rng.randrange(25, 400), rng.randrange(4295, 4305)])
        return rng.choice(["", "-"]) + random_digits(rng, n)
    d, e = mantissa(rng)
    s = spell(rng, d, e, json_form=True)
    if "." not in s and "e" not in s and "E" not in s:
        s += ".0"  # keep it a float: ints are the case above
    return s


def repr_input(rng: random.Random) -> float:
    k = rng.randrange(10)
    if k == 0:
        return rng.choice([0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, 1.7976931348623157e308, 0.1, 1e16, 1e-4, 1e-5])
    x = random_double(rng)
    return -x if rng.randrange(2) else x


def exp_input(rng: random.Random) -> float:
    """x for exp: mostly the freshness argument -ln2 * age_days / 90."""
    k = rng.randrange(10)
    if k <= 3:  # ages from a microsecond to 300+ years, log-uniform
        micros = int(10 ** rng.uniform(0, 16))
    elif k <= 6:  # ages whose freshness lies near a 6-place rounding boundary
        boundary = (rng.randrange(0, 10**6) + 0.5) / 1e6
        days = -90.0 * math.log2(boundary)
        micros = max(0, round(days * 86400e6) + rng.randrange(-200, 201))
    else:
        micros = None
    if micros is not None:
        age_days = max(0.0, (micros / 10**6) / 86400)
        return -math.log(2) * age_days / 90.0
    if k == 7:  # anywhere exp is finite and not 0, and beyond
        return rng.uniform(-746.0, 710.0)
    if k == 8:  # the special-case ranges (overflow side, subnormal results) and tiny x
        return rng.choice([rng.uniform(-746, -700), rng.uniform(700, 710), rng.uniform(-1, 1) * 2.0 ** rng.randrange(-70, -40), rng.uniform(-1024, 1024)])
    while True:  # any bit pattern
        x = from_bits(rng.getrandbits(64))
        if not math.isnan(x):
            return x


# ---------------------------------------------------------------- the runs


def expected(kind: str, v):
    if kind == "float":
        try:
            return f"{bits(float(v)):x}"
        except ValueError:
            return "ValueError"
    if kind == "json":
        sys.set_int_max_str_digits(4300)  # CPython's default, which json.loads applies
        try:
            return json.dumps(json.loads(v), separators=(",", ":"), sort_keys=True)
        except ValueError:
            return "error"
        finally:
            sys.set_int_max_str_digits(0)
    if kind == "repr":
        return repr(v)
    try:
        y = math.exp(v)
    except OverflowError:
        y = math.inf
    return "nan" if math.isnan(y) else f"{bits(y):x}"


def line_of(kind: str, v) -> str:
    return f"{bits(v):x}" if kind in ("repr", "exp") else v


def run_kind(kind: str, count: int, seed: int, binary: str, chunk: int, mode: str) -> tuple[int, list]:
    gen = {"float": float_spelling, "json": json_spelling, "repr": repr_input, "exp": exp_input}[kind]
    bad, done, chunk_no = [], 0, 0
    while done < count:
        n = min(chunk, count - done)
        rng = random.Random(f"{seed}:{kind}:{chunk_no}")
        inputs = [gen(rng) for _ in range(n)]
        want = [expected(kind, v) for v in inputs]
        text = "".join(line_of(kind, v) + "\n" for v in inputs)
        out = subprocess.run([binary, mode], input=text.encode("utf-8", "surrogatepass"), stdout=subprocess.PIPE, check=True).stdout
        got = out.decode().split("\n")[:-1]
        if len(got) != n:
            raise SystemExit(f"{kind}: {len(got)} answers for {n} inputs")
        for v, w, g in zip(inputs, want, got):
            if kind == "exp" and g != "nan" and math.isnan(from_bits(int(g, 16))):
                g = "nan"
            if w != g:
                bad.append((v, w, g))
        done += n
        chunk_no += 1
    return done, bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=DEFAULT_BIN)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--ci", action="store_true", help=f"the CI sizes {CI_SIZES}")
    ap.add_argument("--chunk", type=int, default=50_000)
    ap.add_argument("--large-exp", action="store_true", help="half of the float/json spellings from Eisel-Lemire's hard cases")
    ap.add_argument("--exp-mode", default="exp", help="numbers_diff mode for exp (stdexp: Rust's f64::exp)")
    for kind in CI_SIZES:
        ap.add_argument(f"--{kind}", type=int, default=0)
    a = ap.parse_args()
    if sys.version_info[:2] != (3, 12) or sys.implementation.name != "cpython":
        print(f"numbers_diff: needs CPython 3.12, this is {sys.version.split()[0]}", file=sys.stderr)
        return 2
    sizes = {k: getattr(a, k) for k in CI_SIZES}
    if a.ci:
        sizes = {k: sizes[k] or v for k, v in CI_SIZES.items()}
    LARGE_EXP[0] = a.large_exp
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(6), "big")
    print(f"numbers_diff seed: {seed} (reproduce: --seed {seed})", flush=True)
    failed = 0
    for kind, count in sizes.items():
        if count <= 0:
            continue
        t0 = time.time()
        mode = a.exp_mode if kind == "exp" else kind
        done, bad = run_kind(kind, count, seed, a.bin, a.chunk, mode)
        print(f"{kind:5} {done:>11,} inputs, {len(bad):,} differ from CPython  ({time.time() - t0:.1f} s)", flush=True)
        for v, w, g in bad[:10]:
            shown = v if len(str(v)) < 200 else f"{str(v)[:90]}...({len(str(v))} chars)...{str(v)[-60:]}"
            print(f"   {kind}({shown!r}{'' if not isinstance(v, float) else ' = 0x' + format(bits(v), 'x')}): CPython {w[:120]}, crate {g[:120]}")
        failed += len(bad)
    print(f"{'all equal' if failed == 0 else f'{failed} differences'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
