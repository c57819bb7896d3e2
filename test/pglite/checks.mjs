// Checks shared by test/pglite/test.mjs (Node.js, dataDir) and page.html
// (headless Chromium, idb://): keys and masks (issue 45's P1: a rolled-back
// key change), Sqids, and the floors across a reopen with the clock set back.
// t is a reporter with check(description, pass, detail), checkEqual,
// expect(description, expected, promise) and expectError(description,
// sqlstate, promise, pattern), as test/client/check.js has them.

export const KNOWN = '01HTQW311N1KR5G0Y75M3EF00H';
// README "Public ids": the key partner imported with SECRET_A masks these
const SECRET_A = '\\x000102030405060708090a0b0c0d0e0f';
const SECRET_B = '\\x0f0e0d0c0b0a09080706050403020100';
const V47 = '018eafc1-8435-795c-a58c-d434d0641a13';
const V47_MASKED_A = '1ace649f-4282-495c-a58c-d434d0641a13';
const SF = '1541815603606036480';
const SF_MASKED_A = '6065481782675100000';
export const BACK = ['ulid.clock_offset_ms = -600000'];

const one = async (db, sql) => (await db.query(sql, [], { rowMode: 'array' })).rows[0][0];
const masks = (db, key) => db.query(`SELECT uuidv47_encode('${V47}', '${key}')::text AS v47,
	snowflake_mask(${SF}, 'twitter', '${key}')::text AS sf, ulid_mask('${KNOWN}', '${key}')::text AS m`).then((r) => r.rows[0]);

// Keys and masks on a fresh database with the extension; returns what
// afterReopen() compares.
export async function keyChecks(db, t) {
	await db.exec(`SELECT ulid_key_create('api', '${SECRET_A}')`);
	const a = await masks(db, 'api');
	t.checkEqual('an imported key masks as README "Public ids" says (uuidv47_encode, snowflake_mask)',
		{ v47: V47_MASKED_A, sf: SF_MASKED_A }, { v47: a.v47, sf: a.sf });
	await t.expect('ulid_unmask(ulid_mask(id)) is the id, the mask is not', [KNOWN, false],
		db.query(`SELECT ulid_unmask('${a.m}', 'api')::text, '${a.m}' = '${KNOWN}'`, [], { rowMode: 'array' }).then((r) => r.rows[0]));

	// P1: key changes follow the transaction (as the relcache invalidation
	// at abort does on a server)
	await db.exec('BEGIN');
	await db.exec(`SELECT ulid_key_drop('api'); SELECT ulid_key_create('api', '${SECRET_B}')`);
	const b = await masks(db, 'api');
	t.check('in its transaction, a re-created key masks with its new secret', b.v47 !== a.v47 && b.m !== a.m, b.v47);
	await db.exec('ROLLBACK');
	await t.expect('after ROLLBACK of ulid_key_drop + ulid_key_create, the committed secret masks again', a, masks(db, 'api'));

	await db.exec('BEGIN');
	await db.exec(`SELECT ulid_key_create('ghost')`);
	await t.expect('a key made in a transaction masks in it', true, one(db, `SELECT ulid_mask('${KNOWN}', 'ghost') IS NOT NULL`));
	await db.exec('ROLLBACK');
	await t.expectError('a rolled-back ulid_key_create(\'ghost\') does not mask (42704)', '42704',
		db.query(`SELECT ulid_mask('${KNOWN}', 'ghost')`), /key "ghost" does not exist/);

	await db.exec(`SELECT ulid_key_create('byname')`);
	const byName = await masks(db, 'byname');
	t.check('a key made by name (from the keyring root in the data directory) masks', byName.m !== KNOWN, byName.m);
	await db.exec('BEGIN');
	await db.exec(`SELECT ulid_key_drop('api')`);
	const inDrop = await db.query(`SELECT (SELECT count(*) FROM ulid_keyring.keys WHERE name = 'api')::int AS n,
		ulid_mask('${KNOWN}', 'byname')::text AS other`).then((r) => r.rows[0]);
	await db.exec('ROLLBACK');
	t.checkEqual('in its transaction the dropped key is gone, other keys mask', { n: 0, other: byName.m }, inDrop);
	await t.expect('after a rolled-back ulid_key_drop the key masks as before', a, masks(db, 'api'));

	await db.exec('BEGIN');
	await db.exec(`SAVEPOINT s; SELECT ulid_key_drop('api'); SELECT ulid_key_create('api', '${SECRET_B}')`);
	const c = await masks(db, 'api');
	await db.exec('ROLLBACK TO SAVEPOINT s');
	const afterSavepoint = await masks(db, 'api');
	await db.exec('COMMIT');
	t.checkEqual('ROLLBACK TO SAVEPOINT undoes a key change (the new secret masked before it)',
		{ inside: b.v47, after: a }, { inside: c.v47, after: afterSavepoint });
	await t.expect('an exception block undoes a key change (a subtransaction)', a.v47, db.exec(`DO $$ BEGIN
			PERFORM ulid_key_drop('api'); PERFORM ulid_key_create('api', '${SECRET_B}');
			PERFORM uuidv47_encode('${V47}', 'api'); RAISE division_by_zero;
		EXCEPTION WHEN division_by_zero THEN NULL; END $$`).then(() => masks(db, 'api')).then((r) => r.v47));

	await db.exec(`SELECT ulid_key_drop('api'); SELECT ulid_key_create('api', '${SECRET_B}')`);
	await t.expect('a committed re-creation masks with the new secret', b, masks(db, 'api'));

	return { byName, b };
}

export async function sqidsChecks(db, t) {
	await t.expect('sqids_encode(\'{1,2,3}\') is 86Rf07 (README) and decodes back', ['86Rf07', '{1,2,3}'],
		db.query("SELECT sqids_encode('{1,2,3}'), sqids_decode('86Rf07')::text", [], { rowMode: 'array' }).then((r) => r.rows[0]));
	await t.expect('Sqids with an alphabet and a minimum length: 10 characters or more, decoding back', [true, '{0,9223372036854775807}'],
		db.query(`SELECT length(s) >= 10, sqids_decode(s, 'abcdefghijklmnopqrstuvwxyz0123', 10)::text
			FROM sqids_encode('{0,9223372036854775807}', 'abcdefghijklmnopqrstuvwxyz0123', 10) s`, [], { rowMode: 'array' })
			.then((r) => r.rows[0]));
	await t.expectError('sqids_decode() of a character outside the alphabet is 22P02', '22P02', db.query("SELECT sqids_decode('86R-07')"));
}

// the last ids of the server-wide generators, before closing
export async function lastIds(db) {
	return (await db.query(`SELECT gen_monotonic_ulid()::text AS mono, snowflake_next('twitter')::text AS sf,
		cosid80_next() AS cosid`)).rows[0];
}

// opened again (the clock 10 minutes back): every generator continues above
// last, and the key made by name masks the same (the root is kept)
export async function afterReopen(db, t, last, keys) {
	await t.expect('opened again: the clock is 10 minutes back', '-600000', one(db, "SELECT current_setting('ulid.clock_offset_ms')"));
	const now = await lastIds(db);
	t.checkEqual('after reopening with the clock back, gen_monotonic_ulid(), snowflake_next() and cosid80_next() continue above',
		{ mono: true, sf: true, cosid: true },
		{ mono: now.mono > last.mono, sf: BigInt(now.sf) > BigInt(last.sf), cosid: now.cosid > last.cosid });
	await t.expect('after reopening, the key made by name and the committed imported key mask as before', [keys.byName, keys.b],
		Promise.all([masks(db, 'byname'), masks(db, 'api')]));
}
