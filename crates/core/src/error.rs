//! The one error type of the crate.
//!
//! Every fallible entry point returns [`Error`]: a stable machine-readable
//! [`ErrorCode`], a human message, and `path`, a JSON pointer (RFC 6901) or
//! field name saying *where* in the input the problem is. Bindings (wasm, CLI)
//! surface these three fields unchanged, so a caller can branch on `code`
//! without parsing messages.
//!
//! Verification *findings* (a hash that does not match, a bad signature) are
//! not errors: they are reported as data in a verification report. `Error` is
//! for input that cannot be processed at all.
//!
//! [`Error::to_json`] is the one printer of an error as a JSON row
//! (`{"error": code, "message": ..., "path": ...}`): the CLI's error lines,
//! the batch's JSON Lines and compact rows ([`Error::to_json_at`], with the
//! candidate's `index` first) and the wasm batch's `errors` all print it.
//! It is defined in `json/error_row.rs`, so that this module, the bottom of
//! the crate, depends on nothing. Paths are built with [`crate::json::pointer`].

use std::fmt;

/// Stable error codes. The string form (`as_str`) is part of the public API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The text is not JSON as CPython's `json.loads` reads it.
    MalformedJson,
    /// Arrays/objects nested deeper than [`crate::json::MAX_DEPTH`].
    NestingTooDeep,
    /// A field has the wrong JSON type (e.g. a number where a string is required).
    WrongType,
    /// A required field is missing.
    MissingField,
    /// A datetime string could not be parsed.
    InvalidDatetime,
    /// A value is outside the range the reference accepts (e.g. an integer too large for a double).
    OutOfRange,
    /// An input exceeds a documented size limit.
    TooLarge,
    /// A value is syntactically fine but not allowed (unknown enum value, bad base64...).
    InvalidValue,
}

impl ErrorCode {
    /// Every code (the TypeScript `ErrorCode` union is checked against it).
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::MalformedJson,
        ErrorCode::NestingTooDeep,
        ErrorCode::WrongType,
        ErrorCode::MissingField,
        ErrorCode::InvalidDatetime,
        ErrorCode::OutOfRange,
        ErrorCode::TooLarge,
        ErrorCode::InvalidValue,
    ];

    /// The stable snake_case name of this code.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::MalformedJson => "malformed_json",
            ErrorCode::NestingTooDeep => "nesting_too_deep",
            ErrorCode::WrongType => "wrong_type",
            ErrorCode::MissingField => "missing_field",
            ErrorCode::InvalidDatetime => "invalid_datetime",
            ErrorCode::OutOfRange => "out_of_range",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::InvalidValue => "invalid_value",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A typed error: what went wrong (`code`), in words (`message`), and where (`path`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What went wrong, as a stable code.
    pub code: ErrorCode,
    /// What went wrong, in words.
    pub message: String,
    /// JSON pointer (`/metadata/a/0`) or field name; empty for the whole input.
    pub path: String,
}

impl Error {
    /// An error with `code`, `path` (a JSON pointer, `""` for the whole input) and `message`.
    pub fn new(code: ErrorCode, path: impl Into<String>, message: impl Into<String>) -> Error {
        Error { code, message: message.into(), path: path.into() }
    }

    /// Shorthand for a [`ErrorCode::WrongType`] error on `path`.
    pub fn wrong_type(path: impl Into<String>, expected: &str, got: &str) -> Error {
        let path = path.into();
        let message = format!("{} must be {}, got {}", display_path(&path), expected, got);
        Error::new(ErrorCode::WrongType, path, message)
    }

    /// Prefix `path` with a parent pointer (`/input` + `/content` = `/input/content`).
    pub fn under(mut self, parent: &str) -> Error {
        if !parent.is_empty() {
            self.path = format!("{}{}", parent, self.path);
        }
        self
    }
}

fn display_path(path: &str) -> String {
    if path.is_empty() {
        "input".to_string()
    } else {
        format!("`{}`", path)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}: {}", self.code, self.message)
        } else {
            write!(f, "{} at {}: {}", self.code, self.path, self.message)
        }
    }
}

impl std::error::Error for Error {}

/// `std::result::Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
