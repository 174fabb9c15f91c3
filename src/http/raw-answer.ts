// The documented error (docs/design.md section 3) as the bytes of a whole HTTP/1.1 answer,
// for the requests Node hands over as a bare socket, with no ServerResponse to write on:
// those its parser refuses (client-errors.ts) and CONNECT (protocol-refusals.ts). The
// connection closes after it.
import { STATUS_CODES } from 'node:http';
import type { ApiError } from '../errors.ts';
import type { Language } from '../i18n/messages.ts';
import { renderErrorBody } from './error-body.ts';
import { SECURITY_HEADERS } from './response-headers.ts';

export function rawErrorAnswer(error: ApiError, language: Language, requestId: string): string {
  const body = JSON.stringify(renderErrorBody(error, language));
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    ...SECURITY_HEADERS,
    ...error.headers,
    connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${head}\r\n${body}`;
}
