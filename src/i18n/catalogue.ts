// The shape every message catalogue has: one text per MessageCode, so a catalogue that
// misses a code does not compile. Placeholders in braces are filled in by renderMessage:
// {field} (last non-numeric segment of the target) and the problem's params
// ({limit}, {allowed}, {scope}).
import type { MessageCode } from '../errors.ts';

export type Catalogue = Readonly<Record<MessageCode, string>>;
