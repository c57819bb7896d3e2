/*
 * Drizzle ORM: the ulid column type.
 *
 *   const { ulid, placeholder } = require('ulid-pg/drizzle');
 *   const items = pgTable('items', { id: ulid('id').primaryKey().default(sql`gen_ulid()`),
 *                                    tags: ulid('tags').array() });
 *   db.select().from(items).where(eq(items.id, placeholder('id'))).prepare('by_id')
 *
 * Values are ULID strings; a UUID string is taken and stored as its ULID.
 * Drizzle parses ulid[] itself (no registerUlid needed).  A value given to
 * sql.placeholder() skips a custom type's toDriver, so a UUID string there
 * would be sent as it is (22P02): placeholder(name) converts it as a column
 * value is converted.
 */
'use strict';

const { Param, sql } = require('drizzle-orm');
const { customType } = require('drizzle-orm/pg-core');
const { toUlid } = require('./index');

const ulid = customType({
	dataType: () => 'ulid',
	toDriver: (value) => toUlid(value),
});

const encoder = { mapToDriverValue: (value) => (value == null ? value : toUlid(value)) };

function placeholder(name) {
	return new Param(sql.placeholder(name), encoder);
}

module.exports = { ulid, placeholder };
