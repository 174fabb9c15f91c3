// Ids in the app's paths: anything that cannot be one of ours names nothing (404), like an
// id of another distribution (docs/design.md section 7).
import { NotFoundError } from '../errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that cannot be one of ours names nothing. */
export function id(value: string, name: string): string {
  if (!UUID.test(value)) throw new NotFoundError(name);
  return value.toLowerCase();
}
