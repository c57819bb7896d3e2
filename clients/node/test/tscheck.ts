/* issue 43 (F6): every subpath export of ulid-pg has its declarations (tsc --strict, t_types.js) */
import { eq } from 'drizzle-orm';
import { integer, pgTable } from 'drizzle-orm/pg-core';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { registerUlid, toUlid } from 'ulid-pg';
import { placeholder, ulid } from 'ulid-pg/drizzle';
import { withUlid } from 'ulid-pg/typeorm';

const items = pgTable('items', { id: ulid('id').primaryKey(), n: integer('n') });
type Item = typeof items.$inferSelect;
const row: Item = { id: toUlid('018eafc1-8435-0cf0-5803-c72d06e78011'), n: 1 };
// @ts-expect-error: a ulid column holds strings
const wrong: Item = { id: 1, n: 1 };
const byId = eq(items.id, placeholder('id'));
const ds: DataSource = withUlid(new DataSource({ type: 'postgres' }));

export async function main(): Promise<number> {
	const { arrayOid, userDefinedTypeParser } = await registerUlid(new Pool());
	await registerUlid(ds);
	userDefinedTypeParser(arrayOid, '{}');
	return arrayOid + row.id.length + (wrong ? 0 : 1) + (byId ? 0 : 1);
}
