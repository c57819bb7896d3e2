/*
 * io.github.ulidpg.Ulids with pgjdbc (Debian's libpostgresql-jdbc-java):
 * first what pgjdbc does alone (the gaps, with their SQLSTATEs), then the
 * adapter.  Compiled and run by test/scenarios/client_java.sh:
 *   java -cp /usr/share/java/postgresql.jar:ulid-pg.jar:. UlidJdbc PORT DATABASE
 * Prints one "ok - ..." or "not ok - ..." line per check; a check that throws
 * is a "not ok" line with the error and the next check still runs.
 */
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Pattern;

import io.github.ulidpg.Ulids;
import org.postgresql.PGConnection;
import org.postgresql.PGStatement;
import org.postgresql.copy.CopyManager;
import org.postgresql.util.PGobject;

public class UlidJdbc {
	static final String KNOWN = "01HTQW311N1KR5G0Y75M3EF00H";
	static final UUID KNOWN_UUID = UUID.fromString("018eafc1-8435-0cf0-5803-c72d06e78011");
	static final Pattern ULID_TEXT = Pattern.compile("[0-7][0-9A-HJKMNP-TV-Z]{25}");
	static int failed = 0;

	interface Body {
		Object run() throws Exception;
	}

	static void ok(String desc, boolean pass, String detail) {
		if (pass) {
			System.out.println("ok - " + desc);
		} else {
			failed++;
			System.out.println("not ok - " + desc + (detail.isEmpty() ? "" : " (" + detail + ")"));
		}
	}

	static String describe(Throwable e) {
		String state = e instanceof SQLException ? " " + ((SQLException) e).getSQLState() : "";
		return (e.getClass().getSimpleName() + state + ": " + e.getMessage()).replace('\n', ' ');
	}

	/* ok when body returns expected (compared with equals, arrays by content) */
	static void expect(String desc, Object expected, Body body) {
		try {
			Object got = body.run();
			boolean same = expected instanceof Object[] && got instanceof Object[]
					? Arrays.equals((Object[]) expected, (Object[]) got) : Objects.equals(expected, got);
			ok(desc, same, "expected " + show(expected) + ", got " + show(got));
		} catch (Exception e) {
			ok(desc, false, describe(e));
		}
	}

	static String show(Object o) {
		return o instanceof Object[] ? Arrays.toString((Object[]) o) : String.valueOf(o);
	}

	/* ok when body throws an SQLException of that SQLSTATE whose message matches */
	static void expectError(String desc, String sqlstate, String pattern, Body body) {
		try {
			body.run();
			ok(desc, false, "no error, expected SQLSTATE " + sqlstate);
		} catch (Exception e) {
			Throwable t = e instanceof BatchUpdateException && ((SQLException) e).getNextException() != null
					? ((SQLException) e).getNextException() : e;
			boolean pass = t instanceof SQLException && sqlstate.equals(((SQLException) t).getSQLState())
					&& (pattern == null || Pattern.compile(pattern, Pattern.DOTALL).matcher(t.getMessage()).find());
			ok(desc, pass, describe(t));
		}
	}

	static Object one(Connection c, String sql, Object... params) throws SQLException {
		try (PreparedStatement ps = c.prepareStatement(sql)) {
			for (int i = 0; i < params.length; i++) {
				if (params[i] instanceof String)
					ps.setString(i + 1, (String) params[i]);   /* what most code does: sent as varchar */
				else
					ps.setObject(i + 1, params[i]);
			}
			try (ResultSet rs = ps.executeQuery()) {
				return rs.next() ? rs.getObject(1) : null;
			}
		}
	}

	static String str(Connection c, String sql, Object... params) throws SQLException {
		Object o = one(c, sql, params);
		return o == null ? null : o.toString();
	}

