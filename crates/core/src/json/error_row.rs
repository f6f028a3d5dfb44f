//! [`Error`] as a JSON row: the one printer of an error for the CLI, the
//! batch's JSON Lines and compact rows, and the wasm batch's `errors`.
//!
//! Here rather than in `error.rs` so that the error type, which every module
//! returns, depends on nothing (no module cycle: tests/layering.rs).

use super::{Object, Value};
use crate::Error;

impl Error {
    /// The error as a JSON row, members in this order:
    /// `{"error": code, "message": message, "path": path}` (`path` is `""`
    /// for the whole input). What the CLI prints for an input it could not
    /// process, and a failed candidate's line in a batch's JSON Lines.
    pub fn to_json(&self) -> Value {
        Value::Object(self.row(None))
    }

    /// The row of [`Error::to_json`] for the `index`-th input of a batch, with
    /// `index` as its first member: `{"index": index, "error": code,
    /// "message": message, "path": path}` (a compact batch's `errors`).
    pub fn to_json_at(&self, index: usize) -> Value {
        Value::Object(self.row(Some(index)))
    }

    #[inline(never)]
    fn row(&self, index: Option<usize>) -> Object {
        let mut o = Object::with_capacity(4);
        if let Some(i) = index {
            o.push_unique("index", Value::int(i as i64));
        }
        o.push_unique("error", Value::str(self.code.as_str()));
        o.push_unique("message", Value::str(self.message.as_str()));
        o.push_unique("path", Value::str(self.path.as_str()));
        o
    }
}

#[cfg(test)]
mod tests {
    use crate::json::{to_json_string, Value};
    use crate::{Error, ErrorCode};

    #[test]
    fn the_row_is_code_message_path_in_order() {
        let e = Error::wrong_type("/metadata/a~1b", "a string", "int");
        assert_eq!(
            to_json_string(&e.to_json()),
            r#"{"error":"wrong_type","message":"`/metadata/a~1b` must be a string, got int","path":"/metadata/a~1b"}"#
        );
        let whole = Error::new(ErrorCode::MalformedJson, "", "Expecting value: line 1 column 1 (char 0)");
        assert_eq!(
            to_json_string(&whole.to_json()),
            r#"{"error":"malformed_json","message":"Expecting value: line 1 column 1 (char 0)","path":""}"#
        );
    }

    #[test]
    fn the_batch_row_leads_with_the_index() {
        let e = Error::new(ErrorCode::TooLarge, "/content", "a string of 9 bytes; the limit is 8 bytes");
        assert_eq!(
            to_json_string(&e.to_json_at(7)),
            r#"{"index":7,"error":"too_large","message":"a string of 9 bytes; the limit is 8 bytes","path":"/content"}"#
        );
    }

    #[test]
    fn every_code_prints_its_name() {
        // `ALL` is pinned to index.d.ts's `ErrorCode` union by tests/ts_unions.rs.
        for &code in ErrorCode::ALL {
            let row = Error::new(code, "", "m").to_json();
            assert_eq!(row.get("error").and_then(Value::as_str), Some(code.as_str()));
        }
    }

    #[test]
    fn text_is_escaped_as_compact_json() {
        // Messages quote input: quotes, control characters and non-ASCII print as JSON does.
        let e = Error::new(ErrorCode::InvalidValue, "/k\"", "bad \"x\"\n é");
        assert_eq!(
            to_json_string(&e.to_json()),
            r#"{"error":"invalid_value","message":"bad \"x\"\n é","path":"/k\""}"#
        );
    }
}
