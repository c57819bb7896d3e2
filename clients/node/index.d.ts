export interface TypeParsers {
	setTypeParser(oid: number, format: 'text', parser: (value: string) => unknown): void;
}
export interface Queryable {
	query(sql: string): Promise<{ rows: any[] }>;
}
export function registerUlid(queryable: Queryable, types?: TypeParsers): Promise<{ oid: number; arrayOid: number }>;
export function fromBytes(bytes: Uint8Array): string;
export function toBytes(ulid: string): Buffer;
export function fromUuid(uuid: string): string;
export function toUuid(ulid: string): string;
export function toUlid(value: string): string;
export function isUlid(value: unknown): value is string;
