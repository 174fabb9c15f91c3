// HTTP as bytes on a socket: for requests that fetch and node:http refuse to send (a
// forged Host, the absolute form, Content-Length with Transfer-Encoding, broken header
// lines, a body trickled byte by byte). The answer is read until the server closes the
// connection or `timeoutMs` passes, and parsed just enough for assertions.
import net from 'node:net';

export interface RawAnswer {
  /** 0 when the server closed without answering. */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The body parsed as JSON, when it is JSON. */
  readonly json: any;
  /** The server ended the connection, not the client's `timeoutMs`. */
  readonly closedByServer: boolean;
  /** Chunks of the trickle not yet written when the connection ended. */
  readonly unsentChunks: number;
}

export interface RawRequestOptions {
  /** Written after the first chunk, one at a time, `intervalMs` apart (a slow client). */
  readonly trickle?: readonly string[];
  readonly intervalMs?: number;
  readonly timeoutMs?: number;
  /** Leave out the empty line that ends the headers: a client stalling in the middle of them. */
  readonly unterminated?: boolean;
}

/** Sends `head` (lines joined with CRLF, ended by an empty line) and then the body. */
export function rawRequest(
  url: string,
  head: readonly string[],
  body = '',
  options: RawRequestOptions = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const rest = [...(options.trickle ?? [])];
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, options.timeoutMs ?? 10_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A server that answers and then resets the connection still answered.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(deadline);
      clearInterval(timer);
      const ending = { closedByServer: !timedOut, unsentChunks: rest.length };
      resolve({ ...parseAnswer(Buffer.concat(chunks).toString('latin1')), ...ending });
    });
    socket.on('connect', () => {
      if (head.length > 0) socket.write(`${head.join('\r\n')}\r\n${options.unterminated ? '' : '\r\n'}${body}`);
      if (rest.length === 0) return;
      timer = setInterval(() => {
        if (socket.destroyed || rest.length === 0) return clearInterval(timer);
        socket.write(rest.shift()!);
      }, options.intervalMs ?? 100);
    });
  });
}

export type ParsedAnswer = Omit<RawAnswer, 'closedByServer' | 'unsentChunks'>;

/** The first answer in `text`: what came back on a raw connection. */
export function parseAnswer(text: string): ParsedAnswer {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: '', json: undefined };
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(end + 4);
  if (headers['content-length'] !== undefined) body = body.slice(0, Number(headers['content-length']));
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, 'latin1').toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body, json };
}
