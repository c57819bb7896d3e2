/* ulid-pg/drizzle with Drizzle ORM (npm "drizzle-orm", over node-postgres). */
'use strict';

const { Pool } = require('pg');
const { drizzle } = require('drizzle-orm/node-postgres');
const { integer, pgTable } = require('drizzle-orm/pg-core');
const { arrayContains, asc, eq, inArray, lt, sql } = require('drizzle-orm');
const { ulid, placeholder } = require('ulid-pg/drizzle');
const { KNOWN, KNOWN_UUID, ULID_TEXT, connection, check, expect, run } = require('./check');

const items = pgTable('items', {
	id: ulid('id').primaryKey().default(sql`gen_ulid()`),
	n: integer('n'),
	tags: ulid('tags').array(),
});

async function main() {
	/* one connection: ids are strictly increasing within a session (gen_ulid) */
	const pool = new Pool({ ...connection, max: 1 });
	const db = drizzle(pool);
	/* the DDL drizzle-kit generates for this table */
	await db.execute(sql`CREATE TABLE items ("id" ulid PRIMARY KEY DEFAULT gen_ulid() NOT NULL, "n" integer, "tags" ulid[])`);
	/* Drizzle parses ulid[] itself: no registerUlid */

	const [first] = await db.insert(items).values({ n: 1 }).returning();
	check('insert().returning() gives the DEFAULT id as a string', ULID_TEXT.test(first.id) && first.n === 1, first);
	const more = await db.insert(items).values([{ n: 2 }, { n: 3 }]).returning({ id: items.id });
	const ids = [first.id, ...more.map((r) => r.id)];
	await db.insert(items).values({ id: KNOWN, n: 100, tags: ids });
	await expect('ulid(...).array(): an array in, an array of strings out', ids,
		db.select({ tags: items.tags }).from(items).where(eq(items.id, KNOWN)).then((r) => r[0].tags));
	await expect('where(arrayContains(items.tags, [...]))', [{ n: 100 }],
		db.select({ n: items.n }).from(items).where(arrayContains(items.tags, [ids[1]])));

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
	/* issue 43 (F7): sql.placeholder values skip the column type (22P02 for a UUID string) */
	const byAny = db.select({ n: items.n }).from(items).where(eq(items.id, placeholder('id'))).prepare('by_any');
	await expect("a prepared statement with placeholder('id') from ulid-pg/drizzle: a UUID string", [{ n: 100 }],
		byAny.execute({ id: KNOWN_UUID }));
	await expect('... a lower-case ULID', [{ n: 100 }], byAny.execute({ id: KNOWN.toLowerCase() }));
	await expect('where(eq(items.id, UUID string)): the column type takes it as its ULID', [{ n: 100 }],
		db.select({ n: items.n }).from(items).where(eq(items.id, KNOWN_UUID)));
	const [u] = await db.insert(items).values({ id: '018eafc1-8435-0cf0-5803-c72d06e78014', n: 101 }).returning({ id: items.id });
	check('insert of a UUID string stores its ULID', u.id === '01HTQW311N1KR5G0Y75M3EF00M', u.id);
	const bulk = await db.insert(items).values(Array.from({ length: 100 }, (_, i) => ({ n: 1000 + i }))).returning({ id: items.id });
	check('a 100-row insert returns 100 ids', bulk.length === 100 && bulk.every((r) => ULID_TEXT.test(r.id)), bulk.length);
	await pool.end();
}

run('drizzle', main);
