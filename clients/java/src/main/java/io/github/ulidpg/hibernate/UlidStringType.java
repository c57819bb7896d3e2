package io.github.ulidpg.hibernate;

/** a ulid column as the ULID text (a UUID's text is taken as the ULID of its bytes) */
public class UlidStringType extends UlidType<String> {
	@Override
	public Class<String> returnedClass() {
		return String.class;
	}

	@Override
	protected String fromUlid(String ulid) {
		return ulid;
	}
}
