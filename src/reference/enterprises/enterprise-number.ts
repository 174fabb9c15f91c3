// Belgian enterprise numbers (KBO/BCE): ten digits, the last two a mod-97 check of the
// first eight (97 - n mod 97). Written `0200.065.765`; VAT number `BE0200065765`. The one
// reading of the ways a person writes one, for the enterprise lookup and search here and
// for the broker app's inbox search (party/inbox/inbox.repository.ts).

/** The text without its separators (spaces, `.`, `-`, `/`) and without a leading `BE`. */
function compact(text: string): string {
  return text.replace(/[\s.\-/]/g, '').replace(/^BE/i, '');
}

/**
 * The ten digits of a number as a person may type it (`0200.065.765`, `BE 0200065765`,
 * `0200/065/765`, `200065765`), or undefined when it is not written as one. The check is
 * not verified: the inbox finds a lead by the number its partner sent, valid or not.
 */
export function enterpriseNumberDigits(text: string): string | undefined {
  const digits = compact(text);
  return /^\d{9,10}$/.test(digits) ? digits.padStart(10, '0') : undefined;
}

/** The ten digits of a number as a person may type it, or undefined when it is not one or fails its check. */
export function parseEnterpriseNumber(text: string): string | undefined {
  const digits = enterpriseNumberDigits(text);
  return digits !== undefined && hasValidCheck(digits) ? digits : undefined;
}

function hasValidCheck(digits: string): boolean {
  const base = Number(digits.slice(0, 8));
  return 97 - (base % 97) === Number(digits.slice(8));
}

/** `0200065765` -> `0200.065.765` */
export function formatEnterpriseNumber(digits: string): string {
  return `${digits.slice(0, 4)}.${digits.slice(4, 7)}.${digits.slice(7)}`;
}

/**
 * A query that is a number being typed (`0200.06`, `BE02000`): its digits, or undefined
 * for text. Searches then look for numbers starting with them.
 */
export function numberPrefix(text: string): string | undefined {
  const digits = compact(text);
  return /^\d{1,10}$/.test(digits) ? digits : undefined;
}

/** The numeric range [low, high] of the ten-digit numbers that start with `prefix`. */
export function prefixRange(prefix: string): [number, number] {
  const missing = 10 - prefix.length;
  return [Number(prefix) * 10 ** missing, (Number(prefix) + 1) * 10 ** missing - 1];
}
