//! JSON pointers (RFC 6901), built one reference token at a time.
//!
//! Every [`Error`](crate::Error)'s `path` and every verification check's
//! pointer is one: `""` for the whole document, `/metadata/a~1b/0` for the
//! first item of the member `a/b` of `metadata`. A member name is escaped
//! (`~` as `~0`, `/` as `~1`) so that a key holding either character still
//! names one member; an array index needs no escaping.
//!
//! Why here, with the JSON model, rather than beside [`Error`](crate::Error):
//! a pointer addresses a JSON value, and its builders are used wherever a
//! walk over a [`Value`](super::Value) or a [`Doc`](super::Doc) names a place
//! in it (the input caps, the receipt checks, the score input reader, the
//! JS binding's value conversion), most of them without making an error.
//! `Error` only carries the result.
//!
//! Pointers are plain `String`s (the type of `Error::path`): [`push`] and
//! [`push_index`] extend one in place (a walk that truncates back to its
//! base after each child), [`join`] and [`join_index`] make a new one.

use std::borrow::Cow;

/// Append the reference token `token` (a member name), escaped: `/` + `token`
/// with `~` written `~0` and `/` written `~1`.
#[inline(never)] // one copy: the callers are many and cold (size-first, see Cargo.toml)
pub fn push(pointer: &mut String, token: &str) {
    pointer.push('/');
    push_escaped(pointer, token);
}

/// Append an array index: `/` + its decimal digits.
#[inline(never)] // one copy: the callers are many and cold (size-first, see Cargo.toml)
pub fn push_index(pointer: &mut String, index: usize) {
    use std::fmt::Write;
    pointer.push('/');
    // Writing to a String cannot fail.
    let _ = write!(pointer, "{index}");
}

/// `base` followed by the escaped member name `token` (see [`push`]).
#[inline(never)] // one copy: the callers are many and cold (size-first, see Cargo.toml)
pub fn join(base: &str, token: &str) -> String {
    let mut p = String::with_capacity(base.len() + token.len() + 1);
    p.push_str(base);
    push(&mut p, token);
    p
}

/// `base` followed by the array index `index` (see [`push_index`]).
#[inline(never)] // one copy: the callers are many and cold (size-first, see Cargo.toml)
pub fn join_index(base: &str, index: usize) -> String {
    let mut p = String::with_capacity(base.len() + 8);
    p.push_str(base);
    push_index(&mut p, index);
    p
}

/// The reference token for the member name `token`: `~` as `~0`, `/` as
/// `~1`; borrowed when it holds neither.
pub fn escape(token: &str) -> Cow<'_, str> {
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        return Cow::Borrowed(token);
    }
    let mut out = String::with_capacity(token.len() + 2);
    push_escaped(&mut out, token);
    Cow::Owned(out)
}

fn push_escaped(out: &mut String, token: &str) {
    let mut rest = token;
    while let Some(at) = rest.bytes().position(|b| b == b'~' || b == b'/') {
        out.push_str(&rest[..at]);
        out.push_str(if rest.as_bytes()[at] == b'~' { "~0" } else { "~1" });
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_names_are_escaped() {
        assert_eq!(join("", "a"), "/a");
        assert_eq!(join("/metadata", "a/b"), "/metadata/a~1b");
        assert_eq!(join("", "m~n"), "/m~0n");
        // `~` first: `~1` in a name is the two characters `~`, `1`, not a `/`.
        assert_eq!(join("", "~1"), "/~01");
        assert_eq!(join("", "/~/"), "/~1~0~1");
        assert_eq!(join("", ""), "/");
        assert_eq!(join("/x", "é/ü"), "/x/é~1ü");
    }

    #[test]
    fn indexes_are_digits() {
        assert_eq!(join_index("/results", 0), "/results/0");
        assert_eq!(join_index("", 1234567), "/1234567");
        assert_eq!(join_index("", usize::MAX), format!("/{}", usize::MAX));
    }

    #[test]
    fn push_extends_in_place() {
        let mut p = String::from("/given");
        push(&mut p, "neighbor/contents");
        push_index(&mut p, 3);
        assert_eq!(p, "/given/neighbor~1contents/3");
    }

    #[test]
    fn escape_borrows_plain_names() {
        assert!(matches!(escape("content"), Cow::Borrowed("content")));
        assert_eq!(escape("a~/b"), "a~0~1b");
    }
}
