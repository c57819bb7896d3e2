/*
 * ulid-pg with node-postgres (npm "pg") and pg-copy-streams, over 127.0.0.1
 * to a server started by test/scenarios/client_node.sh (PGPORT, PGDATABASE;
 * see check.js).
 *
 * Prints one "ok - ..." or "not ok - ..." line per check; exits non-zero
 * when a check failed or the client stopped early.
 */
'use strict';

const { Client } = require('pg');
const { registerUlid, toUlid, toUuid } = require('ulid-pg');
const { to: copyTo, from: copyFrom } = require('pg-copy-streams');
const { pipeline } = require('node:stream/promises');
const { Readable, Writable } = require('node:stream');
const {
	KNOWN, KNOWN_HEX, KNOWN_UUID, ULID_TEXT, connection, check, checkEqual, errorOf, expect, expectError, run,
	UNTOUCHED_TABLE, UNTOUCHED_EXPECTED, untouched,
} = require('./check');

/* COPY ... TO STDOUT as one Buffer */
async function copyOut(client, sql) {
	const chunks = [];
	await pipeline(client.query(copyTo(sql)), new Writable({
		write(chunk, _enc, done) {
			chunks.push(chunk);
			done();
		},
	}));
	return Buffer.concat(chunks);
}

/*
 * COPY ... (FORMAT binary) of the three rows of table "known", byte by byte
 * as PostgreSQL's COPY documentation lays the format out.
 */
const KNOWN_COPY = Buffer.from([
	'5047434f50590aff0d0a00',		/* signature "PGCOPY\n\377\r\n\0" */
	'00000000',						/* flags: no OIDs */
	'00000000',						/* header extension length */
	'0001', '00000010', KNOWN_HEX,	/* 1 field, 16 bytes: the known ULID */
	'0001', '00000010', '00'.repeat(16),	/* 00000000000000000000000000 */
	'0001', '00000010', 'ff'.repeat(16),	/* 7ZZZZZZZZZZZZZZZZZZZZZZZZZ */
	'ffff',							/* trailer: field count -1 */
].join(''), 'hex');
const SIGNATURE = KNOWN_COPY.subarray(0, 11);

/* the fields of a one-column binary COPY stream, read as the format says */
function parseBinaryCopy(buf) {
	if (!buf.subarray(0, 11).equals(SIGNATURE))
		throw new Error('no PGCOPY signature');
	let pos = 11 + 4 + 4 + buf.readInt32BE(15);
	const fields = [];
	for (;;) {
		const count = buf.readInt16BE(pos);
		pos += 2;
		if (count === -1)
			break;
		if (count !== 1)
			throw new Error(`field count ${count} at byte ${pos - 2}`);
		const len = buf.readInt32BE(pos);
		pos += 4;
		fields.push(buf.subarray(pos, pos + len));
		pos += len;
	}
	if (pos !== buf.length)
		throw new Error(`${buf.length - pos} bytes after the trailer`);
	return fields;
}

