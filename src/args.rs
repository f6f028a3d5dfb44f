//! Readers for the members of a keyword-argument object (`{"content": ...,
//! "source": ...}`), each error a typed [`Error`] at the member's JSON
//! pointer. They sit at the bottom of the crate, next to the primitives
//! (they use only [`crate::json`] and [`crate::error`]), so the rules'
//! `from_json` readers ([`crate::admission::review::ReviewItem::from_json`]),
//! the JSON façade ([`crate::api`]) and the binding read arguments the same
//! way without calling upward. (Not in `lians-score-core`: these readers
//! fix this crate's argument conventions, e.g. a present `null` is absent,
//! strings are read lossily, not the data model's.)

use crate::json::Value;
use crate::{Error, ErrorCode, Result};

/// A required string member, read lossily (a lone surrogate becomes
/// U+FFFD): `missing_field` when absent, `wrong_type` when not a string.
pub fn required_str(v: Option<&Value>, path: &str) -> Result<String> {
    match v {
        Some(Value::Str(s)) => Ok(s.to_str_lossy().into_owned()),
        Some(other) => Err(Error::wrong_type(path, "a string", other.type_name())),
        None => {
            Err(Error::new(ErrorCode::MissingField, path, format!("`{}` is required", path.trim_start_matches('/'))))
        }
    }
}

/// An optional string member: absent or `null` is `None`; otherwise as
/// [`required_str`].
pub fn optional_str(v: Option<&Value>, path: &str) -> Result<Option<String>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        other => required_str(other, path).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_null_wrong_type() {
        assert_eq!(optional_str(None, "/a").unwrap(), None);
        assert_eq!(optional_str(Some(&Value::Null), "/a").unwrap(), None);
        assert_eq!(optional_str(Some(&Value::str("x")), "/a").unwrap().as_deref(), Some("x"));
        let e = optional_str(Some(&Value::Bool(true)), "/a").unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (ErrorCode::WrongType, "/a"));
        let e = required_str(None, "/content").unwrap_err();
        assert_eq!((e.code, e.message.as_str()), (ErrorCode::MissingField, "`content` is required"));
    }
}
