//! The float module's unit tests (each against Rust core or exact arithmetic).

use super::*;

#[test]
fn short_fixed_is_general_on_rounded_scores() {
    // Every 6-place value in [0, 1] and its neighbours after round6 (what
    // the batch's compact columns print), plus edge cases.
    let check = |v: f64| {
        let (mut a, mut b) = (String::new(), String::new());
        write_repr(v, &mut a);
        if v.is_finite() && v != 0.0 {
            write_repr_general(v, &mut b);
        } else {
            b = a.clone();
        }
        assert_eq!(a, b, "{v:e}");
    };
    for k in 0..=1_000_000u32 {
        let v = k as f64 / 1e6;
        check(v);
        check(round6(v + 3e-7));
        check(round6(v - 4e-7));
    }
    for v in [-0.0, 1e-5, 5e-5, 0.1 + 0.2, 1.0 - 1e-12, 1.5, 2.0, -0.5, f64::NAN, f64::INFINITY, 1e-300] {
        check(v);
    }
}

/// The previous implementation (Rust's `{:e}` shortest digits with the
/// even-tie fix, `{:.6}`, `{:.0}`), kept here as the oracle of the
/// table-free exact arithmetic that replaced it.
mod formatted {
    pub fn repr(x: f64) -> String {
        let sci = format!("{:e}", x.abs());
        let (mantissa, exp) = sci.split_once('e').unwrap();
        let exp: i32 = exp.parse().unwrap();
        let mut digits: String = mantissa.chars().filter(|c| *c != '.').collect();
        if let Some(even) = tie_to_even(x.abs(), &digits, exp) {
            digits = even;
        }
        let n = digits.len() as i32;
        let decpt = exp + 1;
        let mut out = String::new();
        if x < 0.0 {
            out.push('-');
        }
        if -4 < decpt && decpt <= 16 {
            if decpt <= 0 {
                out.push_str("0.");
                out.push_str(&"0".repeat((-decpt) as usize));
                out.push_str(&digits);
            } else if decpt < n {
                out.push_str(&digits[..decpt as usize]);
                out.push('.');
                out.push_str(&digits[decpt as usize..]);
            } else {
                out.push_str(&digits);
                out.push_str(&"0".repeat((decpt - n) as usize));
                out.push_str(".0");
            }
        } else {
            out.push_str(&digits[..1]);
            if n > 1 {
                out.push('.');
                out.push_str(&digits[1..]);
            }
            out.push_str(&format!("e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs()));
        }
        out
    }

    fn tie_to_even(x: f64, digits: &str, exp: i32) -> Option<String> {
        let n = digits.len();
        if n == 0 || n > 17 || digits.as_bytes()[n - 1] % 2 == 0 {
            return None;
        }
        let d: u64 = digits.parse().ok()?;
        let q = exp - n as i32 + 1;
        let (m, e) = super::decode(x);
        fn split(mut v: u64) -> (u64, i32, i32) {
            let (mut twos, mut fives) = (0, 0);
            while v != 0 && v % 2 == 0 {
                v /= 2;
                twos += 1;
            }
            while v != 0 && v % 5 == 0 {
                v /= 5;
                fives += 1;
            }
            (v, twos, fives)
        }
        let (m1, a1, b1) = split(m);
        for (twice, alt) in [(2 * d - 1, d - 1), (2 * d + 1, d + 1)] {
            let (r1, a2, b2) = split(twice);
            if m1 == r1 && a1 + e + 1 == a2 + q && b1 == b2 + q {
                let alt_s = alt.to_string();
                if alt_s.len() != n || alt_s.ends_with('0') {
                    continue;
                }
                let back: f64 = format!("{alt_s}e{q}").parse().ok()?;
                if back == x {
                    return Some(alt_s);
                }
            }
        }
        None
    }

    pub fn round6(x: f64) -> f64 {
        let r: f64 = format!("{:.6}", x).parse().unwrap_or(x);
        if r == 0.0 {
            return if x.is_sign_negative() { -0.0 } else { 0.0 };
        }
        r
    }

    pub fn int_str(x: f64) -> String {
        let s = format!("{:.0}", x);
        if s == "-0" {
            "0".to_string()
        } else {
            s
        }
    }
}

#[test]
fn exact_arithmetic_matches_rust_formatting() {
    let check = |x: f64| {
        if !x.is_finite() {
            assert_eq!(RustDisplay(x).to_string(), format!("{x}"));
            return;
        }
        if x != 0.0 {
            let mut got = String::new();
            write_repr_general(x, &mut got);
            assert_eq!(got, formatted::repr(x), "repr of {:#x}", x.to_bits());
        }
        let (a, b) = (round6_exact(x), formatted::round6(x));
        assert!(a == b && a.is_sign_negative() == b.is_sign_negative(), "round6 of {:#x}: {a:e} vs {b:e}", x.to_bits());
        assert_eq!(RustDisplay(x).to_string(), format!("{x}"), "display of {:#x}", x.to_bits());
        if x.fract() == 0.0 {
            assert_eq!(int_str(x), formatted::int_str(x), "int of {:#x}", x.to_bits());
        }
    };
    // Random bit patterns (every exponent, subnormals included).
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..400_000 {
        check(f64::from_bits(next()));
    }
    // Powers of two (the asymmetric gap), their neighbours, subnormal edges.
    for b in 0..2047u64 {
        for d in [-2i64, -1, 0, 1, 2] {
            let bits = (b << 52) as i64 + d;
            if bits > 0 {
                check(f64::from_bits(bits as u64));
                check(-f64::from_bits(bits as u64));
            }
        }
    }
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0] {
        check(x);
    }
    for bits in [1u64, 2, 3, (1 << 52) - 1, 1 << 52, (1 << 52) + 1, 0x7FEF_FFFF_FFFF_FFFF] {
        check(f64::from_bits(bits));
    }
    // Short decimals and their neighbours (ties, round-trip edges), and
    // exact halves of the sixth decimal place.
    for _ in 0..200_000 {
        let r = next();
        let digits = (r % 100_000_000) as f64;
        let exp = ((r >> 32) % 60) as i32 - 30;
        let x = digits * 10f64.powi(exp);
        check(x);
        check(f64::from_bits(x.to_bits() + 1));
        check(f64::from_bits(x.to_bits().saturating_sub(1)));
        let half = ((r >> 8) % 10_000_000) as f64 + 0.5;
        check(half / 1e6);
        check((r % (1 << 40)) as f64 / (1u64 << 41) as f64);
    }
    check(-1250457562980053.2);
    check(1250457562980053.2);
    check(1e23);
    check(9007199254740993.0);
}

#[test]
fn shortest_fast_is_shortest_exact() {
    let mut state = 0xD1B5_4A32_D192_ED03u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut fast, mut total) = (0, 0);
    let mut check = |x: f64| {
        let (m, e) = decode(x);
        for ties_even in [true, false] {
            total += 1;
            if let Some(got) = shortest_fast(m, e, ties_even) {
                fast += 1;
                let want = shortest_exact(m, e, ties_even);
                // The same decimal: equal after stripping trailing zeros.
                let norm = |(mut r, mut pos): (u64, i32)| {
                    while r != 0 && r % 10 == 0 {
                        r /= 10;
                        pos += 1;
                    }
                    (r, pos)
                };
                assert_eq!(norm(got), norm(want), "{x:e} ties_even={ties_even}");
            }
        }
    };
    for _ in 0..300_000 {
        // Random doubles across the fast range (and a little beyond it).
        let exp = 1023 - 25 + next() % 80;
        check(f64::from_bits((exp << 52) | (next() & ((1 << 52) - 1))));
        check(f64::from_bits(next() & !(1 << 63)).abs().min(f64::MAX));
    }
    // Short decimals, integers, their neighbours, and halfway-ish values.
    for i in 1..200_000u64 {
        for x in [i as f64, i as f64 / 1e3, i as f64 / 1e6, i as f64 * 1e9, 1.0 / i as f64, i as f64 + 0.5] {
            check(x);
            check(f64::from_bits(x.to_bits() + 1));
            check(f64::from_bits(x.to_bits() - 1));
        }
    }
    assert!(fast > total / 3, "the fast path ran for only {fast} of {total}");
}

