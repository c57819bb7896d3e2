package io.github.ulidpg;

import java.nio.ByteBuffer;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Collection;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The PostgreSQL {@code ulid} type (the ulid extension) with JDBC (pgjdbc).
 *
 * <p>pgjdbc types a {@code setString} as {@code varchar} ({@code WHERE id = ?} is then
 * 42883) and a {@code setObject(UUID)} as {@code uuid} (stored into a ulid column by
 * the server's assignment cast from 1.3; 42804 before). {@link #setUlid} sends a ULID string, a UUID's string, a {@link UUID} or 16
 * bytes as the ULID text with no type, which the server takes as a ulid in
 * {@code WHERE}, {@code INSERT} and function arguments alike.
 */
public final class Ulids {
	private static final String ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
	private static final Pattern ULID = Pattern.compile("[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}");
	private static final Pattern UUID_TEXT = Pattern.compile("\\p{XDigit}{8}-?\\p{XDigit}{4}-?\\p{XDigit}{4}-?\\p{XDigit}{4}-?\\p{XDigit}{12}");

	private Ulids() {
	}

	/** ? = a ULID (String of a ULID or a UUID, UUID, byte[16]), or NULL */
	public static void setUlid(PreparedStatement ps, int index, Object value) throws SQLException {
		ps.setObject(index, value == null ? null : toUlid(value), Types.OTHER);
	}

	/** the ULID text of column {@code column} (null for NULL) */
	public static String getUlid(ResultSet rs, int column) throws SQLException {
		return rs.getString(column);
	}

	/** the UUID of the same 16 bytes (null for NULL) */
	public static UUID getUuid(ResultSet rs, int column) throws SQLException {
		String s = rs.getString(column);
		return s == null ? null : toUuid(s);
	}

	/** a ulid[] parameter: {@code ps.setArray(i, Ulids.createArray(conn, ids))} */
	public static Array createArray(Connection c, Collection<?> values) throws SQLException {
		return c.createArrayOf("ulid", values.stream().map(v -> v == null ? null : toUlid(v)).toArray(String[]::new));
	}

	/** a ulid[] column as Strings (getArray() gives PGobjects) */
	public static String[] getUlids(ResultSet rs, int column) throws SQLException {
		Array a = rs.getArray(column);
		if (a == null)
			return null;
		Object[] elements = (Object[]) a.getArray();
		String[] out = new String[elements.length];
		for (int i = 0; i < elements.length; i++)
			out[i] = elements[i] == null ? null : elements[i].toString();
		return out;
	}

	/** the ULID text of a ULID string (any case), a UUID string, a UUID or 16 bytes */
	public static String toUlid(Object value) {
		if (value instanceof UUID)
			return fromBytes(bytesOf((UUID) value));
		if (value instanceof byte[])
			return fromBytes((byte[]) value);
		String s = value.toString();
		if (ULID.matcher(s).matches())
			return s.toUpperCase();
		if (UUID_TEXT.matcher(s).matches())
			return fromBytes(bytesOf(UUID.fromString(s.length() == 36 ? s : s.replaceFirst(
					"(\\p{XDigit}{8})(\\p{XDigit}{4})(\\p{XDigit}{4})(\\p{XDigit}{4})(\\p{XDigit}{12})", "$1-$2-$3-$4-$5"))));
		throw new IllegalArgumentException("not a ULID nor a UUID: " + s);
	}

	/** the UUID of the same 16 bytes as a ULID (what id::uuid gives) */
	public static UUID toUuid(String ulid) {
		ByteBuffer b = ByteBuffer.wrap(toBytes(ulid));
		return new UUID(b.getLong(), b.getLong());
	}

	public static byte[] toBytes(String ulid) {
		if (!ULID.matcher(ulid).matches())
			throw new IllegalArgumentException("not a ULID: " + ulid);
		long hi = 0, lo = 0;
		for (char c : ulid.toUpperCase().toCharArray()) {
			int v = ALPHABET.indexOf(c);
			hi = hi << 5 | lo >>> 59;
			lo = lo << 5 | v;
		}
		return ByteBuffer.allocate(16).putLong(hi).putLong(lo).array();
	}

	public static String fromBytes(byte[] bytes) {
		if (bytes.length != 16)
			throw new IllegalArgumentException("a ULID is 16 bytes, not " + bytes.length);
		ByteBuffer b = ByteBuffer.wrap(bytes);
		long hi = b.getLong(), lo = b.getLong();
		char[] out = new char[26];
		for (int i = 25; i >= 0; i--) {
			out[i] = ALPHABET.charAt((int) (lo & 31));
			lo = lo >>> 5 | hi << 59;
			hi >>>= 5;
		}
		return new String(out);
	}

	private static byte[] bytesOf(UUID u) {
		return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
	}
}
