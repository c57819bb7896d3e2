/*
 * Shared by the Node.js client tests (and test/pglite/test.mjs): result lines and the
 * connection settings.  Each program connects to 127.0.0.1 at $PGPORT,
 * database $PGDATABASE (made by test/scenarios/client_node.sh with the ulid
 * extension), and prints one "ok - ..." or "not ok - ..." line per check; a
 * check whose body throws is a "not ok" line with the error, and the next
 * check still runs.
 */
'use strict';

const util = require('node:util');

const KNOWN = '01HTQW311N1KR5G0Y75M3EF00H';
const KNOWN_HEX = '018eafc184350cf05803c72d06e78011';
const KNOWN_UUID = '018eafc1-8435-0cf0-5803-c72d06e78011';
const ULID_TEXT = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

const connection = {
	host: '127.0.0.1',
	port: Number(process.env.PGPORT || 5432),
	user: 'postgres',
	database: process.env.PGDATABASE || 'postgres',
};

let failed = 0;

function check(description, pass, detail) {
	if (pass) {
		console.log(`ok - ${description}`);
	} else {
		failed++;
		console.log(`not ok - ${description}${detail === undefined ? '' : ` (${detail})`}`);
	}
	return pass;
}

function show(v) {
	return util.inspect(v, { depth: 4, breakLength: Infinity });
}

function checkEqual(description, expected, actual) {
	return check(description, util.isDeepStrictEqual(expected, actual), `expected ${show(expected)}, got ${show(actual)}`);
}

/* the error of the driver, which an ORM may wrap: Drizzle's cause, TypeORM's driverError, Sequelize's parent */
function driverError(e) {
	return e.code ? e : (e.cause || e.driverError || e.parent || e.original || e);
}

function describeError(wrapped) {
	const e = driverError(wrapped);
	return [e.code, e.message, e.detail && `DETAIL: ${e.detail}`, e.hint && `HINT: ${e.hint}`]
		.filter(Boolean).join(' ');
}

/* ok when the promise (or async function) resolves to expected */
async function expect(description, expected, body) {
	try {
		return checkEqual(description, expected, await (typeof body === 'function' ? body() : body));
	} catch (e) {
		return check(description, false, `${e.name}: ${describeError(e)}`);
	}
}

/* the error a promise (or async function) rejects with, or null */
async function errorOf(body) {
	try {
		await (typeof body === 'function' ? body() : body);
		return null;
	} catch (e) {
		return e;
	}
}

/*
 * ok when body rejects with an error of that SQLSTATE (of the driver's
 * error, see driverError) whose message, detail and hint match the regular
 * expression pattern, if given
 */
async function expectError(description, sqlstate, body, pattern) {
	const e = await errorOf(body);
	if (!e)
		return check(description, false, `no error, expected SQLSTATE ${sqlstate}`);
	const err = driverError(e);
	const text = describeError(e);
	return check(description, err.code === sqlstate && (!pattern || pattern.test(text)), `${e.name}: ${text}`);
}

/* run main(); an exception outside a check is a failure; exit status */
function run(name, main) {
	main().then(() => {
		process.exit(failed ? 1 : 0);
	}, (err) => {
		check(`${name} ran to the end`, false, err.stack || String(err));
		process.exit(1);
	});
}

/*
 * Issue 43: an adapter changes nothing but ulid values.  UNTOUCHED_TABLE's
 * columns get UUID strings, ULID strings and Buffers; untouched(query) stores
 * each case with query(sql, [value]) (a promise of rows) and returns what the
 * column then holds as text, or the error's SQLSTATE, so that a run before
 * and one after registration compare.
 */
const UNTOUCHED_TABLE = 'CREATE TABLE untouched (u uuid, t text, v varchar, b bytea)';
const UNTOUCHED_CASES = [
	['u', '41424344-4546-4748-494a-4b4c4d4e4f50'], ['t', KNOWN_UUID], ['v', KNOWN_UUID],
	['t', KNOWN], ['v', KNOWN.toLowerCase()], ['b', Buffer.from(KNOWN_HEX, 'hex')], ['b', Buffer.from('ABCDEFGHIJKLMNOP')],
];
const UNTOUCHED_EXPECTED = ['41424344-4546-4748-494a-4b4c4d4e4f50', KNOWN_UUID, KNOWN_UUID, KNOWN, KNOWN.toLowerCase(),
	KNOWN_HEX, Buffer.from('ABCDEFGHIJKLMNOP').toString('hex')];

async function untouched(query) {
	const out = [];
	for (const [col, value] of UNTOUCHED_CASES) {
		const as = col === 'b' ? "encode(b, 'hex')" : `${col}::text`;
		try {
			const rows = await query(`INSERT INTO untouched (${col}) VALUES ($1) RETURNING ${as} AS x`, [value]);
			out.push(rows[0].x);
		} catch (e) {
			out.push(`error ${driverError(e).code || e.name}`);
		}
	}
	return out;
}

module.exports = {
	KNOWN, KNOWN_HEX, KNOWN_UUID, ULID_TEXT, connection,
	check, checkEqual, expect, errorOf, expectError, run,
	UNTOUCHED_TABLE, UNTOUCHED_EXPECTED, untouched,
};
