package io.github.ulidpg.hibernate;

import io.github.ulidpg.Ulids;
import java.util.UUID;

/** a ulid column as the java.util.UUID of the same 16 bytes */
public class UlidUuidType extends UlidType<UUID> {
	@Override
	public Class<UUID> returnedClass() {
		return UUID.class;
	}

	@Override
	protected UUID fromUlid(String ulid) {
		return Ulids.toUuid(ulid);
	}
}
