//! PLACEHOLDER: replaced by generated Unicode 15.0 tables (see scripts/).
//! The API below is fixed; implementations here are approximations.

/// Python `c.isalnum()` (Unicode 15.0): L*, Nd, No, Nl, or any Numeric_Type.
pub fn is_alnum(c: char) -> bool {
    c.is_alphanumeric()
}

/// A Python `re` word char: `isalnum()` or `_`.
pub fn is_py_word(c: char) -> bool {
    c == '_' || is_alnum(c)
}

/// The digit value of a General_Category Nd char (`str.isdecimal()`).
pub fn decimal_value(c: char) -> Option<u8> {
    c.to_digit(10).map(|d| d as u8)
}

/// Python `str.isdecimal()` for one char.
pub fn is_decimal(c: char) -> bool {
    decimal_value(c).is_some()
}

/// Python `str.isspace()` for one char: exactly 29 chars.
pub fn is_py_space(c: char) -> bool {
    matches!(c, '\t'..='\r' | '\x1c'..='\x1f' | ' ' | '\u{85}' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}')
}

/// Python `s.strip()`.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// Append Python `s.casefold()` to `out`.
pub fn casefold_into(s: &str, out: &mut String) {
    for c in s.chars() {
        out.extend(c.to_lowercase());
    }
}

/// Python `s.casefold()`.
pub fn casefold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    casefold_into(s, &mut out);
    out
}

/// Python `s.lower()` (full lowercase mapping with Final_Sigma).
pub fn lower(s: &str) -> String {
    s.to_lowercase()
}

/// Tokenizer unsegmented-script ranges (spec §3.4).
pub fn is_unsegmented(c: char) -> bool {
    matches!(c as u32, 0x0E00..=0x0EFF | 0x1000..=0x109F | 0x1780..=0x17FF | 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}
