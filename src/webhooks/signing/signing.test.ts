import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { generateSecret, signWebhook } from './signing.ts';

describe('signWebhook', () => {
  it('produces v1 HMAC-SHA256 signatures of id.timestamp.body that the standardwebhooks verifier accepts', () => {
    const secret = generateSecret();
    const body = JSON.stringify({ id: 'e1', type: 'lead.created', data: { name: 'Zoë' } });
    const headers = signWebhook([secret], 'e1', new Date(), body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));

    // The same HMAC computed independently, straight from the scheme's definition.
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`e1.${headers['webhook-timestamp']}.${body}`).digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('signs with every given key during a rotation, and each key verifies on its own', () => {
    const [old, current] = [generateSecret(), generateSecret()];
    const headers = signWebhook([current, old], 'e2', new Date(), '{}');
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [old, current]) expect(() => new Webhook(secret).verify('{}', { ...headers })).not.toThrow();
    expect(() => new Webhook(generateSecret()).verify('{}', { ...headers })).toThrow();
    expect(() => new Webhook(current).verify('{"tampered":1}', { ...headers })).toThrow();
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });
});
