// Requests Node's http server (or Fastify, while closing) would answer itself, before any
// route, in a body of its own: they are answered in the documented body instead, with an
// x-request-id (docs/design.md sections 3 and 8).
//
// - An Expect other than 100-continue: 417 ExpectationFailed (RFC 9110 section 10.1.1).
//   Node emits `checkExpectation` and, unheard, answers 417 with an empty body; here the
//   request goes on to the app and the hook below refuses it. `100-continue` is answered
//   when the body is about to be read (late-continue.ts).
// - An HTTP/1.1 request without Host, or any with two (RFC 9112 section 3.2): 400 BadRequest
//   on `Host`. Node refuses the first itself with an empty body (its requireHostHeader,
//   turned off in app.ts) and lets the second through.
// - CONNECT: no route tunnels, so 404 as for any method no route has. Node hands CONNECT
//   over as a bare socket (`connect`) and, unheard, destroys it without an answer.
// - A request arriving on an open connection while the process stops: 503
//   ServiceUnavailable, so that a load balancer sends it elsewhere. Fastify's own
//   (return503OnClosing, turned off in app.ts) has its own body.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiError, NotFoundError } from '../../errors.ts';
import { chooseLanguage } from '../../i18n/messages.ts';
import { rawErrorAnswer } from '../raw-answer.ts';
import { requestIdOf } from '../request-id.ts';

/** Requests whose expectation Node found unmet (it emits `checkExpectation` for them alone). */
const unmetExpectations = new WeakSet<IncomingMessage>();

/** Registers the listeners and the hook; call it after the hook that sets x-request-id. */
export function registerProtocolRefusals(app: FastifyInstance): void {
  const server = app.server;
  server.on('checkExpectation', (request, response) => {
    unmetExpectations.add(request);
    server.emit('request', request, response);
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const language = chooseLanguage(undefined, request.headers['accept-language']);
    socket.on('error', () => {});
    socket.end(rawErrorAnswer(new NotFoundError(), language, requestIdOf(request) ?? randomUUID()), () =>
      socket.destroy(),
    );
  });

  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.raw;
    if (unmetExpectations.has(raw)) {
      return done(new ApiError(417, 'ExpectationFailed', [{ target: 'Expect', code: 'expectation_failed' }]));
    }
    const hosts = hostLines(raw);
    if (hosts > 1 || (hosts === 0 && raw.httpVersion === '1.1')) {
      return done(new ApiError(400, 'BadRequest', [{ target: 'Host', code: hosts > 1 ? 'invalid' : 'missing' }]));
    }
    // Another process, or this one restarted, takes it at once: a client that honours
    // Retry-After (RFC 9110 section 10.2.3), as the TypeScript client does, sends it again.
    if (closing) {
      return done(
        new ApiError(503, 'ServiceUnavailable', [{ target: '', code: 'shutting_down' }], {
          headers: { 'retry-after': '1' },
        }),
      );
    }
    done();
  });
}

/** How many Host lines the request had (Node keeps the first of several in `headers`). */
function hostLines(request: IncomingMessage): number {
  const raw = request.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}
