// The shape every message catalogue has: one text per MessageCode, so a catalogue that
// misses a code does not compile. Placeholders in braces are filled in by renderMessage:
// {field} (last non-numeric segment of the target) and the problem's params
// ({limit}, {allowed}, {scope}). A value refused for its form gets `invalid_form`, with
// {expected} one of `forms` (docs/design.md section 16).
import type { ExpectedForm, MessageCode } from '../errors.ts';

export type Catalogue = Readonly<Record<MessageCode, string>> & {
  /** The specification's `invalid` sentence with the expected form after a colon. */
  readonly invalid_form: string;
  readonly forms: Readonly<Record<ExpectedForm, string>>;
};
