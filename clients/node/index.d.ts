export interface TypeParsers {
	setTypeParser(oid: number, format: 'text', parser: (value: string) => unknown): void;
}
/* a pg Client or Pool, a Knex, a Sequelize or an initialized TypeORM DataSource */
export type UlidTarget = { query(sql: string, ...rest: any[]): Promise<any> } | ((...args: any[]) => any);
export interface Registered {
	oid: number;
	arrayOid: number;
	/* for Prisma: new PrismaPg(pool, { userDefinedTypeParser }) */
	userDefinedTypeParser(oid: number, value: unknown): unknown;
}
export function registerUlid(target: UlidTarget, types?: TypeParsers): Promise<Registered>;
export function fromBytes(bytes: Uint8Array): string;
export function toBytes(ulid: string): Buffer;
export function fromUuid(uuid: string): string;
export function toUuid(ulid: string): string;
export function toUlid(value: string): string;
export function isUlid(value: unknown): value is string;