#[test]
fn short_mantissas_are_rusts_parser() {
    // Up to 19 significant digits at the scales just past Clinger's fast
    // path (Eisel-Lemire's exact-product range), with and without a point.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..400_000 {
        let r = next();
        let n = 1 + (r % 19) as u32;
        let digits = (next() % 10u64.pow(n)).max(1);
        let e = (next() % 60) as i64 - 35;
        for t in [format!("{digits}e{e}"), format!("0.{digits:0>19}e{e}"), format!("{digits}.5e{e}")] {
            assert_eq!(parse_f64(&t).map(f64::to_bits), t.parse::<f64>().ok().map(f64::to_bits), "{t}");
        }
    }
}

#[test]
fn parse_f64_is_rusts_parser() {
    let check = |t: &str| {
        let want = t.parse::<f64>().ok();
        let got = parse_f64(t);
        assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{t}");
        // The exact path alone, which the faster paths now mostly spare.
        assert_eq!(read_decimal(t, false).map(f64::to_bits), want.map(f64::to_bits), "exact path: {t}");
    };
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // Every double's repr, general and short, and its neighbours' halfway points.
    for _ in 0..60_000 {
        let x = f64::from_bits(next() & !(1 << 63));
        if !x.is_finite() {
            continue;
        }
        check(&repr(x));
        check(&format!("{x:e}"));
        check(&format!("{:.17e}", x));
        check(&format!("{:.25e}", x));
        // The exact halfway point to the next double up, and just around it.
        if f64::from_bits(x.to_bits() + 1).is_finite() {
            let (m, e) = decode(x);
            let h = ExactDec::of(2 * m + 1, e - 1);
            let ds: String = h.d.iter().map(|d| (b'0' + d) as char).collect();
            let base = format!("0.{ds}e{}", h.dp);
            check(&base);
            check(&format!("0.{ds}1e{}", h.dp));
            let mut lower = h.d.clone();
            let last = lower.len() - 1;
            lower[last] -= 1;
            let ls: String = lower.iter().map(|d| (b'0' + d) as char).collect();
            check(&format!("0.{ls}9999e{}", h.dp));
        }
    }
    // Random literals of the grammar's alphabet (and some of its errors).
    let alphabet = b"0123456789012345678900.eE+-";
    for _ in 0..300_000 {
        let r = next();
        let len = 1 + (r % 30) as usize;
        let t: String =
            (0..len).map(|k| alphabet[((r >> (k * 2 % 60)) as usize + k * 7) % alphabet.len()] as char).collect();
        check(&t);
    }
    for t in [
        "0",
        "-0",
        "+0",
        "0.0",
        "1",
        "1.",
        ".5",
        "-.5",
        "1e5",
        "1E+5",
        "1e-5",
        "1e",
        "1e+",
        ".",
        "",
        "-",
        "e5",
        "1e400",
        "-1e400",
        "1e-400",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "4.9406564584124654e-324",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "9007199254740993",
        "9007199254740992.5",
        "123456789012345678901234567890",
        "0.000000000000000000000000000001e30",
        "1e99999999999999999999",
        "1e-99999999999999999999",
        "00000001.5000000000000000000000000000000001",
    ] {
        check(t);
    }
    let long = format!("0.{}1e-300", "0".repeat(2000));
    check(&long);
    let long = format!("2.{}1e-308", "2".repeat(1500));
    check(&long);
    // Halfway between the two largest doubles' neighbours, with a tail past 800 digits.
    let h = ExactDec::of(2 * ((1u64 << 53) - 1) + 1, 971 - 1);
    let ds: String = h.d.iter().map(|d| (b'0' + d) as char).collect();
    check(&format!("0.{ds}e{}", h.dp));
    let h = ExactDec::of(3, -1076);
    let ds: String = h.d.iter().map(|d| (b'0' + d) as char).collect();
    check(&format!("0.{ds}e{}", h.dp));
    check(&format!("0.{ds}{}1e{}", "0".repeat(900), h.dp));
}

