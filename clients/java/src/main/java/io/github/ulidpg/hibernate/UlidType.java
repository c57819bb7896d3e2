package io.github.ulidpg.hibernate;

import io.github.ulidpg.Ulids;
import java.io.Serializable;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Objects;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.usertype.UserType;

/**
 * Hibernate 6: a {@code ulid} column as a Java {@code String} ({@link UlidStringType}) or
 * {@code java.util.UUID} ({@link UlidUuidType}), both ways, without
 * {@code stringtype=unspecified}:
 *
 * <pre>
 * &#64;Id &#64;Type(UlidUuidType.class) &#64;Column(columnDefinition = "ulid") UUID id;
 * &#64;Id &#64;Type(UlidStringType.class) &#64;Column(columnDefinition = "ulid") String id;
 * </pre>
 *
 * Values are bound as the ULID text with no type ({@link Ulids#setUlid}), so the server
 * takes them as a ulid in INSERT, WHERE and JPQL alike, and read as text.
 */
public abstract class UlidType<J> implements UserType<J> {
	@Override
	public int getSqlType() {
		return Types.OTHER;
	}

	@Override
	public boolean equals(J x, J y) {
		return Objects.equals(x, y);
	}

	@Override
	public int hashCode(J x) {
		return Objects.hashCode(x);
	}

	@Override
	public J nullSafeGet(ResultSet rs, int position, SharedSessionContractImplementor session, Object owner)
			throws SQLException {
		String s = rs.getString(position);
		return s == null ? null : fromUlid(s);
	}

	@Override
	public void nullSafeSet(PreparedStatement st, J value, int index, SharedSessionContractImplementor session)
			throws SQLException {
		Ulids.setUlid(st, index, value);
	}

	@Override
	public J deepCopy(J value) {
		return value; // immutable
	}

	@Override
	public boolean isMutable() {
		return false;
	}

	@Override
	public Serializable disassemble(J value) {
		return value == null ? null : Ulids.toUlid(value);
	}

	@Override
	public J assemble(Serializable cached, Object owner) {
		return cached == null ? null : fromUlid((String) cached);
	}

	/** the Java value of a ULID's text */
	protected abstract J fromUlid(String ulid);
}
