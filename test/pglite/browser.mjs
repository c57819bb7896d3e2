// The checks of checks.mjs in headless Chromium (test/scenarios/pglite.sh):
// a local HTTP server (node:http, 127.0.0.1, a free port) serves page.html,
// checks.mjs, PGlite's dist (/pglite/) and the package $ULID_PGLITE_PACKAGE
// (npm pack's output, unpacked: /pkg/); Chromium ($ULID_CHROMIUM, default
// /usr/bin/chromium) on a new profile loads the page, which makes the database in
// IndexedDB (idb://), then reloads it, which opens it again with the clock
// back.  Prints the page's "ok"/"not ok" lines; exit 1 on any "not ok".
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const here = dirname(fileURLToPath(import.meta.url));
const roots = {
	'/pglite/': join(here, 'node_modules/@electric-sql/pglite/dist'),
	'/pkg/': process.env.ULID_PGLITE_PACKAGE,
};
const files = { '/': join(here, 'page.html'), '/checks.mjs': join(here, 'checks.mjs') };
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
	'.gz': 'application/gzip', '.data': 'application/octet-stream', '.map': 'application/json' };

const server = createServer((req, res) => {
	const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
	const prefix = Object.keys(roots).find((p) => path.startsWith(p));
	const file = files[path] ?? (prefix && !normalize(path).includes('..') ? join(roots[prefix], path.slice(prefix.length)) : null);
	let body;
	try {
		body = file && readFileSync(file);
	} catch {
		body = null;
	}
	if (!body) {
		res.writeHead(404).end();
		return;
	}
	res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const profile = mkdtempSync(join(tmpdir(), 'ulid-chromium-'));
let failed = 0;
const browser = await puppeteer.launch({
	executablePath: process.env.ULID_CHROMIUM || '/usr/bin/chromium',
	headless: true,
	userDataDir: profile,
	args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
	const page = await browser.newPage();
	page.on('console', (m) => m.type() === 'error' && console.log(`# console: ${m.text()}`));
	page.on('pageerror', (e) => console.log(`# page error: ${e.message}`));
	const results = async () => {
		await page.waitForFunction('window.done === true', { timeout: 240000, polling: 500 });
		for (const line of await page.evaluate('window.results')) {
			if (line.startsWith('not ok')) failed++;
			console.log(line.replace(/^(ok|not ok) - /, '$1 - Chromium: '));
		}
	};
	await page.goto(url);
	await results();
	await page.reload();
	await results();
} catch (e) {
	failed++;
	console.log(`not ok - browser.mjs ran to the end (${e.message})`);
} finally {
	await browser.close();
	server.close();
	rmSync(profile, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
