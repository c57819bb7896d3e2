// The ulid extension for PGlite: PGlite.create({ extensions: { ulid } }),
// then CREATE EXTENSION ulid.  The bundle (release/ulid.tar.gz: the
// WebAssembly side module, ulid.control and the SQL scripts) is built by
// test/pglite/build.sh in the ulid repository for the PGlite releases of
// package.json's peer range.  PGlite fetches bundlePath: in a browser the
// file must be served next to this module (bundlers such as Vite emit
// new URL('...', import.meta.url) as an asset).
const setup = async (_pg, emscriptenOpts) => ({
	emscriptenOpts,
	bundlePath: new URL('../release/ulid.tar.gz', import.meta.url),
});

export const ulid = { name: 'ulid', setup };
export default ulid;