/// Digits past the 800th must only nudge the value (a sticky digit at
/// the 801st place), never move the digits kept: `0.7` then 850 zeros
/// then `1` once read as 0.71 (the trailing zeros of the kept 800 digits
/// were dropped before the sticky `1` was appended). Issue #20 class 2.
#[test]
fn long_mantissas_keep_their_place() {
    for zeros in [798usize, 799, 800, 801, 850, 2000] {
        for (head, want) in [("0.7", 0.7), ("0.872751", 0.872751), ("1", 1.0), ("12345", 12345.0)] {
            let t = format!("{head}{}{}1", if head.contains('.') { "" } else { "." }, "0".repeat(zeros));
            assert_eq!(parse_f64(&t), Some(want), "{head} + {zeros} zeros + 1");
            assert_eq!(parse_py_float(&t), Some(want), "float() of {head} + {zeros} zeros + 1");
            assert_eq!(read_decimal(&t, false), Some(want), "exact path: {head} + {zeros} zeros + 1");
            let e = format!("{t}e-5");
            assert_eq!(parse_f64(&e).map(f64::to_bits), e.parse::<f64>().ok().map(f64::to_bits), "{e}");
            assert_eq!(read_decimal(&e, false).map(f64::to_bits), e.parse::<f64>().ok().map(f64::to_bits), "{e}");
        }
    }
    // A halfway point between two doubles, then zeros past the 800th
    // digit, then a 1: above the halfway point, so it rounds up (and
    // exactly halfway, without the 1, to even).
    let h = ExactDec::of(2 * (1u64 << 52) + 1, -53);
    let ds: String = h.d.iter().map(|d| (b'0' + d) as char).collect();
    for zeros in [0usize, 700, 800, 900] {
        for tail in ["", "1"] {
            let t = format!("0.{ds}{}{tail}e{}", "0".repeat(zeros), h.dp);
            assert_eq!(parse_f64(&t).map(f64::to_bits), t.parse::<f64>().ok().map(f64::to_bits), "{t}");
            assert_eq!(read_decimal(&t, false).map(f64::to_bits), t.parse::<f64>().ok().map(f64::to_bits), "{t}");
        }
    }
}

