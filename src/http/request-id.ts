// Every answer carries an `x-request-id` (docs/design.md section 3), also in the logs. A
// caller's own X-Request-Id is kept so its logs and ours line up, but only when it looks
// like an id: it is echoed in a header and written to every log line of the request, so
// 8 KiB of text, or bytes a terminal interprets, are replaced by an id of ours.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Visible ASCII, as request ids of proxies and tracing systems are. */
const USABLE_ID = /^[\x21-\x7e]{1,128}$/;

/** The caller's X-Request-Id when usable, else undefined. */
export function requestIdOf(request: Pick<IncomingMessage, 'headers'>): string | undefined {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && USABLE_ID.test(sent) ? sent : undefined;
}

export function generateRequestId(request: IncomingMessage): string {
  return requestIdOf(request) ?? randomUUID();
}
