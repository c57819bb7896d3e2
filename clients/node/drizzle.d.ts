import type { Param, Placeholder } from 'drizzle-orm';
import type { customType } from 'drizzle-orm/pg-core';

/* the ulid column type: values are ULID strings (a UUID string is stored as its ULID) */
export declare const ulid: ReturnType<typeof customType<{ data: string; driverData: string }>>;
/* a placeholder whose value is converted as a ulid column's (UUID strings taken) */
export declare function placeholder<TName extends string>(name: TName): Param<Placeholder<TName, string>, string>;
