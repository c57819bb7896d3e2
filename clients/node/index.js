/*
 * ulid-pg: the PostgreSQL ulid type (the ulid extension) for node-postgres
 * and what runs on it (Prisma's adapter-pg, Drizzle, Knex, TypeORM,
 * Sequelize).
 *
 *   const { registerUlid } = require('ulid-pg');
 *   await registerUlid(pool);          // once, before the first query of ulid[]
 *
 * node-postgres sends parameters untyped and returns types it does not know
 * as text, so a ulid already works as a string both ways.  What it cannot
 * know is ulid[]: without a parser it returns the string "{...}", and Prisma
 * then fails every read of a model with a ulid[] field ("e.map is not a
 * function").  registerUlid looks up the OID of ulid[] (it differs per
 * database) and parses it as text[].
 */
'use strict';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ULID_TEXT = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/i;
const UUID_TEXT = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/*
 * registerUlid(queryable, types): look up ulid and ulid[] in this database
 * (a pg Client, Pool or anything with query()) and register ulid[] as an
 * array of strings on types (default: require('pg').types, every client of
 * the process; or the `types` object given to one Pool or Client).  Returns
 * { oid, arrayOid }.
 */
async function registerUlid(queryable, types) {
	const t = types || require('pg').types;
	const { rows } = await queryable.query(
		"SELECT oid::int AS oid, typarray::int AS array_oid FROM pg_type WHERE oid = to_regtype('ulid')");
	if (rows.length === 0)
		throw new Error("type 'ulid' not found: CREATE EXTENSION ulid first");
	const textArray = require('pg').types.getTypeParser(1009, 'text');
	t.setTypeParser(rows[0].array_oid, 'text', textArray);
	return { oid: rows[0].oid, arrayOid: rows[0].array_oid };
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
