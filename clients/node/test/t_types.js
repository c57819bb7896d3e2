/*
 * The TypeScript declarations of ulid-pg (issue 43, F6): tsc --strict
 * type-checks tscheck.ts, which imports every subpath export ('ulid-pg',
 * 'ulid-pg/drizzle', 'ulid-pg/typeorm'); a missing declaration file is
 * TS7016.
 */
'use strict';

const { execFileSync } = require('node:child_process');
const { check, run } = require('./check');

async function main() {
	const tsc = require.resolve('typescript/bin/tsc');
	const version = require('typescript/package.json').version;
	let out = '';
	try {
		execFileSync(process.execPath, [tsc, '--noEmit', '--strict', '--skipLibCheck', '--module', 'node16',
			'--moduleResolution', 'node16', '--target', 'es2022', 'tscheck.ts'], { encoding: 'utf8', cwd: __dirname });
	} catch (e) {
		out = `${e.stdout || ''}${e.stderr || ''}`.trim().replace(/\n/g, ' | ');
	}
	check(`tsc ${version} --strict: ulid-pg, ulid-pg/drizzle and ulid-pg/typeorm have declarations that type-check`, out === '', out);
}

run('types', main);
