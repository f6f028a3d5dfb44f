//! `serde` support (feature `serde`, on by default) for the report's
//! [`CheckCode`], [`Status`] (`CheckStatus`) and [`Severity`], printed as
//! their snake_case names. The data model's impls ([`crate::json::Value`],
//! `PyStr`, `PyDateTime`, [`crate::Error`]) are in `lians-score-core`; the
//! typed API structs derive theirs.

use serde::de;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::receipt::{CheckCode, CheckStatus as Status, Severity};

macro_rules! string_enum {
    ($ty:ty, $what:literal, $($variant:path),+) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let text = String::deserialize(d)?;
                [$($variant),+]
                    .into_iter()
                    .find(|v| v.as_str() == text)
                    .ok_or_else(|| de::Error::invalid_value(de::Unexpected::Str(&text), &$what))
            }
        }
    };
}

string_enum!(Status, "passed, failed or skipped", Status::Passed, Status::Failed, Status::Skipped);
string_enum!(Severity, "error or info", Severity::Error, Severity::Info);

impl Serialize for CheckCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for CheckCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CheckCode, D::Error> {
        let text = String::deserialize(d)?;
        CheckCode::from_name(&text)
            .ok_or_else(|| de::Error::invalid_value(de::Unexpected::Str(&text), &"a check code (CheckCode::ALL)"))
    }
}
