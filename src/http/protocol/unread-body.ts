// A request answered before its whole body arrived: a 413 (Fastify answers as soon as
// Content-Length, or the count of bytes read, passes the route's body limit), or a 401,
// 404 or 415 decided from the head alone. Closing the connection with such an answer
// resets it while the client is still sending, and a client that writes its body before
// reading (Node's fetch, Python's urllib) then loses the answer to the reset: EPIPE instead
// of the documented body (RFC 9112 section 9.6, on why a server closes in stages).
//
// So the rest of the body is read and thrown away. A connection that may stay open serves
// the next request after it, as Node's http server does for any keep-alive request whose
// body the handler left. One that closes after this answer (the client said
// `Connection: close`, HTTP/1.0, the process stopping) closes in stages: the answer, then
// our side's FIN, then the rest read until it ends or the client closes, and only then the
// socket. Within bounds (docs/design.md section 8): at most DISCARD_LIMIT_BYTES are thrown
// away, and the whole request must still arrive within REQUEST_TIMEOUT; past either, the
// connection is closed without another answer (the client already has its one).
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Bytes of a refused body read and thrown away before the connection is closed. A client
 * that reads while it writes has its answer long before; this serves clients that write
 * the whole body first, at the cost of reading (not keeping) it.
 */
export const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;

/** Sockets whose request has been answered while its body still arrives. */
const answeredEarly = new WeakSet<Socket>();

/** True while the socket's request has its answer and the rest of its body is being thrown away. */
export function isAnsweredBeforeBody(socket: object): boolean {
  return answeredEarly.has(socket as Socket);
}

export function registerUnreadBodyDiscard(app: FastifyInstance): void {
  // While the process stops, a connection is not kept for what follows on it.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (request, reply, _payload, done) => {
    const { raw } = request;
    if (!raw.complete && !raw.socket.destroyed) {
      // Fastify marks an answer to a body it stopped reading `Connection: close`; the body
      // is thrown away instead, and the connection kept.
      if (!closing && reply.getHeader('connection') === 'close') reply.removeHeader('connection');
      discardRest(raw);
    }
    done();
  });
}

/**
 * Reads the rest of the body into nothing, counting. Started before the answer goes out, so
 * Node's own discarding (IncomingMessage._dump, which drops the bytes before any listener
 * could count them) never takes over.
 */
function discardRest(request: IncomingMessage): void {
  const socket = request.socket;
  let discarded = 0;
  let halfClosed = false;
  // If this answer is the connection's last, Node ends the socket and destroys it as soon
  // as the answer is written, unread bytes or not; instead only our side ends, and the
  // socket goes once the rest has been read.
  const closeInStages = () => {
    halfClosed = true;
    socket.end();
  };
  // net.Socket's own destroySoon, which Node's http server calls after a connection's last answer.
  socket.destroySoon = closeInStages;
  const count = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT_BYTES) socket.destroy();
  };
  const done = () => {
    answeredEarly.delete(socket);
    request.removeListener('data', count);
    if (socket.destroySoon === closeInStages) Reflect.deleteProperty(socket, 'destroySoon');
    if (halfClosed) socket.destroy();
  };
  request.on('data', count);
  request.once('end', done);
  request.once('close', done);
  // From the answer on, a timeout or a framing error in the rest closes the connection
  // without another answer (client-errors.ts).
  answeredEarly.add(socket);
}
