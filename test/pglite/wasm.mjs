// What test/pglite/build.sh reads from the PGlite release on npm.
//
//   node wasm.mjs flags DIST       shell assignments: the release's PostgreSQL
//                                  and Emscripten versions, and the CFLAGS and
//                                  LDFLAGS_SL its own extensions are built with
//                                  (from the Makefile.global packed in
//                                  pglite.data)
//   node wasm.mjs imports DIST SO  the imports of side module SO that PGlite
//                                  does not provide, one a line; exit 1 if any
//
// DIST is the package's dist directory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [cmd, dist, so] = process.argv.slice(2);
const js = readFileSync(join(dist, 'pglite.js'), 'latin1');

// a file of the packed file system (pglite.data), by its path there
function packed(path) {
	const m = js.match(new RegExp(`\\{filename:"${path}",start:(\\d+),end:(\\d+)\\}`));
	if (!m) throw new Error(`${path} is not in pglite.data`);
	return readFileSync(join(dist, 'pglite.data')).subarray(Number(m[1]), Number(m[2])).toString('latin1');
}

const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;

if (cmd === 'flags') {
	const mk = packed('/pglite/lib/postgresql/pgxs/src/Makefile.global');
	const make = (name, op = '=') => {
		const m = mk.match(new RegExp(`^${name} ${op.replace('+', '\\+')} *(.*)$`, 'm'));
		if (!m) throw new Error(`Makefile.global sets no ${name}`);
		return m[1].trim();
	};
	// "PostgreSQL 18.7 (PGlite 0.5.17) on wasm32-unknown-emscripten, compiled by emcc (...) 6.0.13 (...)"
	const wasm = readFileSync(join(dist, 'pglite.wasm')).toString('latin1');
	const v = wasm.match(/PostgreSQL ([0-9.]+) \(PGlite ([^)]+)\) on wasm32[^,]*, compiled by emcc \([^)]*\) ([0-9.]+)/);
	if (!v) throw new Error('pglite.wasm names no PostgreSQL and Emscripten version');
	const out = {
		PGLITE_VERSION: v[2],
		PGLITE_PG_VERSION: v[1],
		PGLITE_PG_MAJOR: make('MAJORVERSION'),
		PGLITE_EMCC_VERSION: v[3],
		PGLITE_CFLAGS: make('CFLAGS'),
		PGLITE_LDFLAGS_SL: make('LDFLAGS_SL', '+='),
	};
	for (const [k, val] of Object.entries(out)) console.log(`${k}=${quote(val)}`);
} else if (cmd === 'imports') {
	const exportsOf = (file) =>
		new Set(WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(file))).map((e) => e.name));
	const main = exportsOf(join(dist, 'pglite.wasm'));
	const side = new WebAssembly.Module(readFileSync(so));
	const own = new Set(WebAssembly.Module.exports(side).map((e) => e.name));
	// what the loader gives a side module besides the main module's exports:
	// the JS library functions (pglite.js's wasmImports), the invoke_*
	// trampolines of setjmp/longjmp, memory, table and the base globals
	const lib = js.match(/var wasmImports=\{([^}]*)\}/);
	const given = new Set((lib ? lib[1] : '').split(',').map((kv) => kv.split(':')[0]));
	for (const n of ['memory', '__indirect_function_table', '__memory_base', '__table_base', '__stack_pointer']) given.add(n);
	const missing = WebAssembly.Module.imports(side)
		.filter((i) => !main.has(i.name) && !own.has(i.name) && !given.has(i.name) && !i.name.startsWith('invoke_'))
		.map((i) => `${i.module}.${i.name}`);
	for (const m of missing) console.log(m);
	process.exit(missing.length ? 1 : 0);
} else {
	console.error('usage: node wasm.mjs flags DIST | imports DIST SO');
	process.exit(2);
}
