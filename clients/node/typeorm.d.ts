import type { DataSource } from 'typeorm';

/* lists "ulid" among the DataSource's column types; after initialize(), ulid[] reads as arrays */
export declare function withUlid<T extends DataSource>(dataSource: T): T;
