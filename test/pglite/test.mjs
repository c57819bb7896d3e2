// ulid in PGlite (test/scenarios/pglite.sh): the package clients/pglite as
// npm pack made it, unpacked in $ULID_PGLITE_PACKAGE (or the bundle
// $ULID_PGLITE_BUNDLE alone), loaded by the PGlite release of
// package-lock.json, on a data directory that is closed and opened again.
// One "ok - ..." or "not ok - ..." line per check (test/client/check.js); the
// checks of checks.mjs also run in Chromium (browser.mjs).
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { BACK, afterReopen, keyChecks, lastIds, sqidsChecks } from './checks.mjs';

const require = createRequire(import.meta.url);
const { KNOWN, KNOWN_UUID, ULID_TEXT, check, checkEqual, expect, expectError, run } = require('../../clients/node/test/check.js');

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const { ulid } = process.env.ULID_PGLITE_PACKAGE
	? await import(pathToFileURL(join(process.env.ULID_PGLITE_PACKAGE, 'src/index.js')))
	: { ulid: { name: 'ulid', setup: async () => ({ bundlePath: pathToFileURL(process.env.ULID_PGLITE_BUNDLE) }) } };
const dataDir = mkdtempSync(join(tmpdir(), 'ulid-pglite-'));
const lostDir = `${dataDir}-lost`;
const open = (conf = [], dir = dataDir) =>
	PGlite.create({ dataDir: dir, extensions: { ulid }, postgresqlconf: ['ulid.node_id = 7', ...conf] });
const t = { check, checkEqual, expect, expectError };

let db;
// the first column of each row (as text where the SQL casts it)
const col = async (sql, params) => (await db.query(sql, params, { rowMode: 'array' })).rows.map((r) => r[0]);
const one = async (sql, params) => (await col(sql, params))[0];
const increasing = (a) => a.every((v, i) => i === 0 || a[i - 1] < v);

