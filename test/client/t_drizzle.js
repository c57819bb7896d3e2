/* Drizzle ORM (npm "drizzle-orm", over node-postgres) against the ulid extension. */
'use strict';

const { Pool } = require('pg');
const { drizzle } = require('drizzle-orm/node-postgres');
const { customType, integer, pgTable } = require('drizzle-orm/pg-core');
const { asc, eq, inArray, lt, sql } = require('drizzle-orm');
const { KNOWN, KNOWN_UUID, ULID_TEXT, connection, check, expect, expectError, run } = require('./check');

/* the column type: values are ULID strings */
const ulid = customType({ dataType: () => 'ulid' });

const items = pgTable('items', {
	id: ulid('id').primaryKey().default(sql`gen_ulid()`),
	n: integer('n'),
});

async function main() {
	/* one connection: ids are strictly increasing within a session (gen_ulid) */
	const pool = new Pool({ ...connection, max: 1 });
	const db = drizzle(pool);
	/* the DDL drizzle-kit generates for this table */
	await db.execute(sql`CREATE TABLE items ("id" ulid PRIMARY KEY DEFAULT gen_ulid() NOT NULL, "n" integer)`);

	const [first] = await db.insert(items).values({ n: 1 }).returning();
	check('insert().returning() gives the DEFAULT id as a string', ULID_TEXT.test(first.id) && first.n === 1, first);
	const more = await db.insert(items).values([{ n: 2 }, { n: 3 }]).returning({ id: items.id });
	const ids = [first.id, ...more.map((r) => r.id)];
	await db.insert(items).values({ id: KNOWN, n: 100 });

	await expect('where(eq(items.id, string))', [{ n: 3 }], db.select({ n: items.n }).from(items).where(eq(items.id, ids[2])));
	await expect('where(inArray(items.id, [...]))', [{ n: 1 }, { n: 2 }],
		db.select({ n: items.n }).from(items).where(inArray(items.id, ids.slice(0, 2))).orderBy(asc(items.n)));
	await expect('orderBy(items.id) is insertion order', ids,
		db.select({ id: items.id }).from(items).where(lt(items.n, 100)).orderBy(items.id).then((r) => r.map((x) => x.id)));
	/* drizzle's node-postgres driver leaves timestamps as strings for its own columns to map */
	const [{ t }] = await db.select({ t: sql`ulid_time(${items.id})`.mapWith((v) => new Date(v)) })
		.from(items).where(eq(items.id, ids[0]));
	check('sql`ulid_time(${items.id})`.mapWith(v => new Date(v)) is a Date of the last minute',
		t instanceof Date && Math.abs(Date.now() - t.getTime()) < 60000, t);
	const byId = db.select({ n: items.n }).from(items).where(eq(items.id, sql.placeholder('id'))).prepare('by_id');
	await expect('a prepared statement with sql.placeholder', [{ n: 100 }], byId.execute({ id: KNOWN }));
	await expect('where(eq(items.id, sql`${uuid string}::uuid`)) (the ulid = uuid operator)', [{ n: 100 }],
		db.select({ n: items.n }).from(items).where(eq(items.id, sql`${KNOWN_UUID}::uuid`)));
	await expectError('a UUID-shaped string is 22P02, with a hint naming ::uuid::ulid and ulid_parse', '22P02',
		db.select().from(items).where(eq(items.id, KNOWN_UUID)), /HINT:.*::uuid::ulid.*ulid_parse/);
	await pool.end();
}

run('drizzle', main);
