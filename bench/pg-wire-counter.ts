// A counting relay between a server and PostgreSQL, for any revision's server: it passes
// every byte through and counts, from the wire protocol, the statements the server sends
// (a simple Query, or an Execute of the extended protocol) and the round trips it waits
// for (each ReadyForQuery ends one). Nothing in the server needs to count for itself.
import net, { type AddressInfo } from 'node:net';

export interface WireCounts {
  readonly statements: number;
  readonly roundTrips: number;
}

export interface WireCounter {
  /** The database URL with the relay as its host. */
  readonly url: string;
  counts(): WireCounts;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

/**
 * Splits one direction of a connection into messages and hands each message's type to
 * `onType`. The client's first messages carry no type byte (SSL or GSS request, then
 * the startup message); the server answers an SSL or GSS request with one bare byte.
 */
class MessageReader {
  #buffer: Buffer = Buffer.alloc(0);
  /** Untyped messages still to come (client side), or bare bytes to skip (server side). */
  untyped = 0;
  skipBytes = 0;
  readonly #onType: (type: number) => void;
  readonly #onUntyped: (code: number) => void;
  constructor(onType: (type: number) => void, onUntyped: (code: number) => void = () => {}) {
    this.#onType = onType;
    this.#onUntyped = onUntyped;
  }

  push(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      if (this.skipBytes > 0) {
        if (this.#buffer.length === 0) return;
        this.#buffer = this.#buffer.subarray(1);
        this.skipBytes--;
        continue;
      }
      if (this.untyped > 0) {
        if (this.#buffer.length < 8) return;
        const length = this.#buffer.readInt32BE(0);
        if (this.#buffer.length < length) return;
        this.untyped--;
        this.#onUntyped(this.#buffer.readInt32BE(4));
        this.#buffer = this.#buffer.subarray(length);
        continue;
      }
      if (this.#buffer.length < 5) return;
      const length = this.#buffer.readInt32BE(1);
      if (this.#buffer.length < 1 + length) return;
      this.#onType(this.#buffer[0]!);
      this.#buffer = this.#buffer.subarray(1 + length);
    }
  }
}

export async function startWireCounter(databaseUrl: string): Promise<WireCounter> {
  const target = new URL(databaseUrl);
  const host = target.hostname || '127.0.0.1';
  const port = Number(target.port || 5432);
  let statements = 0;
  let roundTrips = 0;
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(port, host);
    sockets.add(client).add(upstream);
    const fromServer = new MessageReader((type) => {
      if (type === 0x5a /* Z: ReadyForQuery */) roundTrips++;
    });
    const fromClient = new MessageReader(
      (type) => {
        if (type === 0x51 /* Q: Query */ || type === 0x45 /* E: Execute */) statements++;
      },
      (code) => {
        // An encryption request is answered by one byte, and the startup message follows it.
        if (code === SSL_REQUEST || code === GSS_REQUEST) {
          fromServer.skipBytes++;
          fromClient.untyped++;
        }
      },
    );
    fromClient.untyped = 1;
    client.on('data', (chunk: Buffer) => {
      fromClient.push(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      fromServer.push(chunk);
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const relayed = new URL(databaseUrl);
  relayed.hostname = '127.0.0.1';
  relayed.port = String((relay.address() as AddressInfo).port);
  return {
    url: relayed.toString(),
    counts: () => ({ statements, roundTrips }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
    },
  };
}