run('test.mjs', async () => {
	db = await open();
	await db.exec("SET TimeZone = 'UTC'");
	await expect('CREATE EXTENSION ulid installs the bundle\'s version', process.env.ULID_VERSION, async () => {
		await db.exec('CREATE EXTENSION ulid');
		return one("SELECT extversion FROM pg_extension WHERE extname = 'ulid'");
	});

	// gen_ulid() keys, and their order
	await db.exec(`CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int);
		INSERT INTO items (n) SELECT g FROM generate_series(1, 1000) g`);
	const ids = await col('SELECT id::text FROM items ORDER BY n');
	check('gen_ulid() gives 1000 distinct keys, each 26 characters of Crockford Base32',
		new Set(ids).size === 1000 && ids.every((s) => ULID_TEXT.test(s)), ids.slice(0, 3).join(' '));
	checkEqual('ORDER BY id is the insertion order (a session\'s ids increase) and the order of the text',
		{ byId: ids, byText: ids }, { byId: await col('SELECT id::text FROM items ORDER BY id'), byText: [...ids].sort() });
	await expect('ulid_time(gen_ulid()) is now', true,
		one('SELECT abs(extract(epoch FROM ulid_time(gen_ulid()) - now())) < 5'));
	await expect('ulid_time(), ulid_unix_ms() and ulid_random() of a known ULID',
		['2024-04-05 19:34:38.901+00', '1712345678901', '\\x0cf05803c72d06e78011'],
		db.query(`SELECT ulid_time($1)::text, ulid_unix_ms($1)::text, ulid_random($1)::text`, [KNOWN], { rowMode: 'array' })
			.then((r) => r.rows[0]));
	await expect('a range scan with ulid_lower() finds the key', 1,
		one("SELECT count(*)::int FROM items WHERE id >= ulid_lower('2024-04-05 19:34:38.901Z') AND id = (SELECT min(id) FROM items)"));

	// casts
	await expect('casts: ulid to uuid, uuid to ulid, bytea to ulid, ulid to timestamp, timestamp to ulid',
		[KNOWN_UUID, KNOWN, KNOWN, '2024-04-05 19:34:38.901', '01HTQW311N0000000000000000'],
		db.query(`SELECT $1::ulid::uuid::text, $2::uuid::ulid::text, '\\x018eafc184350cf05803c72d06e78011'::bytea::ulid::text,
			$1::ulid::timestamp::text, '2024-04-05 19:34:38.901'::timestamp::ulid::text`, [KNOWN, KNOWN_UUID], { rowMode: 'array' })
			.then((r) => r.rows[0]));
	await expectError('a UUID typed as a ulid is 22P02 with the hint to convert it', '22P02',
		db.query(`SELECT '${KNOWN_UUID}'::ulid`), /This is a UUID: convert it/);
	await expect('the instance goes on after an error', KNOWN, one(`SELECT '${KNOWN.toLowerCase()}'::ulid::text`));

	// text codecs
	await expect('codecs: Base62, radix, TypeID, GSID and ulid_parse()',
		['02zNN0Sv7pLkZf079ZARhu', KNOWN, '1TCKi1nFuNh', '18446744073709551615', 'user_01htqw311n1kr5g0y75m3ef00h', KNOWN,
			'usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y', '01JPHM2B0RF0YRM2H2C0VAG3WE', KNOWN],
		db.query(`SELECT ulid_to_base62('01JPHM2B0RF0YRM2H2C0VAG3WE'), ulid_from_base62(ulid_to_base62($1))::text,
			radix_encode(1234567890123456789), radix_encode(-1, 10), ulid_to_typeid($1, 'user'),
			typeid_to_ulid(ulid_to_typeid($1, 'user'))::text,
			ulid_to_gsid('01JPHM2B0RF0YRM2H2C0VAG3WE', 'usr', 3757087090), gsid_to_ulid('usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y')::text,
			ulid_parse($2)::text`, [KNOWN, KNOWN_UUID], { rowMode: 'array' }).then((r) => r.rows[0]));

	// UUIDv7
	const v7 = await col('SELECT gen_uuidv7()::text FROM generate_series(1, 100)');
	check('gen_uuidv7(): version 7, RFC variant, strictly increasing',
		v7.every((u) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u)) && increasing(v7), v7[0]);
	await expect('gen_uuidv7(at) carries the time', '2024-04-05 19:34:38.901+00',
		one("SELECT ulid_time(gen_uuidv7('2024-04-05 19:34:38.901Z')::ulid)::text"));
	await expect('uuidv7(shift) shifts the time (timestamptz_pl_interval through fmgr)', true,
		one("SELECT abs(extract(epoch FROM uuidv7_time(public.uuidv7('-1 day')) - (now() - interval '1 day'))) < 5"));
	await expectError('uuid_timestamp_to_v7() before 1970 is 22008 naming the timestamp (timestamp_out through fmgr)',
		'22008', db.query("SELECT uuid_timestamp_to_v7('1960-01-01 00:00:00')"), /"1960-01-01 00:00:00"/);

	// Snowflake ids: reading, packing, text forms
	await expect('snowflake_time/unix_ms/field/node/sequence/parts of Discord\'s 175928847299117063',
		['2016-04-30 11:18:25.796+00', '1462015105796', '1', '32', '7',
			'{"time": "2016-04-30T11:18:25.796Z", "worker": 1, "process": 0, "unix_ms": 1462015105796, "sequence": 7}'],
		db.query(`SELECT snowflake_time(175928847299117063, 'discord')::text, snowflake_unix_ms(175928847299117063, 'discord')::text,
			snowflake_field(175928847299117063, 'discord', 'worker')::text, snowflake_node(175928847299117063, 'discord')::text,
			snowflake_sequence(175928847299117063, 'discord')::text, snowflake_parts(175928847299117063, 'discord')::text`,
		[], { rowMode: 'array' }).then((r) => r.rows[0]));
	await expect('snowflake_pack(), snowflake_friendly() in a zone (timestamptz_zone through fmgr) and back, scru64_text()',
		['1541815603606036480', '20220629000740105-0378-0000', '1541815603606036480', '0u375nxqh5cq'],
		db.query(`SELECT snowflake_pack('twitter', '2022-06-28T16:07:40.105Z', 378, 0)::text,
			snowflake_friendly(1541815603606036480, 'twitter', 'Asia/Shanghai'),
			snowflake_from_friendly('20220629000740105-0378-0000', 'twitter', 'Asia/Shanghai')::text,
			scru64_text(110009624767914842)`, [], { rowMode: 'array' }).then((r) => r.rows[0]));
	await expect('CosId codec chains: the README\'s three examples (jsonb read without jsonb_util.c\'s iterators)',
		['O26102714t6PEysfWT', '905478981279559697', 'O261027qZ'],
		db.query(`SELECT snowflake_encode(905478981279559697, 'snowflake_ms', '[{"radix": {"radix": 62}}, {"date_prefix": {"pattern": "yyMMdd", "source": "id_time"}}, {"prefix": "O"}]'),
			snowflake_decode('20261027153012123-0003-0017', 'snowflake_ms', '[{"friendly": {"zone": "Asia/Shanghai"}}]')::text,
			snowflake_encode(3259, 'snowflake_ms', '[{"radix": {"radix": 62}}, {"date_prefix": {"pattern": "yyMMdd", "delimiter": "", "source": "now"}}, {"prefix": "O"}]', '2026-10-27 15:30:12+08')`,
		[], { rowMode: 'array' }).then((r) => r.rows[0]));
	await expect('CosId codec chains: every id decodes back, for 8 codecs on 5 layouts', [],
		col(`SELECT DISTINCT codec FROM (VALUES ('[]'::jsonb), ('[{"radix": {"radix": 62}}]'),
				('[{"radix": {"radix": 36, "width": 13, "pad": true}}, {"prefix": "id_"}]'), ('[{"radix": {"radix": 2}}, {"suffix": "b"}]'),
				('[{"friendly": {"zone": "UTC"}}]'), ('[{"friendly": {"zone": "Asia/Kolkata", "pad": false}}, {"prefix": "T"}]'),
				('[{"radix": {"radix": 62, "width": 11, "pad": true}}, {"date_prefix": {"pattern": "yyyyMMddHH", "delimiter": "-", "source": "id_time"}}, {"prefix": "O"}]'),
				('[{"friendly": {"zone": "Etc/GMT-14"}}, {"date_prefix": {"pattern": "yy/MM/dd", "source": "id_time"}}, {"suffix": "é"}]')) c(codec),
			(VALUES ('twitter'::snowflake_layout), ('snowflake_s'), ('discord'), ('js_safe_ms'), ('sonyflake(epoch=2014-09-01T00:00:00Z)')) t(l),
			LATERAL (SELECT snowflake_pack(l, '2020-01-01T00:00:00Z'::timestamptz + g * interval '3 days 7 hours 11.437 seconds', g % 8, g % 256) AS id
				FROM generate_series(0, 300) g) ids
			WHERE snowflake_decode(snowflake_encode(id, l, codec), l, codec) <> id`));
	// the bad codecs of the regression test and their errors, as its expected output has them
	const out = readFileSync(join(root, 'expected/cosid_codecs.out'), 'utf8');
	const setup = readFileSync(join(root, 'sql/setup.sql'), 'utf8');
	await db.exec(setup.match(/CREATE FUNCTION err\(sql text\)[^]*?\$\$;/)[0]);
	const bad = out.split('-- bad codecs')[1].split(/\n-+\+-+\n/)[1].split('\n(')[0].split('\n')
		.map((line) => line.split(' | ').map((f) => f.trim()));
	const got = await Promise.all(bad.map(([codec]) =>
		one("SELECT err(format('SELECT snowflake_encode(1, %L, %L)', 'twitter', $1::text))", [codec])));
	checkEqual(`CosId codec chains: the ${bad.length} bad codecs of expected/cosid_codecs.out fail as there`,
		bad.map(([, e]) => e), got);
	await expect('a zone AT TIME ZONE does not know: 22023 with its error as the detail (PG_TRY in the side module)',
		out.split(/\n +bad_zone *\n-+\n/)[1].split('\n')[0].trim(),
		one(`SELECT err($$SELECT snowflake_encode(1, 'twitter', '[{"friendly": {"zone": "Mars/Olympus"}}]')$$)`));

	// the server-wide generators: one backend, the state in a DSM segment
	const mono = await col('SELECT gen_monotonic_ulid()::text FROM generate_series(1, 1000)');
	check('gen_monotonic_ulid(): 1000 strictly increasing ids', increasing(mono) && mono.every((s) => ULID_TEXT.test(s)), mono[0]);
	const sf = await col("SELECT snowflake_next('twitter')::text FROM generate_series(1, 1000)");
	check('snowflake_next(\'twitter\'): 1000 strictly increasing ids', increasing(sf.map(BigInt)), sf[0]);
	await expect('snowflake_next() mints on ulid.node_id (postgresqlconf)', '7', one(`SELECT snowflake_node(${sf[0]}, 'twitter')::text`));
	await expect('cosid80_next() mints on node 7', '7', one("SELECT (cosid80_parts(cosid80_next())->>'node')"));
	await expect('ulid_generator_state shows the three states with their persisted floor', ['cosid80', 'snowflake', 'ulid'],
		col('SELECT kind FROM ulid_generator_state WHERE persisted_floor IS NOT NULL ORDER BY kind'));
	const ahead = await one("SELECT snowflake_pack('twitter', now() + interval '1 hour', 7, 0)::text");
	await db.exec(`SELECT snowflake_advance('twitter', 7, ${ahead})`);
	await expect('snowflake_advance() moves the next id past the advance', true,
		one(`SELECT snowflake_next('twitter') > ${ahead}`));
	await expect('snowflake_reset() undoes it', true, db.exec("SELECT snowflake_reset('twitter', 7)").then(() =>
		one(`SELECT snowflake_next('twitter') < ${ahead}`)));
	await expectError('a bad ulid.node_ids is 22023 naming the character, with the hint in the detail', '22023',
		db.query("ALTER SYSTEM SET ulid.node_ids = '3-x'"), /At character 3: .*Write the nodes this server owns/);

	// keys, masks and Sqids (checks.mjs)
	const keys = await keyChecks(db, t);
	await sqidsChecks(db, t);

	// closed and opened again with the clock 10 minutes back: the floor file
	// in the data directory keeps every generator above what it issued
	const last = await lastIds(db);
	await db.close();
	db = await open(BACK);
	await afterReopen(db, t, last, keys);
	const kept = await lastIds(db);
	await db.close();

	// relaxedDurability (clients/pglite/README.md, "Durability"): a tab
	// killed before PGlite's write to IndexedDB loses that session's
	// writes, the floor among them.  Here: the data directory copied, a
	// session on the original 3 s later (past the copy's floor: the last id
	// plus the 1 s reservation), then the copy opened with the clock back, as
	// the relaunched tab would find IndexedDB
	cpSync(dataDir, lostDir, { recursive: true });
	await new Promise((resolve) => setTimeout(resolve, 3000));
	db = await open();
	const lost = await lastIds(db);
	await db.close();
	db = await open(BACK, lostDir);
	const after = await lastIds(db);
	checkEqual('a lost session (relaxedDurability): the generators stay above every id of the sessions kept; '
		+ 'gen_monotonic_ulid() sorts below the lost ids and snowflake_next(), cosid80_next() can repeat them',
		{ aboveKept: [true, true, true], belowLost: [true, true, true] },
		{ aboveKept: [after.mono > kept.mono, BigInt(after.sf) > BigInt(kept.sf), after.cosid > kept.cosid],
			belowLost: [after.mono < lost.mono, BigInt(after.sf) < BigInt(lost.sf), after.cosid < lost.cosid] });
	await db.close();

	// with shared_preload_libraries: the state in the main shared memory
	db = await PGlite.create({ extensions: { ulid }, postgresqlconf: ["shared_preload_libraries = 'ulid'"] });
	await expect('with shared_preload_libraries = \'ulid\' gen_monotonic_ulid() works', true, db.exec('CREATE EXTENSION ulid')
		.then(() => col('SELECT gen_monotonic_ulid()::text FROM generate_series(1, 100)')).then(increasing));
	await db.close();
	rmSync(dataDir, { recursive: true, force: true });
	rmSync(lostDir, { recursive: true, force: true });
});
