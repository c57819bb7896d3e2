// The test program of ulid-pg (test/scenarios/client_rust.sh): tokio-postgres
// 0.7 (Debian's librust-tokio-postgres-dev) with `ulid_pg::Ulid` against a
// server with the ulid extension.  Prints ok / not ok lines.
//     client PORT DATABASE
use std::error::Error;
use tokio_postgres::binary_copy::BinaryCopyInWriter;
use tokio_postgres::types::Type;
use tokio_postgres::NoTls;
use ulid_pg::Ulid;

static mut FAILED: u32 = 0;

fn check<T: PartialEq + std::fmt::Debug>(desc: &str, expected: T, actual: T) {
    if expected == actual {
        println!("ok - {}", desc);
    } else {
        unsafe { FAILED += 1 };
        println!("not ok - {} (expected {:?}, got {:?})", desc, expected, actual);
    }
}

async fn run(port: &str, db: &str) -> Result<(), Box<dyn Error>> {
    let (client, connection) =
        tokio_postgres::connect(&format!("host=127.0.0.1 port={} user=postgres dbname={}", port, db), NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            println!("not ok - connection: {}", e);
        }
    });
    client
        .batch_execute("CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int, tags ulid[])")
        .await?;

    // without the type: tokio-postgres refuses String for a ulid (the gap)
    let row = client.query_one("INSERT INTO items (n) VALUES (1) RETURNING id, id::text", &[]).await?;
    let as_string: Result<String, _> = row.try_get(0);
    check("a ulid column into String is refused without ulid_pg (the gap)", true,
          as_string.map_err(|e| e.to_string()).unwrap_err().contains("cannot convert between the Rust type"));

    // Ulid: insert with RETURNING, Display, FromStr, a bound parameter
    let a: Ulid = row.get(0);
    let text: String = row.get(1);
    check("RETURNING id into Ulid; Display is the server's text", text.clone(), a.to_string());
    check("FromStr of the lower-case text", Ok(a), text.to_lowercase().parse::<Ulid>());
    let n: i32 = client.query_one("SELECT n FROM items WHERE id = $1", &[&a]).await?.get(0);
    check("Ulid as a parameter in WHERE", 1, n);
    let known: Ulid = "01HTQW311N1KR5G0Y75M3EF00H".parse()?;
    let stored: String = client
        .query_one("INSERT INTO items (id, n) VALUES ($1, 2) RETURNING id::text", &[&known])
        .await?
        .get(0);
    check("Ulid stored by INSERT", "01HTQW311N1KR5G0Y75M3EF00H".to_string(), stored);
    check("a UUID's text is not a ULID (FromStr: Length(36))", Err(ulid_pg::ParseError::Length(36)),
          "018eafc1-8435-0cf0-5803-c72d06e78011".parse::<Ulid>());
    let ms: i64 = client
        .query_one("SELECT (extract(epoch FROM ulid_time($1)) * 1000)::bigint", &[&a])
        .await?
        .get(0);
    check("timestamp_ms() is ulid_time(id)", ms as u64, a.timestamp_ms());

    // uuid::Uuid round trip
    let u = uuid::Uuid::parse_str("018eafc1-8435-0cf0-5803-c72d06e78012")?;
    let back: Ulid = client
        .query_one("INSERT INTO items (id, n) VALUES ($1, 3) RETURNING id", &[&Ulid::from(u)])
        .await?
        .get(0);
    check("Ulid::from(uuid::Uuid) stored, read back as the same uuid::Uuid", u, uuid::Uuid::from(back));
    let server_uuid: String = client.query_one("SELECT id::uuid::text FROM items WHERE n = 3", &[]).await?.get(0);
    check("... equal to the server's id::uuid", server_uuid, uuid::Uuid::from(back).to_string());
    let via_uuid: i32 = client.query_one("SELECT n FROM items WHERE id::uuid = $1", &[&back]).await?.get(0);
    check("a Ulid also binds a uuid parameter", 3, via_uuid);

    // ulid[]
    let all: Vec<Ulid> = client.query_one("SELECT array_agg(id ORDER BY id) FROM items", &[]).await?.get(0);
    check("Vec<Ulid> from ulid[], in id order", true, all.len() == 3 && all.windows(2).all(|w| w[0] < w[1]));
    client.execute("UPDATE items SET tags = $1 WHERE id = $2", &[&all, &a]).await?;
    let tags: Vec<Ulid> = client.query_one("SELECT tags FROM items WHERE id = $1", &[&a]).await?.get(0);
    check("Vec<Ulid> into a ulid[] column and back", all.clone(), tags);
    let c: i64 = client.query_one("SELECT count(*) FROM items WHERE id = ANY($1)", &[&all]).await?.get(0);
    check("id = ANY($1) with Vec<Ulid>", 3, c);

    // bulk: binary COPY
    let ulid_type = client.prepare("SELECT $1::ulid").await?.params()[0].clone();
    client.batch_execute("CREATE TABLE copied (id ulid, n int)").await?;
    let sink = client.copy_in("COPY copied (id, n) FROM STDIN (FORMAT binary)").await?;
    let mut writer = Box::pin(BinaryCopyInWriter::new(sink, &[ulid_type, Type::INT4]));
    for (i, id) in all.iter().enumerate() {
        writer.as_mut().write(&[id, &(i as i32)]).await?;
    }
    check("BinaryCopyInWriter with Ulid values", 3, writer.as_mut().finish().await?);
    let copied: Vec<Ulid> = client.query_one("SELECT array_agg(id ORDER BY n) FROM copied", &[]).await?.get(0);
    check("... the copied ids", all.clone(), copied);

    // generic plans
    client.batch_execute("SET plan_cache_mode = force_generic_plan").await?;
    let st = client.prepare("SELECT n FROM items WHERE id = $1").await?;
    let mut found = 0;
    for _ in 0..7 {
        let n: i32 = client.query_one(&st, &[&a]).await?.get(0);
        if n == 1 {
            found += 1;
        }
    }
    check("a prepared statement x7 under force_generic_plan", 7, found);
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    if let Err(e) = rt.block_on(run(&args[1], &args[2])) {
        println!("not ok - the program ran to the end: {}", e);
        std::process::exit(1);
    }
    if unsafe { FAILED } > 0 {
        std::process::exit(1);
    }
}
