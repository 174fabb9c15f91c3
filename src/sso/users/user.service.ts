// Broker user accounts that sign in at the embedded provider (docs/design.md section 4;
// `lead-intake user create|list|disable`). Passwords are argon2id hashes; the listing
// never shows them.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { requireDistribution } from '../../distributions/distribution.service.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, hashPassword } from './password.ts';
import type { UserTable } from '../sso.table.ts';
import {
  findUserById,
  listActiveUsers,
  findUserByLogin,
  insertUser,
  listUsers as selectUsers,
  setUserDisabled,
} from './user.repository.ts';

/** A bad value for a user field; the message names the field. */
export class UserInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserInputError';
  }
}

export class UnknownUserError extends Error {
  constructor(reference: string) {
    super(`unknown user ${JSON.stringify(reference)}`);
    this.name = 'UnknownUserError';
  }
}

export interface NewUser {
  readonly distributionId: string;
  readonly email: string;
  readonly username: string;
  /** The name shown to colleagues and partners; the username stands in when left out. */
  readonly name?: string | undefined;
  readonly password: string;
  readonly brokerId?: string | undefined;
  readonly language?: string | undefined;
  readonly country?: string | undefined;
  readonly locale?: string | undefined;
  readonly role?: string | undefined;
}

/** What may be shown about a user: never the password hash. */
export type UserListing = Omit<UserTable, 'password_hash' | 'email_key' | 'username_key'>;

const MAX_NAME_LENGTH = 100;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// No `@`, so a login that contains one is an email and any other is a username.
const USERNAME = /^[\p{L}\p{N}._-]{3,64}$/u;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The lookup key of a login (email or username): both are unique without regard to case. */
export function loginKey(login: string): string {
  return login.trim().toLowerCase();
}

export async function createUser(db: Kysely<Database>, input: NewUser): Promise<UserListing> {
  const email = input.email.trim();
  const username = input.username.trim();
  const name = input.name?.trim() || null;
  const language = (input.language ?? 'nl').trim().toLowerCase();
  const country = (input.country ?? 'BE').trim().toUpperCase();
  const locale = input.locale?.trim() || `${language}-${country}`;
  const role = (input.role ?? 'broker').trim();
  const brokerId = input.brokerId?.trim() || randomUUID();
  if (!EMAIL.test(email)) throw new UserInputError(`email ${JSON.stringify(email)} is not an e-mail address`);
  if (!USERNAME.test(username)) {
    throw new UserInputError('username must be 3 to 64 letters, digits, dots, hyphens or underscores');
  }
  if (!/^[a-z]{2}$/.test(language)) throw new UserInputError('language must be a two-letter code such as nl');
  if (!/^[A-Z]{2}$/.test(country)) throw new UserInputError('country must be a two-letter code such as BE');
  if (!/^[a-z]{2}(-[A-Z]{2})?$/.test(locale)) throw new UserInputError('locale must be a tag such as nl-BE');
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(role)) throw new UserInputError('role must be a lower-case word such as broker');
  if (name !== null && (name.length > MAX_NAME_LENGTH || /\p{Cc}/u.test(name)))
    throw new UserInputError(`name must be at most ${MAX_NAME_LENGTH} characters, without control characters`);
  if (!UUID.test(brokerId)) throw new UserInputError('broker id must be a UUID');
  if ([...input.password].length < MIN_PASSWORD_LENGTH) {
    throw new UserInputError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (input.password.length > MAX_PASSWORD_LENGTH) {
    throw new UserInputError(`the password must have at most ${MAX_PASSWORD_LENGTH} characters`);
  }
  const row: UserTable = {
    id: randomUUID(),
    broker_id: brokerId.toLowerCase(),
    distribution_id: input.distributionId,
    email,
    username,
    name,
    email_key: loginKey(email),
    username_key: loginKey(username),
    // Hashed before the transaction: argon2 takes tens of milliseconds by design.
    password_hash: await hashPassword(input.password),
    language,
    country,
    locale,
    role,
    created_at: new Date().toISOString(),
    disabled_at: null,
    last_login: null,
  };
  try {
    await db.transaction().execute(async (trx) => {
      await requireDistribution(trx, row.distribution_id);
      await insertUser(trx, row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new UserInputError('a user with this email or username exists already');
    throw error;
  }
  return toListing(row);
}

export async function listUsers(
  db: Kysely<Database>,
  filter: { distributionId?: string } = {},
): Promise<UserListing[]> {
  if (filter.distributionId !== undefined) await requireDistribution(db, filter.distributionId);
  return (await selectUsers(db, filter.distributionId)).map(toListing);
}

/** A user as colleagues and partners see them: the username stands in for a missing name. */
export interface ActiveUser {
  readonly id: string;
  readonly username: string;
  readonly name: string;
}

/** The distribution's active users (docs/api.md, "Users"): who a lead may be assigned to. */
export async function listActiveUsersOf(db: Kysely<Database>, distributionId: string): Promise<ActiveUser[]> {
  const rows = await listActiveUsers(db, distributionId);
  return rows.map(({ id, username, name }) => ({ id, username, name: name ?? username }));
}

/** Disables a user (by id, email or username): no more sign-ins, tokens or userinfo. */
export async function disableUser(db: Kysely<Database>, reference: string, now = new Date()): Promise<UserListing> {
  return db.transaction().execute(async (trx) => {
    const user = UUID.test(reference)
      ? await findUserById(trx, reference.toLowerCase())
      : await findUserByLogin(trx, loginKey(reference));
    if (!user) throw new UnknownUserError(reference);
    await setUserDisabled(trx, user.id, now.toISOString());
    return toListing((await findUserById(trx, user.id))!);
  });
}

/** The user, when it exists and is not disabled. */
export async function findActiveUser(db: Kysely<Database>, id: string): Promise<UserTable | undefined> {
  const user = await findUserById(db, id);
  return user && user.disabled_at === null ? user : undefined;
}

function toListing({
  password_hash: _hash,
  email_key: _email,
  username_key: _username,
  ...listing
}: UserTable): UserListing {
  return listing;
}
