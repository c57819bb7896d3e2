/*
 * ulid-pg: the PostgreSQL ulid type (the ulid extension) for node-postgres
 * and what runs on it (Prisma's adapter-pg, Drizzle, Knex, TypeORM,
 * Sequelize).
 *
 *   const { registerUlid } = require('ulid-pg');
 *   await registerUlid(pool);   // or a Client, a Knex, a Sequelize, a TypeORM DataSource
 *
 * node-postgres sends parameters untyped and returns types it does not know
 * as text, so a ulid already works as a string both ways.  What it cannot
 * know is ulid[]: without a parser it returns the string "{...}", and Prisma
 * then fails every read of a model with a ulid[] field ("e.map is not a
 * function").  registerUlid looks up the OID of ulid[] (it differs per
 * database) and parses it as text[] on that object's connections only (as
 * pgvector's registerTypes(client) does): never on the process-wide
 * pg.types, and it changes no parameter.
 */
'use strict';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ULID_TEXT = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/i;
const UUID_TEXT = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/* the pg module of the application (a peer dependency) */
function pg() {
	return require('pg');
}

/* a TypeOverrides for a Pool's or a Knex's new connections: theirs, or a new one */
function ownTypes(holder) {
	const t = holder.types;
	if (t && t !== pg().types && typeof t.setTypeParser === 'function')
		return t;
	holder.types = new (pg().TypeOverrides)(t || pg().types);
	return holder.types;
}

/*
 * registerUlid(target): look up ulid and ulid[] in target's database and
 * make ulid[] results arrays of strings there.  target is a pg Client (that
 * client), a pg Pool (its clients, present and future), a TypeORM
 * DataSource after initialize() (its pools), a Sequelize (its connections)
 * or a Knex instance (its connections).  Returns { oid, arrayOid,
 * userDefinedTypeParser } (the last for Prisma: new PrismaPg(pool, {
 * userDefinedTypeParser }), as adapter-pg reads with the global parsers).
 * The old second argument, a types object (pg.types or a TypeOverrides), is
 * still taken: the parser then goes there.
 */
async function registerUlid(target, types) {
	const lookup = "SELECT oid::int AS oid, typarray::int AS array_oid FROM pg_type WHERE oid = to_regtype('ulid')";
	let rows;
	let apply;
	if (target && target.driver && target.driver.master) {	/* TypeORM DataSource */
		rows = await target.query(lookup);
		const pools = [target.driver.master, ...(target.driver.slaves || [])];
		apply = (oid, parse) => pools.forEach((p) => onPool(p, oid, parse));
	} else if (target && target.connectionManager && typeof target.query === 'function') {	/* Sequelize */
		rows = await target.query(lookup, { type: 'SELECT' });
		apply = (oid, parse) => target.connectionManager.oidParserMap.set(oid, parse);
	} else if (typeof target === 'function' && target.client && typeof target.raw === 'function') {	/* Knex */
		rows = (await target.raw(lookup)).rows;
		apply = (oid, parse) => {
			ownTypes(target.client.connectionSettings).setTypeParser(oid, 'text', parse);
			const pool = target.client.pool;
			for (const r of (pool && pool.free) || [])
				if (r.resource && r.resource.setTypeParser)
					r.resource.setTypeParser(oid, 'text', parse);
		};
	} else if (target && typeof target.query === 'function') {	/* pg Client or Pool */
		rows = (await target.query(lookup)).rows;
		apply = (oid, parse) => (typeof target.setTypeParser === 'function'
			? target.setTypeParser(oid, 'text', parse) : onPool(target, oid, parse));
	} else {
		throw new TypeError('registerUlid: pass a pg Client or Pool, a Knex, a Sequelize or an initialized TypeORM DataSource');
	}
	if (rows.length === 0)
		throw new Error("type 'ulid' not found: CREATE EXTENSION ulid first");
	const arrayOid = rows[0].array_oid;
	const parse = pg().types.getTypeParser(1009, 'text');
	if (types)
		types.setTypeParser(arrayOid, 'text', parse);
	else
		apply(arrayOid, parse);
	const userDefinedTypeParser = (oid, value) => (oid === arrayOid && typeof value === 'string' ? parse(value) : value);
	return { oid: rows[0].oid, arrayOid, userDefinedTypeParser };
}

/* a pg Pool: the TypeOverrides its new clients take, and its present clients */
function onPool(pool, oid, parse) {
	ownTypes(pool.options).setTypeParser(oid, 'text', parse);
	for (const c of pool._clients || [])
		c.setTypeParser(oid, 'text', parse);
}

/* 16 bytes (a Buffer or Uint8Array) -> the 26-character ULID text */
function fromBytes(bytes) {
	if (bytes.length !== 16)
		throw new RangeError(`a ULID is 16 bytes, not ${bytes.length}`);
	let n = 0n;
	for (const b of bytes)
		n = (n << 8n) | BigInt(b);
	let s = '';
	for (let i = 25; i >= 0; i--)
		s += ALPHABET[Number((n >> BigInt(5 * i)) & 31n)];
	return s;
}

/* ULID text (any case) -> a 16-byte Buffer (also a binary ulid parameter) */
function toBytes(ulid) {
	if (!ULID_TEXT.test(ulid))
		throw new TypeError(`not a ULID: ${JSON.stringify(ulid)}`);
	let n = 0n;
	for (const c of ulid.toUpperCase())
		n = (n << 5n) | BigInt(ALPHABET.indexOf(c));
	const out = Buffer.alloc(16);
	for (let i = 15; i >= 0; i--, n >>= 8n)
		out[i] = Number(n & 255n);
	return out;
}

/* a UUID string (any case, hyphens optional) -> the ULID of the same bytes */
function fromUuid(uuid) {
	if (!UUID_TEXT.test(uuid))
		throw new TypeError(`not a UUID: ${JSON.stringify(uuid)}`);
	return fromBytes(Buffer.from(uuid.replace(/-/g, ''), 'hex'));
}

/* ULID text -> the UUID string of the same bytes (what id::uuid gives) */
function toUuid(ulid) {
	const h = toBytes(ulid).toString('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/* a ULID string from a ULID string (any case) or a UUID string */
function toUlid(value) {
	return UUID_TEXT.test(value) ? fromUuid(value) : fromBytes(toBytes(value));
}

function isUlid(value) {
	return typeof value === 'string' && ULID_TEXT.test(value);
}

module.exports = { registerUlid, fromBytes, toBytes, fromUuid, toUuid, toUlid, isUlid };
