/* Knex (npm "knex", over node-postgres) against the ulid extension. */
'use strict';

const Knex = require('knex');
const { registerUlid } = require('ulid-pg');
const {
	KNOWN, KNOWN_UUID, ULID_TEXT, connection, check, expect, expectError, run, UNTOUCHED_TABLE, UNTOUCHED_EXPECTED, untouched,
} = require('./check');

async function main() {
	/* one connection: ids are strictly increasing within a session (gen_ulid) */
	const knex = Knex({ client: 'pg', connection, pool: { min: 0, max: 1 } });
	await knex.schema.createTable('items', (t) => {
		t.specificType('id', 'ulid').primary().defaultTo(knex.raw('gen_ulid()'));
		t.integer('n');
	});
	await knex.schema.createTable('parts', (t) => {
		t.specificType('id', 'ulid').primary().defaultTo(knex.raw('gen_ulid()'));
		t.specificType('item_id', 'ulid').references('items.id');
	});
	await expect('createTable with specificType: a ulid key with DEFAULT gen_ulid()', [{ t: 'ulid', d: 'gen_ulid()' }],
		knex.raw(`SELECT atttypid::regtype::text AS t, pg_get_expr(adbin, adrelid) AS d FROM pg_attribute
			JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum WHERE attrelid = 'items'::regclass AND attname = 'id'`)
			.then((r) => r.rows));

	const [first] = await knex('items').insert({ n: 1 }).returning('id');
	check('insert().returning("id") gives the DEFAULT id as a string', ULID_TEXT.test(first.id), first.id);
	const more = await knex('items').insert([{ n: 2 }, { n: 3 }, { n: 4 }]).returning('id');
	const ids = [first.id, ...more.map((r) => r.id)];
	check('... a multi-row insert returns every id', more.length === 3 && ids.every((id) => ULID_TEXT.test(id)), ids);
	await knex('items').insert({ id: KNOWN, n: 100 });
	await knex('parts').insert({ item_id: ids[0] });

	await expect('where({ id })', [{ n: 3 }], knex('items').select('n').where({ id: ids[2] }));
	await expect('whereIn("id", [...])', [{ n: 1 }, { n: 2 }], knex('items').select('n').whereIn('id', ids.slice(0, 2)).orderBy('n'));
	await expect('orderBy("id") is insertion order', ids,
		knex('items').pluck('id').where('n', '<', 100).orderBy('id'));
	const [{ t }] = await knex('items').select(knex.raw('ulid_time(id) AS t')).where({ id: ids[0] });
	check('knex.raw("ulid_time(id)") is a Date of the last minute',
		t instanceof Date && Math.abs(Date.now() - t.getTime()) < 60000, t);
	await expect('a join through the ulid foreign key', [{ n: 1 }],
		knex('parts').join('items', 'items.id', 'parts.item_id').select('items.n'));
	await expect('where("id", knex.raw("?::uuid", [uuid string])) (the ulid = uuid operator)', [{ n: 100 }],
		knex('items').select('n').where('id', knex.raw('?::uuid', [KNOWN_UUID])));
	await expectError('a UUID-shaped string is 22P02, with a hint naming ::uuid::ulid and ulid_parse', '22P02',
		knex('items').where({ id: KNOWN_UUID }), /HINT:.*::uuid::ulid.*ulid_parse/);
	await expect('... knex.raw("ulid_parse(?)") takes it', [{ n: 100 }],
		knex('items').select('n').where('id', knex.raw('ulid_parse(?)', [KNOWN_UUID])));

	/* issue 43 (F4): ulid[] as arrays with registerUlid(knex) (a TypeError before), parameters untouched */
	await knex.raw('ALTER TABLE items ADD tags ulid[]');
	await knex('items').where({ id: KNOWN }).update({ tags: [ids[0], ids[1]] });
	await expect('without registerUlid, a ulid[] column is the string {...}', `{${ids[0]},${ids[1]}}`,
		knex('items').first('tags').where({ id: KNOWN }).then((r) => r.tags));
	await knex.raw(UNTOUCHED_TABLE);
	const store = (sql, values) => knex.raw(sql.replace('$1', '?'), values).then((r) => r.rows);
	await expect('without registerUlid: UUID and ULID strings and Buffers into uuid, text, varchar and bytea columns',
		UNTOUCHED_EXPECTED, untouched(store));
	await registerUlid(knex);
	await expect('registerUlid(knex): a ulid[] column reads as an array', [ids[0], ids[1]],
		knex('items').first('tags').where({ id: KNOWN }).then((r) => r.tags));
	await expect('... and the same rows as without it', UNTOUCHED_EXPECTED, untouched(store));
	await expect('... also on a connection opened after it', [ids[0], ids[1]], (async () => {
		await knex.destroy();
		knex.initialize();
		return knex('items').first('tags').where({ id: KNOWN }).then((r) => r.tags);
	})());
	await expect('columnInfo() reports the column as USER-DEFINED', 'USER-DEFINED', knex('items').columnInfo('id').then((c) => c.type));
	await knex.destroy();
}

run('knex', main);
