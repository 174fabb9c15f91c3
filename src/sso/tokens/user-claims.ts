// The userinfo answer (docs/design.md section 12); the ID token carries the same claims.
// One schema: it documents and checks the userinfo reply, types userClaims, and names
// the claims the provider releases with `openid`.
import Type, { type Static } from 'typebox';
import type { UserTable } from '../sso.table.ts';

const text = (description: string) => Type.String({ description });

export const Userinfo = Type.Object(
  {
    sub: text('Subject: the user id.'),
    uid: text('User id.'),
    bid: text('Broker id.'),
    did: text('Distribution id: the `{distribution_id}` of the API paths this user may call.'),
    email: text('E-mail address.'),
    username: text('Username.'),
    language: text('Language code, e.g. `nl`.'),
    country: text('Country code, e.g. `BE`.'),
    locale: text('Locale tag, e.g. `nl-BE`.'),
    role: text('Role, e.g. `broker`.'),
    last_login: Type.Union([
      text('Last sign-in, UTC, as a timestamp without zone: `2026-11-20T09:30:00`.'),
      Type.Null(),
    ]),
  },
  { additionalProperties: false, title: 'Userinfo' },
);

export type UserClaims = Static<typeof Userinfo>;

export const USER_CLAIMS = Object.keys(Userinfo.properties) as (keyof UserClaims)[];

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

/** `2026-11-20T09:30:00`: a timestamp without zone, in UTC (docs/design.md section 12). */
export function timestampWithoutZone(iso: string | null): string | null {
  return iso === null ? null : new Date(iso).toISOString().slice(0, 19);
}
