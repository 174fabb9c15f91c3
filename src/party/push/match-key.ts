// Rule 1's third way to find a party (docs/design.md section 2): a customer's email
// (case-insensitive) + birth + address (on its normalised parts), all present. The key is
// stored in a unique column, so concurrent pushes cannot create two parties (rule 10).
// Residences of one party match on the same normalised address (rule 7).
import type { Document, LeadAggregate } from '../model/party.aggregate.ts';

/** The normalised parts of an address, or undefined when it is not an address object. */
export function addressKey(address: unknown): string | undefined {
  if (address === null || typeof address !== 'object') return undefined;
  const a = address as Record<string, unknown>;
  const part = (value: unknown) =>
    typeof value === 'string' ? value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase() : '';
  return [
    part(a.country_code ?? 'BE'),
    part(a.zipcode).replace(/[\s-]/g, ''),
    part(a.city),
    part(a.street),
    part(a.housenr),
    part(a.boxnr),
  ].join('|');
}

export function sameAddress(a: unknown, b: unknown): boolean {
  const key = addressKey(a);
  return key !== undefined && key === addressKey(b);
}

/** A party's match key as its row keeps it: a customer's email + birth + address, else null. */
export function partyMatchKey(party: Pick<LeadAggregate, 'type' | 'fields'>): string | null {
  return party.type === 'CUSTOMER' ? customerMatchKey(party.fields) : null;
}

/** email + birth + address of a customer's fields, or null when one of them is missing. */
export function customerMatchKey(fields: Document): string | null {
  const { email, birth, address } = fields;
  if (typeof email !== 'string' || typeof birth !== 'string') return null;
  const key = addressKey(address);
  if (key === undefined) return null;
  return `${email.trim().toLowerCase()}|${birth}|${key}`;
}
