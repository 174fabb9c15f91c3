// Ids in the app's paths: anything that cannot be one of ours names nothing (404), like an
// id of another distribution (docs/design.md section 7). Its case does not matter: the app's
// parameter check has lower-cased it (http/request-parameters.ts, RFC 9562).
import { isUuid } from '../db/ids.ts';
import { NotFoundError } from '../errors.ts';

/** A path id that cannot be one of ours names nothing. */
export function id(value: string, name: string): string {
  if (!isUuid(value)) throw new NotFoundError(name);
  return value.toLowerCase();
}
