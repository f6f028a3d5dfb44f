//! Datetimes as the reference sees them (filled in next).