	static List<String> column(Connection c, String sql) throws SQLException {
		List<String> out = new ArrayList<>();
		try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
			while (rs.next())
				out.add(rs.getString(1));
		}
		return out;
	}

	public static void main(String[] args) throws Exception {
		String base = "jdbc:postgresql://127.0.0.1:" + args[0] + "/" + args[1] + "?user=postgres";
		try {
			run(base);
		} catch (Exception e) {
			ok("the client ran to the end", false, describe(e));
		}
		System.exit(failed == 0 ? 0 : 1);
	}

	static void run(String base) throws Exception {
		Connection c = DriverManager.getConnection(base);
		try (Statement st = c.createStatement()) {
			st.execute("CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int)");
		}

		/* the database default, and the id back */
		List<String> ids = new ArrayList<>();
		try (PreparedStatement ps = c.prepareStatement("INSERT INTO items (n) VALUES (?) RETURNING id")) {
			for (int n = 1; n <= 3; n++) {
				ps.setInt(1, n);
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					ids.add(rs.getString(1));
					if (n == 1) {
						ok("RETURNING id: getString is the ULID text", ULID_TEXT.matcher(rs.getString(1)).matches(), rs.getString(1));
						expect("... the column type is ulid (Types.OTHER), getObject a PGobject",
								"ulid 1111 PGobject", () -> rs.getMetaData().getColumnTypeName(1) + " "
										+ rs.getMetaData().getColumnType(1) + " " + rs.getObject(1).getClass().getSimpleName());
					}
				}
			}
		}
		try (PreparedStatement ps = c.prepareStatement("INSERT INTO items (n) VALUES (?)", new String[] {"id"})) {
			for (int n = 4; n <= 5; n++) {
				ps.setInt(1, n);
				ps.addBatch();
			}
			ps.executeBatch();
			try (ResultSet rs = ps.getGeneratedKeys()) {
				while (rs.next())
					ids.add(rs.getString(1));
			}
		}
		ok("a batch with getGeneratedKeys() returns each DEFAULT id, in order",
				ids.size() == 5 && ids.get(3).compareTo(ids.get(4)) < 0 && ids.get(2).compareTo(ids.get(3)) < 0, ids.toString());

		expect("setObject(s, Types.OTHER) in INSERT", KNOWN, () -> {
			try (PreparedStatement ps = c.prepareStatement("INSERT INTO items (id, n) VALUES (?, 100) RETURNING id")) {
				ps.setObject(1, KNOWN, Types.OTHER);
				try (ResultSet rs = ps.executeQuery()) {
					return rs.next() ? rs.getString(1) : null;
				}
			}
		});

		/* setString with the default URL: varchar */
		expect("setString in INSERT (varchar -> ulid assignment cast)", "01HTQW311N1KR5G0Y75M3EF00Q",
				() -> str(c, "INSERT INTO items (id, n) VALUES (?, 105) RETURNING id", "01HTQW311N1KR5G0Y75M3EF00Q"));
		expect("setString in a batch INSERT", 2, () -> {
			try (PreparedStatement ps = c.prepareStatement("INSERT INTO items (id, n) VALUES (?, ?)")) {
				ps.setString(1, "01HTQW311N1KR5G0Y75M3EF00M");
				ps.setInt(2, 101);
				ps.addBatch();
				ps.setString(1, "01HTQW311N1KR5G0Y75M3EF00N");
				ps.setInt(2, 102);
				ps.addBatch();
				return ps.executeBatch().length;
			}
		});
		expectError("setString in WHERE is ulid = character varying (42883): needs stringtype=unspecified", "42883",
				"ulid = character varying", () -> one(c, "SELECT n FROM items WHERE id = ?", ids.get(0)));
		expect("... or ?::ulid", 1, () -> one(c, "SELECT n FROM items WHERE id = ?::ulid", ids.get(0)));
		expect("setObject(s, Types.OTHER) in WHERE", 1, () -> {
			try (PreparedStatement ps = c.prepareStatement("SELECT n FROM items WHERE id = ?")) {
				ps.setObject(1, ids.get(0), Types.OTHER);
				try (ResultSet rs = ps.executeQuery()) {
					return rs.next() ? rs.getInt(1) : null;
				}
			}
		});
		expect("a PGobject of type ulid in WHERE", 1, () -> {
			PGobject o = new PGobject();
			o.setType("ulid");
			o.setValue(ids.get(0));
			return one(c, "SELECT n FROM items WHERE id = ?", o);
		});

		/* java.util.UUID: a uuid parameter */
		expect("setObject(UUID) in WHERE (the ulid = uuid operator)", 100,
				() -> one(c, "SELECT n FROM items WHERE id = ?", KNOWN_UUID));
		expect("setObject(UUID) in INSERT stores it, no adapter (the assignment cast, 1.3)", "01HTQW311N1KR5G0Y75M3EF01Z",
				() -> str(c, "INSERT INTO items (id, n) VALUES (?, 104) RETURNING id",
						UUID.fromString("018eafc1-8435-0cf0-5803-c72d06e7803f")));
		expect("... ?::ulid stores it", "01HTQW311N1KR5G0Y75M3EF00J", () -> str(c,
				"INSERT INTO items (id, n) VALUES (?::ulid, 103) RETURNING id",
				UUID.fromString("018eafc1-8435-0cf0-5803-c72d06e78012")));
		expect("SELECT id::uuid reads a java.util.UUID", KNOWN_UUID, () -> {
			try (PreparedStatement ps = c.prepareStatement("SELECT id::uuid FROM items WHERE n = 100");
					ResultSet rs = ps.executeQuery()) {
				rs.next();
				return rs.getObject(1, UUID.class);
			}
		});

		expect("getObject(1, UUID.class) on the ulid column itself throws ClassCastException (PGobject)", "ClassCastException", () -> {
			try (PreparedStatement ps = c.prepareStatement("SELECT id FROM items WHERE n = 100");
					ResultSet rs = ps.executeQuery()) {
				rs.next();
				return "no exception: " + rs.getObject(1, UUID.class);
			} catch (ClassCastException e) {
				return e.getClass().getSimpleName();
			}
		});

		/* order, time, arrays */
		expect("ORDER BY id is insertion order", ids, () -> column(c, "SELECT id FROM items WHERE n < 100 ORDER BY id"));
		expect("ulid_time(id) is an OffsetDateTime of the last minute", true, () -> {
			try (PreparedStatement ps = c.prepareStatement("SELECT ulid_time(id) FROM items WHERE n = 1");
					ResultSet rs = ps.executeQuery()) {
				rs.next();
				OffsetDateTime t = rs.getObject(1, OffsetDateTime.class);
				return Duration.between(t, OffsetDateTime.now()).abs().getSeconds() < 60;
			}
		});
		expect("createArrayOf(\"ulid\", String[]) with id = ANY(?)", 2L, () -> {
			Array a = c.createArrayOf("ulid", new String[] {ids.get(0), ids.get(1)});
			return one(c, "SELECT count(*) FROM items WHERE id = ANY(?)", a);
		});
		expect("array_agg(id): getArray() of base type ulid is an Object[] of PGobject (toString() is the text)",
				"ulid PGobject " + Arrays.asList(ids.get(0), ids.get(1)), () -> {
			try (Statement st = c.createStatement();
					ResultSet rs = st.executeQuery("SELECT array_agg(id ORDER BY id) FROM items WHERE n <= 2")) {
				rs.next();
				Array a = rs.getArray(1);
				Object[] elements = (Object[]) a.getArray();
				return a.getBaseTypeName() + " " + elements[0].getClass().getSimpleName() + " " + Arrays.toString(elements);
			}
		});

		/* COPY through CopyManager: text and binary */
		CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
		expect("CopyManager.copyOut (text) writes the ids as text", String.join("\n", ids) + "\n", () -> {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			copy.copyOut("COPY (SELECT id FROM items WHERE n < 100 ORDER BY id) TO STDOUT", out);
			return out.toString(StandardCharsets.UTF_8);
		});
		expect("CopyManager.copyOut/copyIn (FORMAT binary) round-trips 16-byte fields", ids, () -> {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			copy.copyOut("COPY (SELECT id FROM items WHERE n < 100 ORDER BY id) TO STDOUT (FORMAT binary)", out);
			byte[] b = out.toByteArray();
			/* 19-byte header, then per row: field count 1, length 16, 16 bytes; then the trailer */
			if (b.length != 19 + 5 * (2 + 4 + 16) + 2 || b[19 + 5] != 16)
				throw new AssertionError("unexpected binary COPY of " + b.length + " bytes");
			try (Statement st = c.createStatement()) {
				st.execute("CREATE TABLE copied (id ulid)");
			}
			copy.copyIn("COPY copied FROM STDIN (FORMAT binary)", new ByteArrayInputStream(b));
			return column(c, "SELECT id FROM copied ORDER BY id");
		});

		/* the adapter: Ulids.setUlid sends a ULID, a UUID's text, a UUID or 16 bytes untyped */
		expect("Ulids.setUlid(String) in WHERE, default URL", 1, () -> {
			try (PreparedStatement ps = c.prepareStatement("SELECT n FROM items WHERE id = ?")) {
				Ulids.setUlid(ps, 1, ids.get(0).toLowerCase());
				try (ResultSet rs = ps.executeQuery()) {
					return rs.next() ? rs.getInt(1) : null;
				}
			}
		});
		UUID u6 = UUID.fromString("018eafc1-8435-0cf0-5803-c72d06e78030");
		expect("Ulids.setUlid(UUID) in INSERT: stored without a cast; Ulids.getUuid reads it back", u6 + " 01HTQW311N1KR5G0Y75M3EF01G", () -> {
			try (PreparedStatement ps = c.prepareStatement("INSERT INTO items (id, n) VALUES (?, 106) RETURNING id, id::uuid")) {
				Ulids.setUlid(ps, 1, u6);
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					return Ulids.getUuid(rs, 1) + " " + Ulids.getUlid(rs, 1) + (rs.getObject(2, UUID.class).equals(u6) ? "" : " (id::uuid differs)");
				}
			}
		});
		expect("Ulids.setUlid(a UUID's text) finds that row", 106, () -> {
			try (PreparedStatement ps = c.prepareStatement("SELECT n FROM items WHERE id = ?")) {
				Ulids.setUlid(ps, 1, u6.toString());
				try (ResultSet rs = ps.executeQuery()) {
					return rs.next() ? rs.getInt(1) : null;
				}
			}
		});
		expect("Ulids.createArray into a ulid[] column, Ulids.getUlids out", Arrays.asList(ids.get(0), KNOWN), () -> {
			try (Statement st = c.createStatement()) {
				st.execute("ALTER TABLE items ADD tags ulid[]");
			}
			try (PreparedStatement ps = c.prepareStatement("UPDATE items SET tags = ? WHERE n = 1 RETURNING tags")) {
				ps.setArray(1, Ulids.createArray(c, Arrays.asList(ids.get(0), KNOWN_UUID)));
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					return Arrays.asList(Ulids.getUlids(rs, 1));
				}
			}
		});
		expect("a batch of 100 INSERTs with Ulids.setUlid(UUID)", 100L, () -> {
			try (PreparedStatement ps = c.prepareStatement("INSERT INTO items (id, n) VALUES (?, 1000)")) {
				for (int i = 0; i < 100; i++) {
					Ulids.setUlid(ps, 1, UUID.randomUUID());
					ps.addBatch();
				}
				ps.executeBatch();
			}
			return one(c, "SELECT count(*) FROM items WHERE n = 1000");
		});
		c.close();

		/* server-side prepare from the first execution */
		try (Connection p = DriverManager.getConnection(base + "&prepareThreshold=1");
				PreparedStatement ps = p.prepareStatement("SELECT n FROM items WHERE id = ?::ulid")) {
			List<Integer> got = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				ps.setString(1, ids.get(i));
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					got.add(rs.getInt(1));
				}
			}
			expect("prepareThreshold=1: a server-prepared statement, executed 3 times", "[1, 2, 3] true true",
					() -> got + " " + ps.unwrap(PGStatement.class).isUseServerPrepare() + " "
							+ one(p, "SELECT count(*) > 0 FROM pg_prepared_statements WHERE statement LIKE '%WHERE id = $1::ulid%'"));
		}

		/* stringtype=unspecified: every setString is untyped, the server infers ulid */
		try (Connection u = DriverManager.getConnection(base + "&stringtype=unspecified")) {
			expect("stringtype=unspecified: setString in WHERE", 1, () -> one(u, "SELECT n FROM items WHERE id = ?", ids.get(0)));
			expect("... in INSERT", "01HTQW311N1KR5G0Y75M3EF00P",
					() -> str(u, "INSERT INTO items (id, n) VALUES (?, 104) RETURNING id", "01htqw311n1kr5g0y75m3ef00p"));
			expect("... as a function argument: ulid_time(?)", true, () -> one(u, "SELECT ulid_time(?) = ulid_time(id) FROM items WHERE n = 1", ids.get(0)));
			expectError("... a UUID-shaped string is 22P02, with a hint naming ::uuid::ulid and ulid_parse", "22P02",
					"::uuid::ulid.*ulid_parse", () -> one(u, "SELECT n FROM items WHERE id = ?", KNOWN_UUID.toString()));
		}

		/* binaryTransferEnable naming the ulid OID (the README's pitfall): pgjdbc
		   reads ulid in binary, getString() is then null; getBytes() has the 16 bytes */
		String oid;
		try (Connection o = DriverManager.getConnection(base)) {
			oid = String.valueOf(one(o, "SELECT 'ulid'::regtype::oid"));
		}
		try (Connection b = DriverManager.getConnection(base + "&prepareThreshold=-1&binaryTransferEnable=" + oid);
				PreparedStatement ps = b.prepareStatement("SELECT id, id::text FROM items WHERE id = ?::ulid")) {
			ps.setString(1, ids.get(0));
			try (ResultSet rs = ps.executeQuery()) {
				rs.next();
				expect("binaryTransferEnable=<ulid oid>: getString() is null (the pitfall), getBytes() the 16 bytes, id::text the ULID",
						"null 16 " + ids.get(0), () -> rs.getString(1) + " " + rs.getBytes(1).length + " " + rs.getString(2));
			}
		}
	}
}
