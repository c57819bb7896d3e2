// tokio-postgres (Debian's librust-tokio-postgres-dev) against ulid: what
// fails without code (it checks Rust types against `ulid` on the client),
// the SQL casts that work, and the README's `Ulid` type (ToSql/FromSql on
// the 16 big-endian bytes of the binary form).  Prints ok / not ok lines.
//     ulid_tokio_postgres PORT DATABASE
use bytes::BytesMut;
use std::error::Error;
use tokio_postgres::types::{to_sql_checked, FromSql, IsNull, ToSql, Type};
use tokio_postgres::NoTls;

// --- the README's recipe ------------------------------------------------
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ulid(pub u128);

impl<'a> FromSql<'a> for Ulid {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
        Ok(Ulid(u128::from_be_bytes(raw.try_into()?)))
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "ulid"
    }
}

impl ToSql for Ulid {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        out.extend_from_slice(&self.0.to_be_bytes());
        Ok(IsNull::No)
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "ulid"
    }
    to_sql_checked!();
}
// ------------------------------------------------------------------------

static mut FAILED: u32 = 0;

fn check<T: PartialEq + std::fmt::Debug>(desc: &str, expected: T, actual: T) {
    if expected == actual {
        println!("ok - {}", desc);
    } else {
        unsafe { FAILED += 1 };
        println!("not ok - {} (expected {:?}, got {:?})", desc, expected, actual);
    }
}

fn is_ulid(s: &str) -> bool {
    s.len() == 26 && s.bytes().all(|c| b"0123456789ABCDEFGHJKMNPQRSTVWXYZ".contains(&c))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (client, connection) = tokio_postgres::connect(
        &format!("host=127.0.0.1 port={} user=postgres dbname={}", args[1], args[2]),
        NoTls,
    )
    .await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            println!("not ok - connection: {}", e);
        }
    });
    client
        .batch_execute("CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int)")
        .await?;

    // without code: refused on the client, with the exact message
    let row = client.query_one("INSERT INTO items (n) VALUES (1) RETURNING id", &[]).await?;
    let got: Result<String, _> = row.try_get(0);
    check("a ulid column into String is refused (the pitfall)", true,
          got.map_err(|e| e.to_string()).unwrap_err().contains("cannot convert between the Rust type"));
    let row = client.query_one("SELECT id::text FROM items WHERE n = 1", &[]).await?;
    let id: String = row.get(0);
    check("RETURNING/SELECT id::text into String (the recipe)", true, is_ulid(&id));
    let r = client.query("SELECT n FROM items WHERE id = $1", &[&id.as_str()]).await;
    check("WHERE id = $1 with &str is refused (the pitfall)", true,
          r.map_err(|e| e.to_string()).unwrap_err().contains("cannot convert between the Rust type"));
    let r = client.query("SELECT n FROM items WHERE id = $1::text::ulid", &[&id]).await?;
    check("WHERE id = $1::text::ulid with a String (the recipe)", 1, r.len());
    let r = client.query("SELECT n FROM items WHERE id = ulid_parse($1)", &[&id.to_lowercase()]).await?;
    check("WHERE id = ulid_parse($1) with a lower-case String", 1, r.len());
    let u: uuid::Uuid = client.query_one("SELECT id::uuid FROM items WHERE n = 1", &[]).await?.get(0);
    let r = client.query("SELECT n FROM items WHERE id = $1", &[&u]).await;
    check("WHERE id = $1 with uuid::Uuid is refused (the pitfall)", true, r.is_err());
    let r = client.query("SELECT n FROM items WHERE id = $1::uuid", &[&u]).await?;
    check("WHERE id = $1::uuid with uuid::Uuid (the recipe)", 1, r.len());
    let ids = vec![id.clone()];
    let r = client.query("SELECT n FROM items WHERE id = ANY($1::text[]::ulid[])", &[&ids]).await?;
    check("ANY($1::text[]::ulid[]) with Vec<String> (the recipe)", 1, r.len());

    // the Ulid type
    let row = client.query_one("INSERT INTO items (n) VALUES (2) RETURNING id, id::uuid", &[]).await?;
    let a: Ulid = row.get(0);
    let au: uuid::Uuid = row.get(1);
    check("Ulid from a ulid column: the 16 bytes", au.as_u128(), a.0);
    let n: i32 = client.query_one("SELECT n FROM items WHERE id = $1", &[&a]).await?.get(0);
    check("Ulid as a parameter in WHERE", 2, n);
    let b = Ulid(uuid::Uuid::parse_str("018eafc1-8435-0cf0-5803-c72d06e78011")?.as_u128());
    let t: String = client
        .query_one("INSERT INTO items (id, n) VALUES ($1, 3) RETURNING id::text", &[&b])
        .await?
        .get(0);
    check("Ulid stored by INSERT", "01HTQW311N1KR5G0Y75M3EF00H".to_string(), t);
    let all: Vec<Ulid> = client.query_one("SELECT array_agg(id ORDER BY id) FROM items", &[]).await?.get(0);
    check("Vec<Ulid> from ulid[], in id order", true, all.len() == 3 && all.windows(2).all(|w| w[0] < w[1]));
    let c: i64 = client.query_one("SELECT count(*) FROM items WHERE id = ANY($1)", &[&all]).await?.get(0);
    check("Vec<Ulid> as a ulid[] parameter", 3, c);
    client.batch_execute("SET plan_cache_mode = force_generic_plan").await?;
    let st = client.prepare("SELECT n FROM items WHERE id = $1").await?;
    let mut found = 0;
    for _ in 0..7 {
        let n: i32 = client.query_one(&st, &[&a]).await?.get(0);
        if n == 2 {
            found += 1;
        }
    }
    check("a prepared statement x7 under force_generic_plan, Ulid parameter", 7, found);

    if unsafe { FAILED } > 0 {
        std::process::exit(1);
    }
    Ok(())
}
