import type { Db } from '@server/db/client.js';
import { findProfileByEmail, findProfileById, type ProfileRow } from './repo.js';

// The account rows other modules read, without reaching auth's SQL (eslint.config.js: a module
// uses another through its service). Its own file so that mfa, which auth's service calls, can
// read them without a cycle.

export type { ProfileRow } from './repo.js';

/** The account holding an address (any case), or null. */
export const findAccountByEmail = (db: Db, email: string): Promise<ProfileRow | null> => findProfileByEmail(db, email);
export const findAccountById = (db: Db, id: string): Promise<ProfileRow | null> => findProfileById(db, id);
