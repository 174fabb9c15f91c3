// `Expect: 100-continue` (RFC 9110 section 10.1.1): the client holds its body back until the
// server says 100 Continue. Node says it as soon as the headers arrive, so a request the
// server will refuse anyway (no or wrong credentials, a missing scope, a body over the
// route's limit) still made the client send its whole body first. Here 100 Continue goes out
// only when the route is about to read the body and the announced length fits its limit;
// every earlier refusal is the final answer instead, and the body is never sent.
import type { FastifyInstance } from 'fastify';

/** Call before the routes are registered; the preParsing hook covers every route. */
export function registerLateContinue(app: FastifyInstance): void {
  // Heard, `checkContinue` stops Node's own 100 Continue; the request goes on as usual.
  app.server.on('checkContinue', (request, response) => app.server.emit('request', request, response));
  // Async on purpose: its tick lets Node's parser reach a malformed chunked body (its 400)
  // before an unknown route's 404 is sent; as a callback hook the 404 went out first
  // (test/http-protocol-errors.test.ts, "a chunk size that is not hexadecimal").
  app.addHook('preParsing', async (request, reply, payload) => {
    const response = reply.raw;
    if (response.headersSent || !expectsContinue(request.headers.expect)) return payload;
    const announced = Number(request.headers['content-length']);
    // Over the limit: Fastify's 413 is the answer, and the client keeps its body. (An unknown
    // route still reads its body before its 404, so it is told to go on.)
    if (!(announced > request.routeOptions.bodyLimit)) response.writeContinue();
    return payload;
  });
}

function expectsContinue(expect: string | undefined): boolean {
  return expect?.trim().toLowerCase() === '100-continue';
}
