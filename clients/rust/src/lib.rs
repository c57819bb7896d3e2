//! The PostgreSQL `ulid` type (the `ulid` extension) for `tokio-postgres` and
//! `postgres`: [`Ulid`] is a parameter and a column value of type `ulid` (and
//! `Vec<Ulid>` of `ulid[]`), shown and parsed as the 26-character Crockford
//! Base32 text, and converted from and to `uuid::Uuid` (the same 16 bytes).
//!
//! ```no_run
//! # async fn f(client: &tokio_postgres::Client) -> Result<(), Box<dyn std::error::Error>> {
//! use ulid_pg::Ulid;
//! let id: Ulid = client.query_one("INSERT INTO items (n) VALUES (1) RETURNING id", &[]).await?.get(0);
//! let parsed: Ulid = "01HTQW311N1KR5G0Y75M3EF00H".parse()?;
//! client.query("SELECT n FROM items WHERE id = $1", &[&parsed]).await?;
//! println!("{}", id);
//! # Ok(()) }
//! ```
//!
//! tokio-postgres checks Rust types against the column's type on the client:
//! `String`, `&str` and `uuid::Uuid` are refused for a `ulid` (convert them:
//! `s.parse::<Ulid>()`, `Ulid::from(uuid)`).
use bytes::BytesMut;
use postgres_types::{to_sql_checked, FromSql, IsNull, ToSql, Type};
use std::error::Error;
use std::fmt;
use std::str::FromStr;

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// A ULID: 48 bits of Unix milliseconds, then 80 random bits; ordered as the
/// server orders `ulid` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ulid(pub u128);

impl Ulid {
    /// the 16 bytes, most significant first (the binary form of `ulid` and `uuid`)
    pub fn to_bytes(self) -> [u8; 16] {
        self.0.to_be_bytes()
    }
    pub fn from_bytes(bytes: [u8; 16]) -> Self {
        Ulid(u128::from_be_bytes(bytes))
    }
    /// the time part, in Unix milliseconds (what `ulid_time(id)` reads)
    pub fn timestamp_ms(self) -> u64 {
        (self.0 >> 80) as u64
    }
}

impl fmt::Display for Ulid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = [0u8; 26];
        for (i, c) in out.iter_mut().enumerate() {
            *c = ALPHABET[((self.0 >> (5 * (25 - i))) & 31) as usize];
        }
        f.write_str(std::str::from_utf8(&out).expect("ASCII"))
    }
}

/// Why a text is not a ULID
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// not 26 characters (a UUID's text has 36: parse it as a `uuid::Uuid`)
    Length(usize),
    /// a character outside Crockford Base32 (no I, L, O or U), at this 0-based index
    Character(usize),
    /// above 7ZZZZZZZZZZZZZZZZZZZZZZZZZ (more than 128 bits)
    Overflow,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Length(n) => write!(f, "a ULID has 26 characters; this text has {}", n),
            ParseError::Character(i) => write!(f, "character {} is not Crockford Base32", i + 1),
            ParseError::Overflow => f.write_str("a ULID starts with 0-7 (128 bits)"),
        }
    }
}

impl Error for ParseError {}

impl FromStr for Ulid {
    type Err = ParseError;
    /// 26 Crockford Base32 characters, any case (no aliases, as the server)
    fn from_str(s: &str) -> Result<Self, ParseError> {
        if s.len() != 26 {
            return Err(ParseError::Length(s.chars().count()));
        }
        let mut n: u128 = 0;
        for (i, c) in s.bytes().enumerate() {
            let v = ALPHABET
                .iter()
                .position(|&a| a == c.to_ascii_uppercase())
                .ok_or(ParseError::Character(i))?;
            if i == 0 && v > 7 {
                return Err(ParseError::Overflow);
            }
            n = n << 5 | v as u128;
        }
        Ok(Ulid(n))
    }
}

impl<'a> FromSql<'a> for Ulid {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
        let bytes: [u8; 16] = raw
            .try_into()
            .map_err(|_| format!("a binary ulid is 16 bytes, not {}", raw.len()))?;
        Ok(Ulid::from_bytes(bytes))
    }
    /// `ulid`, in any schema; `uuid` too (the same bytes: `SELECT id::uuid`)
    fn accepts(ty: &Type) -> bool {
        ty.name() == "ulid" || *ty == Type::UUID
    }
}

impl ToSql for Ulid {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        out.extend_from_slice(&self.to_bytes());
        Ok(IsNull::No)
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "ulid" || *ty == Type::UUID
    }
    to_sql_checked!();
}

#[cfg(feature = "uuid")]
impl From<uuid::Uuid> for Ulid {
    fn from(u: uuid::Uuid) -> Self {
        Ulid(u.as_u128())
    }
}

#[cfg(feature = "uuid")]
impl From<Ulid> for uuid::Uuid {
    fn from(u: Ulid) -> Self {
        uuid::Uuid::from_u128(u.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text() {
        let u: Ulid = "01htqw311n1kr5g0y75m3ef00h".parse().unwrap();
        assert_eq!(u.0, 0x018eafc184350cf05803c72d06e78011);
        assert_eq!(u.to_string(), "01HTQW311N1KR5G0Y75M3EF00H");
        assert_eq!(u.timestamp_ms(), 1712345678901);
        assert_eq!("8ZZZZZZZZZZZZZZZZZZZZZZZZZ".parse::<Ulid>(), Err(ParseError::Overflow));
        assert_eq!("01HTQW311I1KR5G0Y75M3EF00H".parse::<Ulid>(), Err(ParseError::Character(9)));
        assert_eq!("018eafc1-8435-0cf0-5803-c72d06e78011".parse::<Ulid>(), Err(ParseError::Length(36)));
    }
}
