/*
 * ulid-pg with Prisma 7's driver adapter for node-postgres (npm
 * "@prisma/adapter-pg"), at the adapter's own interface (queryRaw), where
 * Prisma's client reads every row: a ulid[] field arrives there as the string
 * "{...}" and the client fails every read of the model ("e.map is not a
 * function"); after registerUlid it is an array.  The generated client
 * itself needs `prisma generate`, which downloads an engine binary: not
 * reachable here (test/scenarios/client_node.sh says so in a skip line).
 */
'use strict';

const { Pool } = require('pg');
const { PrismaPg } = require('@prisma/adapter-pg');
const { registerUlid, toUlid } = require('ulid-pg');
const { KNOWN, ULID_TEXT, connection, check, checkEqual, run } = require('./check');

const text = { scalarType: 'string', arity: 'scalar' };

async function main() {
	const pool = new Pool({ ...connection, max: 1 });
	/* model Item { id String @id @default(dbgenerated("gen_ulid()")); n Int?; tags String[] },
	   with the columns made ulid and ulid[] by hand (Prisma has no ulid type) */
	await pool.query('CREATE TABLE "Item" (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int, tags ulid[])');
	const { userDefinedTypeParser } = await registerUlid(pool);
	const adapter = await new PrismaPg(pool, { userDefinedTypeParser }).connect();
	const bare = await new PrismaPg(new Pool({ ...connection, max: 1 })).connect();
	const q = (sql, args = []) => adapter.queryRaw({ sql, args, argTypes: args.map(() => text) }).then((r) => r.rows);

	const [[id]] = await q('INSERT INTO "Item" (n, tags) VALUES (1, $1) RETURNING id', [`{${KNOWN}}`]);
	check('INSERT ... RETURNING id (create) gives the ULID string', ULID_TEXT.test(id), id);
	/* adapter-pg reads every row with the process-wide pg.types, which registerUlid leaves alone (issue 43) */
	const [[raw]] = await bare.queryRaw({ sql: 'SELECT tags FROM "Item" WHERE id = $1', args: [id], argTypes: [text] }).then((r) => r.rows);
	checkEqual('without the parser, a ulid[] field is the string {...} (the gap: "e.map is not a function")', `{${KNOWN}}`, raw);
	const [[tags]] = await q('SELECT tags FROM "Item" WHERE id = $1', [id]);
	checkEqual("new PrismaPg(pool, { userDefinedTypeParser }) from registerUlid(pool): an array of strings", [KNOWN], tags);
	const many = await q('INSERT INTO "Item" (n) SELECT g FROM generate_series(2, 51) g RETURNING id');
	check('createManyAndReturn: 50 ids', many.length === 50 && many.every(([x]) => ULID_TEXT.test(x)), many.length);
	const uuid = '018eafc1-8435-0cf0-5803-c72d06e78011';
	await q('INSERT INTO "Item" (id, n) VALUES ($1, 100)', [toUlid(uuid)]);
	const [[n, u]] = await q('SELECT n, id::uuid::text FROM "Item" WHERE id = $1', [toUlid(uuid)]);
	checkEqual('a UUID string through toUlid() is stored and found; id::uuid is that UUID', [100, uuid], [n, u]);
	await adapter.dispose();
	await bare.dispose();
	await pool.end();
}

run('prisma', main);
