/**
 * The SQLite driver for this runtime: better-sqlite3 13 on Node.js 22 and later, 12 on Node.js 20.
 *
 * Why two: better-sqlite3 12 wraps its objects with Node's own `node::ObjectWrap`, and from Node.js 24.19 that
 * wrapper's destructor asserts an entered environment, so a statement collected by a background GC aborts the
 * process (nodejs/node#65446, WiseLibs/better-sqlite3#1515): on Node 24 the server died at its first idle GC after a
 * write. Version 13 is built on Node-API and is not affected, but it requires Node.js 22 (on 20 it crashes at the
 * first open). The API is the same, so the store picks by runtime here and nowhere else.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

/** The driver's package (a worker thread opening the same file loads it by this name). */
export const SQLITE_DRIVER: string = major >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';

/** The driver's `Database` constructor (`new SqliteDatabase(file)`). */
export const SqliteDatabase: typeof BetterSqlite3 = require(SQLITE_DRIVER);

export type { Database, Statement } from 'better-sqlite3';
