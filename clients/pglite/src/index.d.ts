import type { Extension } from '@electric-sql/pglite';

/** The ulid extension: `PGlite.create({ extensions: { ulid } })`, then `CREATE EXTENSION ulid`. */
export declare const ulid: Extension;
export default ulid;
