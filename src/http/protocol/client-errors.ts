// Errors Node's HTTP parser raises before any route runs (docs/design.md section 8): oversized
// headers (431), a request not received within REQUEST_TIMEOUT (408), and bytes that are
// not HTTP/1.1 (400: Content-Length with Transfer-Encoding, a broken header line, an
// unknown method, bad chunk framing). Node hands them to the server's `clientError`
// listener with the socket; Fastify's default writes its own `{error, message,
// statusCode}`. This one writes the documented body instead, on the same condition as
// Node's own handler (nothing of another answer written yet), and closes the connection:
// after a framing error nothing more on it can be trusted.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, type ErrorType, type MessageCode } from '../../errors.ts';
import { rawErrorAnswer } from '../raw-answer.ts';
import { requestIdOf } from '../request-id.ts';
import { isAnsweredBeforeBody } from './unread-body.ts';

interface ClientErrorOptions {
  readonly requestTimeoutMs: number;
}

type Socket = Duplex & { _httpMessage?: ServerResponse | null };

export function clientErrorHandler({ requestTimeoutMs }: ClientErrorOptions) {
  const classify = (
    code: string | undefined,
  ): { status: number; type: ErrorType; code: MessageCode; params?: Record<string, number> } => {
    switch (code) {
      case 'HPE_HEADER_OVERFLOW':
        return { status: 431, type: 'HeaderFieldsTooLarge', code: 'headers_too_large' };
      case 'ERR_HTTP_REQUEST_TIMEOUT':
        return {
          status: 408,
          type: 'RequestTimeout',
          code: 'request_timeout',
          params: { limit: requestTimeoutMs / 1000 },
        };
      default:
        return { status: 400, type: 'BadRequest', code: 'bad_request' };
    }
  };

  return function onClientError(error: NodeJS.ErrnoException, socket: Socket): void {
    // A connection reset needs no answer, and a destroyed socket cannot take one.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // The request has its answer and only the rest of its body was awaited (unread-body.ts):
    // a second answer would be taken for the next request's.
    if (isAnsweredBeforeBody(socket)) {
      socket.destroy();
      return;
    }
    const inFlight = socket._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const { status, type, code, params } = classify(error.code);
      const refusal = new ApiError(status, type, [{ target: '', code, ...(params && { params }) }]);
      // The request in flight (a timed-out body) may have named its own id; otherwise ours.
      const requestId = (inFlight?.req && requestIdOf(inFlight.req)) ?? randomUUID();
      socket.write(rawErrorAnswer(refusal, 'en', requestId));
    }
    socket.destroy(error);
  };
}
