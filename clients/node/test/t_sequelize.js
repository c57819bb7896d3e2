/* Sequelize 6 (npm "sequelize", over node-postgres) against the ulid extension. */
'use strict';

const { DataTypes, Op, Sequelize } = require('sequelize');
const { registerUlid } = require('ulid-pg');
const {
	KNOWN, KNOWN_UUID, ULID_TEXT, connection, check, expect, expectError, run, UNTOUCHED_TABLE, UNTOUCHED_EXPECTED, untouched,
} = require('./check');

async function main() {
	const s = new Sequelize(connection.database, connection.user, null, {
		dialect: 'postgres', host: connection.host, port: connection.port, logging: false,
		pool: { max: 1 },	/* one connection: ids are strictly increasing within a session (gen_ulid) */
	});
	/* a raw type string is taken as it is */
	const ulidKey = { type: 'ulid', primaryKey: true, defaultValue: s.literal('gen_ulid()') };
	const Item = s.define('Item', { id: ulidKey, n: DataTypes.INTEGER }, { tableName: 'items', timestamps: false });
	const Part = s.define('Part', { id: ulidKey }, { tableName: 'parts', timestamps: false });
	Part.belongsTo(Item, { foreignKey: { name: 'item_id', type: 'ulid' } });
	await s.sync({ force: true });
	const columns = `SELECT attrelid::regclass || '.' || attname AS c, atttypid::regtype::text AS t, pg_get_expr(adbin, adrelid) AS d
		FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
		WHERE attrelid IN ('items'::regclass, 'parts'::regclass) AND atttypid = 'ulid'::regtype ORDER BY 1`;
	const expected = [{ c: 'items.id', t: 'ulid', d: 'gen_ulid()' }, { c: 'parts.id', t: 'ulid', d: 'gen_ulid()' },
		{ c: 'parts.item_id', t: 'ulid', d: null }];
	await expect('sync() creates ulid columns with DEFAULT gen_ulid(), and a ulid foreign key', expected,
		s.query(columns, { type: 'SELECT' }));

	const first = await Item.create({ n: 1 });
	check('create() gives the DEFAULT id as a string', ULID_TEXT.test(first.id), first.id);
	const more = await Item.bulkCreate([{ n: 2 }, { n: 3 }], { returning: true });
	const ids = [first.id, ...more.map((r) => r.id)];
	check('bulkCreate({ returning: true }) gives every id', ids.every((id) => ULID_TEXT.test(id)) && ids[1] < ids[2], ids);
	await Item.create({ id: KNOWN, n: 100 });
	await Part.create({ item_id: ids[0] });

	await expect('findByPk(string)', 3, Item.findByPk(ids[2]).then((r) => r.n));
	await expect('where: { id: [...] }', [1, 2],
		Item.findAll({ where: { id: ids.slice(0, 2) }, order: [['n', 'ASC']] }).then((r) => r.map((x) => x.n)));
	await expect('order: [["id", "ASC"]] is insertion order', ids,
		Item.findAll({ where: { n: { [Op.lt]: 100 } }, order: [['id', 'ASC']] }).then((r) => r.map((x) => x.id)));
	const row = await Item.findOne({ attributes: [[s.fn('ulid_time', s.col('id')), 't']], where: { id: ids[0] }, raw: true });
	check("attributes: [[fn('ulid_time', col('id')), 't']] is a Date of the last minute",
		row.t instanceof Date && Math.abs(Date.now() - row.t.getTime()) < 60000, row.t);
	await expect('include: through the ulid foreign key', 1, Part.findOne({ include: Item }).then((r) => r.Item.n));
	await expect("where: s.where(s.col('id'), s.cast(uuid string, 'uuid')) (the ulid = uuid operator)", 100,
		Item.findOne({ where: s.where(s.col('id'), s.cast(KNOWN_UUID, 'uuid')) }).then((r) => r && r.n));
	await expectError('a UUID-shaped string is 22P02, with a hint naming ::uuid::ulid and ulid_parse', '22P02',
		Item.findByPk(KNOWN_UUID), /HINT:.*::uuid::ulid.*ulid_parse/);

	/* issue 43 (F4): ulid[] as arrays with registerUlid(sequelize) (a TypeError before), parameters untouched */
	await s.query('CREATE TABLE tagged (id ulid PRIMARY KEY, tags ulid[])');
	const Tagged = s.define('Tagged', { id: { type: 'ulid', primaryKey: true }, tags: { type: 'ulid[]' } },
		{ tableName: 'tagged', timestamps: false });
	await Tagged.create({ id: KNOWN, tags: [ids[0], ids[1]] });
	await expect('without registerUlid, a ulid[] column is the string {...}', `{${ids[0]},${ids[1]}}`,
		Tagged.findByPk(KNOWN).then((r) => r.tags));
	await s.query(UNTOUCHED_TABLE);
	const store = (sql, values) => s.query(sql, { bind: values, type: 'SELECT' });
	await expect('without registerUlid: UUID and ULID strings and Buffers into uuid, text, varchar and bytea columns',
		UNTOUCHED_EXPECTED, untouched(store));
	await registerUlid(s);
	await expect('registerUlid(sequelize): a ulid[] column reads as an array', [ids[0], ids[1]],
		Tagged.findByPk(KNOWN).then((r) => r.tags));
	await expect('... and the same rows as without it', UNTOUCHED_EXPECTED, untouched(store));

	await s.sync({ alter: true });
	await expect('sync({ alter: true }) keeps the ulid columns and their defaults', expected, s.query(columns, { type: 'SELECT' }));
	await expect('... and the rows', 4, Item.count());
	await s.close();
}

run('sequelize', main);
