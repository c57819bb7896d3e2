/*
 * ulid-pg/typeorm with TypeORM (npm "typeorm", over node-postgres).  TypeORM
 * refuses a column type it does not list; withUlid(dataSource) lists "ulid"
 * before initialize(), and TypeORM creates and keeps ulid columns.
 */
'use strict';

const { DataSource, EntitySchema, In } = require('typeorm');
const { withUlid } = require('ulid-pg/typeorm');
const {
	KNOWN, KNOWN_UUID, ULID_TEXT, connection, check, expect, expectError, run, UNTOUCHED_TABLE, UNTOUCHED_EXPECTED, untouched,
} = require('./check');

const Item = new EntitySchema({
	name: 'Item',
	tableName: 'items',
	columns: {
		id: { type: 'ulid', primary: true, default: () => 'gen_ulid()' },
		n: { type: 'int' },
	},
});

const Part = new EntitySchema({
	name: 'Part',
	tableName: 'parts',
	columns: { id: { type: 'ulid', primary: true, default: () => 'gen_ulid()' } },
	relations: { item: { type: 'many-to-one', target: 'Item', joinColumn: { name: 'item_id' } } },
});

/* the pitfall: an existing ulid table declared as varchar */
const Legacy = new EntitySchema({
	name: 'Legacy',
	tableName: 'legacy',
	columns: { id: { type: 'varchar', primary: true, default: () => 'gen_ulid()' } },
});

function dataSource(entities, synchronize) {
	return withUlid(new DataSource({
		type: 'postgres', ...connection, username: connection.user, entities, synchronize, logging: false,
		poolSize: 1,	/* one connection: ids are strictly increasing within a session (gen_ulid) */
	}));
}

async function main() {
	const plain = new DataSource({ type: 'postgres', ...connection, username: connection.user, entities: [Item, Part] });
	const refused = await plain.initialize().then(() => null, (e) => e);
	check('without withUlid, type "ulid" is refused (DataTypeNotSupportedError)',
		refused !== null && refused.name === 'DataTypeNotSupportedError', refused && `${refused.name}: ${refused.message}`);
	if (plain.isInitialized)
		await plain.destroy();

	const ds = await dataSource([Item, Part], true).initialize();
	await expect('synchronize creates ulid columns with DEFAULT gen_ulid(), and a ulid foreign key',
		[{ c: 'items.id', t: 'ulid', d: 'gen_ulid()' }, { c: 'parts.id', t: 'ulid', d: 'gen_ulid()' }, { c: 'parts.item_id', t: 'ulid', d: null }],
		ds.query(`SELECT attrelid::regclass || '.' || attname AS c, atttypid::regtype::text AS t, pg_get_expr(adbin, adrelid) AS d
			FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
			WHERE attrelid IN ('items'::regclass, 'parts'::regclass) AND atttypid = 'ulid'::regtype ORDER BY 1`));
	const items = ds.getRepository('Item');
	const first = await items.save({ n: 1 });
	check('save() gives the DEFAULT id as a string', ULID_TEXT.test(first.id), first);
	const more = await items.save([{ n: 2 }, { n: 3 }]);
	const ids = [first.id, ...more.map((r) => r.id)];
	check('... save([...]) every id', ids.every((id) => ULID_TEXT.test(id)) && ids[1] < ids[2], ids);
	await items.insert({ id: KNOWN, n: 100 });
	await ds.getRepository('Part').save({ item: { id: ids[0] } });

	await expect('findOneBy({ id })', { id: ids[2], n: 3 }, items.findOneBy({ id: ids[2] }).then((r) => ({ ...r })));
	await expect('find({ where: { id: In([...]) } })', [1, 2],
		items.find({ where: { id: In(ids.slice(0, 2)) }, order: { n: 'ASC' } }).then((r) => r.map((x) => x.n)));
	await expect('order: { id: "ASC" } is insertion order', ids,
		items.find({ order: { id: 'ASC' } }).then((r) => r.filter((x) => x.n < 100).map((x) => x.id)));
	const { t } = await items.createQueryBuilder('i').select('ulid_time(i.id)', 't').where('i.id = :id', { id: ids[0] }).getRawOne();
	check('createQueryBuilder().select("ulid_time(i.id)") is a Date of the last minute',
		t instanceof Date && Math.abs(Date.now() - t.getTime()) < 60000, t);
	await expect('a many-to-one relation through the ulid foreign key', 1,
		ds.getRepository('Part').find({ relations: { item: true } }).then((r) => r[0].item.n));
	await expect('where("i.id = CAST(:id AS uuid)") with a UUID string (the ulid = uuid operator)', 100,
		items.createQueryBuilder('i').where('i.id = CAST(:id AS uuid)', { id: KNOWN_UUID }).getOne().then((r) => r && r.n));
	await expectError('a UUID-shaped string is 22P02, with a hint naming ::uuid::ulid and ulid_parse', '22P02',
		items.findOneBy({ id: KNOWN_UUID }), /HINT:.*::uuid::ulid.*ulid_parse/);

	/* issue 43 (F4): withUlid's initialize() registers ulid[] on this DataSource's pool only */
	await ds.query('CREATE TABLE tagged (id ulid PRIMARY KEY, tags ulid[])');
	await ds.query('INSERT INTO tagged VALUES ($1, $2)', [KNOWN, [ids[0], ids[1]]]);
	await expect('withUlid: after initialize(), a ulid[] column reads as an array', [ids[0], ids[1]],
		ds.query('SELECT tags FROM tagged').then((r) => r[0].tags));
	const bare = await new DataSource({ type: 'postgres', ...connection, username: connection.user }).initialize();
	await bare.query(UNTOUCHED_TABLE);
	await expect('another DataSource without withUlid: ulid[] is still the string {...}', `{${ids[0]},${ids[1]}}`,
		bare.query('SELECT tags FROM tagged').then((r) => r[0].tags));
	await expect('... UUID and ULID strings and Buffers into uuid, text, varchar and bytea columns', UNTOUCHED_EXPECTED,
		untouched((sql, values) => bare.query(sql, values)));
	await bare.destroy();
	await expect('with withUlid: the same rows', UNTOUCHED_EXPECTED, untouched((sql, values) => ds.query(sql, values)));
	await ds.destroy();

	/* a second start: synchronize finds nothing to change and keeps the rows */
	const again = dataSource([Item, Part], false);
	await again.initialize();
	await expect('a second synchronize plans no change to the ulid columns', [],
		again.driver.createSchemaBuilder().log().then((q) => q.upQueries.map((x) => x.query)));
	await again.synchronize();
	await expect('... and keeps the rows', 4, again.getRepository('Item').count());

	/* the pitfall: declaring an existing ulid column as varchar makes synchronize drop it */
	await again.query('CREATE TABLE legacy (id ulid PRIMARY KEY DEFAULT gen_ulid())');
	await again.destroy();
	const legacy = await dataSource([Legacy], false).initialize();
	const plan = await legacy.driver.createSchemaBuilder().log().then((q) => q.upQueries.map((x) => x.query));
	check('the pitfall: an existing ulid column declared as varchar: synchronize would DROP COLUMN "id"',
		plan.some((q) => /ALTER TABLE "legacy" DROP COLUMN "id"/.test(q)), plan);
	await legacy.destroy();
}

run('typeorm', main);
