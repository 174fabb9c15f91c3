// Standard Webhooks signatures (https://www.standardwebhooks.com/, docs/design.md section 5):
// `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with
// the distribution's `whsec_` secret. The HMAC itself is the `standardwebhooks` package's,
// the one receivers are told to verify with. During a rotation every valid key signs, and
// the signatures travel space-separated in the one header (the scheme's way to rotate).
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const SECRET_PREFIX = 'whsec_';
/** The scheme asks for 24 to 64 random bytes; 32 matches the HMAC-SHA256 block strength. */
const SECRET_BYTES = 32;

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export interface SignedHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/** Keyed signers, built once per secret (the secret is base64-decoded on construction). */
const signers = new Map<string, Webhook>();
const MAX_SIGNERS = 1_000;

function signerFor(secret: string): Webhook {
  let signer = signers.get(secret);
  if (signer === undefined) {
    if (signers.size >= MAX_SIGNERS) signers.delete(signers.keys().next().value!);
    signer = new Webhook(secret);
    signers.set(secret, signer);
  }
  return signer;
}

/** The three Standard Webhooks headers for one attempt; `secrets` are every key valid now. */
export function signWebhook(secrets: readonly string[], id: string, at: Date, body: string): SignedHeaders {
  if (secrets.length === 0) throw new Error('no signing key');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => signerFor(secret).sign(id, at, body)).join(' '),
  };
}
