// What changed between two revisions of a risk object (docs/design.md section 7: "risk objects
// with their revision history (what changed between revisions)"): every field whose value
// differs, was added or was removed, compared by value (nested objects such as an address
// as a whole).
import { isDeepStrictEqual } from 'node:util';

export interface FieldChange {
  readonly field: string;
  /** undefined: the field was not there before. */
  readonly before: unknown;
  /** undefined: the field is gone. */
  readonly after: unknown;
}

export function revisionChanges(
  previous: Readonly<Record<string, unknown>>,
  current: Readonly<Record<string, unknown>>,
): FieldChange[] {
  const fields = [...new Set([...Object.keys(previous), ...Object.keys(current)])];
  return fields
    .filter((field) => !isDeepStrictEqual(previous[field], current[field]))
    .map((field) => ({ field, before: previous[field], after: current[field] }));
}
