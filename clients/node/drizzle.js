/*
 * Drizzle ORM: the ulid column type.
 *
 *   const { ulid } = require('ulid-pg/drizzle');
 *   const items = pgTable('items', { id: ulid('id').primaryKey().default(sql`gen_ulid()`),
 *                                    tags: ulid('tags').array() });
 *
 * Values are ULID strings; a UUID string is taken and stored as its ULID.
 * For ulid[] columns call registerUlid (require('ulid-pg')) once.
 */
'use strict';

const { customType } = require('drizzle-orm/pg-core');
const { toUlid } = require('./index');

const ulid = customType({
	dataType: () => 'ulid',
	toDriver: (value) => toUlid(value),
});

module.exports = { ulid };
