// The userinfo answer (specification, "Userinfo"); the ID token carries the same claims.
import type { UserTable } from './sso.table.ts';

export const USER_CLAIMS = ['sub', 'uid', 'bid', 'did', 'email', 'username', 'language', 'country', 'locale', 'role', 'last_login'] as const;

export type UserClaims = { sub: string } & Record<Exclude<(typeof USER_CLAIMS)[number], 'sub'>, string | null>;

export function userClaims(user: UserTable): UserClaims {
  return {
    sub: user.id,
    uid: user.id,
    bid: user.broker_id,
    did: user.distribution_id,
    email: user.email,
    username: user.username,
    language: user.language,
    country: user.country,
    locale: user.locale,
    role: user.role,
    last_login: timestampWithoutZone(user.last_login),
  };
}

/** `2026-11-20T09:30:00`: the specification's "timestamp without zone", in UTC. */
export function timestampWithoutZone(iso: string | null): string | null {
  return iso === null ? null : new Date(iso).toISOString().slice(0, 19);
}
