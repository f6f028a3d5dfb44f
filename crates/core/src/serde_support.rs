//! `serde` support (feature `serde`, on by default) for the crate's data
//! model: [`Value`], [`Object`], [`PyStr`], [`PyDateTime`] and [`Error`]
//! (`lians-score` adds the receipt statuses; its typed API structs derive theirs).
//!
//! JSON [`Value`]s map onto serde's data model as closely as it allows:
//! integers stay integers (`i64`/`u64`/`i128`, beyond that their decimal
//! text as a string), floats stay floats (so `1.0` stays a float in formats
//! that distinguish it), object key order is kept, and strings holding lone
//! surrogates serialize lossily (U+FFFD). Hash-exact work goes through the
//! crate's own printer ([`crate::json::canonical`]), never through serde.

use std::fmt;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::json::{Object, PyStr, Value};
use crate::py::time::PyDateTime;
use crate::Error;

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(digits) => {
                if let Ok(i) = digits.parse::<i64>() {
                    s.serialize_i64(i)
                } else if let Ok(u) = digits.parse::<u64>() {
                    s.serialize_u64(u)
                } else if let Ok(i) = digits.parse::<i128>() {
                    s.serialize_i128(i)
                } else {
                    s.serialize_str(digits)
                }
            }
            Value::Float(x) => s.serialize_f64(*x),
            Value::Str(text) => text.serialize(s),
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(o) => o.serialize(s),
        }
    }
}

impl Serialize for Object {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl Serialize for PyStr {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_str_lossy())
    }
}

impl<'de> Deserialize<'de> for PyStr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PyStr, D::Error> {
        String::deserialize(d).map(PyStr::from)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON data")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::int(i))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        Ok(Value::Int(u.to_string().into()))
    }
    fn visit_i128<E>(self, i: i128) -> Result<Value, E> {
        Ok(Value::Int(i.to_string().into()))
    }
    fn visit_u128<E>(self, u: u128) -> Result<Value, E> {
        Ok(Value::Int(u.to_string().into()))
    }
    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Value::Float(x))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::str(s))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::str(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut o = Object::new();
        // A duplicate key keeps its first position and its last value (Python's dict).
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            o.insert(k.as_str(), v);
        }
        Ok(Value::Object(o))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Object {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Object, D::Error> {
        match d.deserialize_map(ValueVisitor)? {
            Value::Object(o) => Ok(o),
            other => Err(de::Error::invalid_type(de::Unexpected::Other(other.type_name()), &"an object")),
        }
    }
}

/// As Python's `isoformat()` text; read back with [`PyDateTime::parse`].
impl Serialize for PyDateTime {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.isoformat())
    }
}

impl<'de> Deserialize<'de> for PyDateTime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PyDateTime, D::Error> {
        let text = String::deserialize(d)?;
        PyDateTime::parse(&text).map_err(de::Error::custom)
    }
}

/// As `{code, message, path}` (the CLI's and the bindings' error shape).
impl Serialize for Error {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Error", 3)?;
        st.serialize_field("code", self.code.as_str())?;
        st.serialize_field("message", &self.message)?;
        st.serialize_field("path", &self.path)?;
        st.end()
    }
}