async function main() {
	const client = new Client(connection);
	await client.connect();
	await client.query('CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int)');
	const ulidOid = (await client.query("SELECT 'ulid'::regtype::oid AS oid")).rows[0].oid;

	/* bind parameters in text format: the server infers ulid from the column */
	let r = await client.query('INSERT INTO items (id, n) VALUES ($1, $2) RETURNING id', [KNOWN, 1]);
	checkEqual('INSERT with a bind parameter returns the ULID as text', KNOWN, r.rows[0].id);
	checkEqual('the result column has the ulid type', ulidOid, r.fields[0].dataTypeID);
	r = await client.query('INSERT INTO items (id, n) VALUES ($1, $2) RETURNING id', ['01htqw311n1kr5g0y75m3ef00j', 2]);
	checkEqual('a lowercase parameter comes back in canonical uppercase', '01HTQW311N1KR5G0Y75M3EF00J', r.rows[0].id);
	r = await client.query('SELECT n FROM items WHERE id = $1', [KNOWN]);
	checkEqual('SELECT ... WHERE id = $1 finds the row', 1, r.rows.length === 1 ? r.rows[0].n : null);

	/* defaults: ids in insertion order, readable as text */
	const ids = [];
	for (let i = 0; i < 50; i++)
		ids.push((await client.query('INSERT INTO items (n) VALUES ($1) RETURNING id', [100 + i])).rows[0].id);
	check('DEFAULT gen_ulid() ids are 26-character ULID text', ids.every((id) => ULID_TEXT.test(id)), ids[0]);
	check('... and increase with every INSERT (text order is ULID order)',
		ids.every((id, i) => i === 0 || ids[i - 1] < id));
	r = await client.query('SELECT id::text AS t, ulid_time(id) AS ts FROM items WHERE id = $1', [ids[0]]);
	checkEqual('id::text reads back the same text', ids[0], r.rows[0].t);
	check('ulid_time(id) arrives as a Date of the last minute',
		r.rows[0].ts instanceof Date && Math.abs(Date.now() - r.rows[0].ts.getTime()) < 60000, r.rows[0].ts);

	/* uuid parameters: explicit cast only */
	r = await client.query('SELECT $1::uuid::ulid AS id', [KNOWN_UUID]);
	checkEqual('a uuid parameter cast explicitly ($1::uuid::ulid)', KNOWN, r.rows[0].id);
	r = await client.query('SELECT $1::ulid::uuid AS u', [KNOWN]);
	checkEqual('a ulid read as uuid ($1::ulid::uuid)', KNOWN_UUID, r.rows[0].u);
	await expect('a value typed uuid is stored into a ulid column: the assignment cast (1.3)', [{ id: '01HTQW311N1KR5G0Y75M3EF00Z' }],
		client.query('INSERT INTO items (id, n) VALUES ($1::uuid, -1) RETURNING id', ['018eafc1-8435-0cf0-5803-c72d06e7801f'])
			.then((q) => q.rows));
	await client.query('DELETE FROM items WHERE n = -1');
	let e;

	await expect('WHERE id = $1::uuid with a UUID string (the ulid = uuid operator)', [{ n: 1 }],
		client.query('SELECT n FROM items WHERE id = $1::uuid', [KNOWN_UUID]).then((q) => q.rows));
	await expectError('a UUID-shaped string for a ulid is 22P02, with a hint naming ::uuid::ulid and ulid_parse',
		'22P02', client.query('SELECT n FROM items WHERE id = $1', [KNOWN_UUID]), /HINT:.*::uuid::ulid.*ulid_parse/);
	await expect('... ulid_parse($1) takes it', [{ n: 1 }],
		client.query('SELECT n FROM items WHERE id = ulid_parse($1)', [KNOWN_UUID]).then((q) => q.rows));

	/* a named (server-side prepared) statement, arrays, order */
	for (const round of [1, 2]) {
		await expect(`a named prepared statement, execution ${round}`, [{ n: 1 }],
			client.query({ name: 'by-id', text: 'SELECT n FROM items WHERE id = $1', values: [KNOWN] }).then((q) => q.rows));
	}
	await expect('id = ANY($1) with a JS array', [{ c: 2 }],
		client.query('SELECT count(*)::int AS c FROM items WHERE id = ANY($1)', [ids.slice(0, 2)]).then((q) => q.rows));
	await expect('ORDER BY id is insertion order', ids,
		client.query('SELECT id FROM items WHERE n >= 100 ORDER BY id').then((q) => q.rows.map((row) => row.id)));
	const agg = 'SELECT array_agg(id ORDER BY id) AS a FROM items WHERE n IN (100, 101)';
	await expect('array_agg(id) is the string {...} before registerUlid (the gap)', `{${ids[0]},${ids[1]}}`,
		client.query(agg).then((q) => q.rows[0].a));
	await client.query(UNTOUCHED_TABLE);
	const store = (sql, values) => client.query(sql, values).then((q) => q.rows);
	await expect('without registerUlid: UUID and ULID strings and Buffers into uuid, text, varchar and bytea columns',
		UNTOUCHED_EXPECTED, untouched(store));
	const other = new Client(connection);
	await other.connect();
	const reg = await registerUlid(client);
	await expect('with registerUlid(client): the same rows (nothing but ulid changes)', UNTOUCHED_EXPECTED, untouched(store));
	/* issue 43 (F4): it used to set the parser on the process-wide pg.types */
	await expect('... and another Client of the process is unchanged (ulid[] still the string {...})', `{${ids[0]},${ids[1]}}`,
		other.query(agg).then((q) => q.rows[0].a));
	await other.end();
	checkEqual('registerUlid(client) finds ulid and ulid[] of this database', [ulidOid, true],
		[reg.oid, reg.arrayOid > 16383]);
	await expect('... then array_agg(id) is an array of strings', ids.slice(0, 2), client.query(agg).then((q) => q.rows[0].a));
	await client.query('ALTER TABLE items ADD tags ulid[]');
	await client.query('UPDATE items SET tags = $1 WHERE id = $2', [ids.slice(0, 3), KNOWN]);
	await expect('a JS array into a ulid[] column, and back', ids.slice(0, 3),
		client.query('SELECT tags FROM items WHERE id = $1', [KNOWN]).then((q) => q.rows[0].tags));

	/* UUID strings: toUlid / toUuid convert (a UUID string for a ulid is 22P02) */
	const u = '018eafc1-8435-0cf0-5803-c72d06e78013';
	r = await client.query('INSERT INTO items (id, n) VALUES ($1, 3) RETURNING id, id::uuid AS u', [toUlid(u)]);
	checkEqual('toUlid(UUID string) stores it; id::uuid gives the same UUID back; toUuid(id) too', [u, u],
		[r.rows[0].u, toUuid(r.rows[0].id)]);

	/* errors carry SQLSTATE, message, detail and hint through the protocol */
	e = await errorOf(client.query('SELECT $1::ulid', ['01HTQW311I1KR5G0Y75M3EF00H']));
	checkEqual('malformed text is SQLSTATE 22P02', '22P02', e && e.code);
	checkEqual('... naming the value', 'invalid input syntax for type ulid: "01HTQW311I1KR5G0Y75M3EF00H"', e && e.message);
	check('... with the reason in the detail and the fix in the hint',
		e && /"I" at position 10/.test(e.detail) && /Crockford/.test(e.hint), e && `${e.detail} / ${e.hint}`);

	/* a binary-format parameter (ulid_recv); node-postgres reads results as text */
	r = await client.query('SELECT $1::ulid::text AS t', [Buffer.from(KNOWN_HEX, 'hex')]);
	checkEqual('a 16-byte Buffer parameter (binary format) is the ULID', KNOWN, r.rows[0].t);
	e = await errorOf(client.query('SELECT $1::ulid::text', [Buffer.from(KNOWN_HEX.slice(2), 'hex')]));
	checkEqual('a 15-byte binary parameter is bad binary data (22P03), not a protocol violation', '22P03', e && e.code);
	checkEqual('... naming the length it got', 'invalid binary length for type ulid: 15 bytes', e && e.message);
	e = await errorOf(client.query('SELECT $1::ulid::text', [Buffer.from(KNOWN)]));
	check('ULID text sent as a binary parameter (26 bytes) is 22P03 with a hint to send it as text',
		e && e.code === '22P03' && /26 bytes/.test(e.message) && /text format/.test(e.hint), e && `${e.code} ${e.message} / ${e.hint}`);

	/* COPY ... TO STDOUT (FORMAT binary): the exact bytes (ulid_send) */
	await client.query(`CREATE TABLE known (n int, id ulid);
		INSERT INTO known VALUES (1, '${KNOWN}'), (2, '00000000000000000000000000'), (3, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ')`);
	const out = await copyOut(client, 'COPY (SELECT id FROM known ORDER BY n) TO STDOUT (FORMAT binary)');
	check('COPY (FORMAT binary) streams the signature, flags, header extension, then per row field count 1, length 16 and the raw bytes, then the trailer',
		out.equals(KNOWN_COPY), `got ${out.toString('hex')}`);

	/* many rows: every field of the stream is the row's bytes, in order */
	await client.query('INSERT INTO items (n) SELECT g FROM generate_series(1000, 2999) g');
	const fields = parseBinaryCopy(await copyOut(client, 'COPY (SELECT id FROM items ORDER BY id) TO STDOUT (FORMAT binary)'));
	r = await client.query("SELECT encode(id::bytea, 'hex') AS h FROM items ORDER BY id");
	check(`COPY (FORMAT binary) of ${r.rows.length} rows: every field is 16 bytes and equals id::bytea`,
		fields.length === r.rows.length && fields.every((f, i) => f.length === 16 && f.toString('hex') === r.rows[i].h),
		`${fields.length} fields`);

	/* and back in: COPY ... FROM STDIN (FORMAT binary) */
	await client.query('CREATE TABLE copied (id ulid)');
	await pipeline(Readable.from([KNOWN_COPY]), client.query(copyFrom('COPY copied FROM STDIN (FORMAT binary)')));
	r = await client.query('SELECT string_agg(id::text, \',\' ORDER BY id) AS ids FROM copied');
	checkEqual('COPY ... FROM STDIN (FORMAT binary) reads the same bytes back',
		`00000000000000000000000000,${KNOWN},7ZZZZZZZZZZZZZZZZZZZZZZZZZ`, r.rows[0].ids);

	/* Snowflake ids above 2^53 (the README's JavaScript pitfall): bigint
	   arrives as an exact string; Number() and JSON numbers round it */
	await client.query("CREATE TABLE sf (id bigint PRIMARY KEY DEFAULT snowflake_next('twitter'), n int)");
	/* an odd id: a double holds twitter ids (about 2^61) to a multiple of
	   512, so a sequence of 0 with a round node could come through exact */
	const sfid = (await client.query("INSERT INTO sf (id, n) VALUES (snowflake_next('twitter') | 1, 1) RETURNING id")).rows[0].id;
	check('a twitter-layout Snowflake id arrives as a string, exact, above 2^53',
		typeof sfid === 'string' && BigInt(sfid) > 2n ** 53n, sfid);
	r = await client.query('SELECT n FROM sf WHERE id = $1', [Number(sfid)]);
	checkEqual('Number(id) rounds it: WHERE id = $1 then finds nothing, without an error', 0, r.rows.length);
	r = await client.query('SELECT n FROM sf WHERE id = $1', [BigInt(sfid)]);
	checkEqual('a BigInt parameter finds the row', 1, r.rows.length);
	r = await client.query("SELECT row_to_json(sf) AS j, json_build_object('id', id::text) AS t FROM sf");
	check('row_to_json writes a JSON number that JSON.parse rounds; id::text in the JSON keeps it',
		String(r.rows[0].j.id) !== sfid && r.rows[0].t.id === sfid, `${r.rows[0].j.id} ${r.rows[0].t.id}`);

	await client.end();
}

run('node-postgres', main);