#[test]
fn repr_matches_python() {
    let cases: &[(f64, &str)] = &[
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (1.0, "1.0"),
        (0.1, "0.1"),
        (1.5, "1.5"),
        (0.0001, "0.0001"),
        (1.5e-5, "1.5e-05"),
        (1e-7, "1e-07"),
        (-1e-7, "-1e-07"),
        (1e16, "1e+16"),
        (9999999999999998.0, "9999999999999998.0"),
        (1.2345678901234568e17, "1.2345678901234568e+17"),
        (123456789.0, "123456789.0"),
        (1e22, "1e+22"),
        (1e300, "1e+300"),
        (5e-324, "5e-324"),
        (100000.0, "100000.0"),
        (0.30000000000000004, "0.30000000000000004"),
        // Exact ties between two shortest strings go to the even digit.
        // (-1250457562980053.2 parses to the double -1250457562980053.25.)
        (-1250457562980053.2, "-1250457562980053.2"),
        (f64::NAN, "nan"),
        (f64::INFINITY, "inf"),
        (f64::NEG_INFINITY, "-inf"),
    ];
    for (x, want) in cases {
        assert_eq!(repr(*x), *want, "repr({x:e})");
    }
}

#[test]
fn round6_is_python_round() {
    assert_eq!(round6(1.0 / 128.0), 0.007812);
    assert_eq!(round6(127.0 / 128.0), 0.992188);
    assert_eq!(round6(5e-7), 0.0);
    assert_eq!(round6(0.9999995), 1.0);
    assert_eq!(round6(0.6154), 0.6154);
    assert_eq!(round6(2.0 / 3.0), 0.666667);
    assert!(round6(-1e-9).is_sign_negative());
}

#[test]
fn sum_is_cpython_312_neumaier() {
    // Spec `scoring-admission.md` §6.3: compensated summation can differ from left-to-right.
    let xs = [0.1, 0.2, 0.3];
    let naive: f64 = xs.iter().sum();
    assert_eq!(naive, 0.6000000000000001);
    assert_eq!(sum_py312(&xs), 0.6);
    assert_eq!(sum_py312(&[1e100, 1.0, -1e100]), 1.0);
    assert_eq!(sum_py312(&[0.5]), 0.5);
}

#[test]
fn float_parsing_is_lenient_like_python() {
    assert_eq!(parse_py_float("1e-1"), Some(0.1));
    assert_eq!(parse_py_float(" 0.9 "), Some(0.9));
    assert_eq!(parse_py_float("1_0"), Some(10.0));
    assert_eq!(parse_py_float("1__0"), None);
    assert_eq!(parse_py_float("_1"), None);
    assert_eq!(parse_py_float("1_"), None);
    assert_eq!(parse_py_float("1_.5"), None);
    assert_eq!(parse_py_float("\u{FF10}.\u{FF15}"), Some(0.5));
    assert_eq!(parse_py_float("\u{0661}.\u{0665}"), Some(1.5));
    assert_eq!(parse_py_float(".5"), Some(0.5));
    assert_eq!(parse_py_float("5."), Some(5.0));
    assert_eq!(parse_py_float("."), None);
    assert_eq!(parse_py_float("abc"), None);
    assert_eq!(parse_py_float(""), None);
    assert!(parse_py_float("-NaN").unwrap().is_nan());
    assert_eq!(parse_py_float("+Infinity"), Some(f64::INFINITY));
    assert_eq!(parse_py_float("-inf"), Some(f64::NEG_INFINITY));
    assert_eq!(parse_py_float("infinit"), None);
    // CPython strips only C-isspace ASCII: U+001C-001F make float() raise (oracle finding).
    assert_eq!(parse_py_float("\x1c1\x1f"), None);
    assert_eq!(parse_py_float("\x1f0.7"), None);
    assert_eq!(parse_py_float("0.7\x1c"), None);
    assert_eq!(parse_py_float("\t\n\x0b\x0c\r 0.7 \u{85}\u{a0}\u{3000}"), Some(0.7));
    assert_eq!(parse_py_float("1e5_0"), Some(1e50));
    assert_eq!(parse_py_float("0x10"), None);
}

#[test]
fn clamp_has_python_tie_semantics() {
    assert!(clamp01(-0.0).is_sign_positive());
    assert_eq!(clamp01(f64::INFINITY), 0.0);
    assert_eq!(clamp01(f64::NAN), 0.0);
    assert_eq!(clamp01(1.5), 1.0);
    assert_eq!(clamp01(0.25), 0.25);
}
