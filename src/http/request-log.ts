// What the log holds of a request (docs/design.md section 14; docs/personal-data.md, "What
// the logs hold"): no personal data at any level. A URL can name a person in its query (`?q=<name>`,
// `?external_ref=…`, `export.csv?q=<street>`) and in its path (`/vehicles/<VIN>`,
// `/enterprises/<number>`), so a URL is logged with every query value masked but those of
// a few parameters that cannot name anyone (a page size, a status, a sort order), and with
// every path segment masked that is neither a word of one of the app's routes nor a UUID
// (our ids name no one). Bodies are never logged; the request line carries no headers
// (so no credentials). Errors lose the fields in which PostgreSQL quotes the values
// (`detail`: "Key (match_key)=(…) already exists").
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { stdSerializers } from 'pino';
import { isUuid } from '../db/ids.ts';

const MASK = '*';

/** Query parameters whose values name no one: kept as sent, for an operator's reading. */
const PLAIN_QUERY_PARAMETERS = new Set([
  'limit',
  'status',
  'sort',
  'kind',
  'assignee',
  'updated_since',
  'from',
  'to',
  'saved',
  'replayed',
]);
/** A query parameter's name is kept when it looks like one of ours, else masked too. */
const PARAMETER_NAME = /^[a-z][a-z0-9_]{0,39}$/;
/** What a database error carries beside its message that may quote a row's values. */
const ERROR_FIELDS_WITH_VALUES = ['detail', 'where', 'parameters', 'internalQuery'];

export class RequestLog {
  /** The literal segments of every route the app has (`v1`, `api`, `leads`, `export.csv`...). */
  readonly #routeWords = new Set<string>();

  /**
   * Fastify's logger options with these serializers added: `false` stays `false`. They take
   * the keys Fastify's own lines use (`req`, `err`) and `url`/`originalUrl`, so any line that
   * logs a URL under those names is masked the same way.
   */
  loggerOptions(logger: boolean | object): boolean | object {
    if (logger === false) return false;
    const options = logger === true ? {} : (logger as { serializers?: Record<string, unknown> });
    const url = (value: unknown) => (typeof value === 'string' ? this.loggedUrl(value) : value);
    return {
      ...options,
      serializers: {
        ...options.serializers,
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: this.loggedUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
        url,
        originalUrl: url,
        err: loggedError,
      },
    };
  }

  /** Learns the app's route words; registered before any route. */
  register(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      for (const segment of route.url.split('/')) {
        if (segment !== '' && !segment.includes(':') && !segment.includes('*')) this.#routeWords.add(segment);
      }
    });
  }

  /** `url` (a path with its query) as the log holds it. */
  loggedUrl(url: string): string {
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const loggedPath = path
      .split('/')
      .map((segment) => (segment === '' || isUuid(segment) || this.#routeWords.has(segment) ? segment : MASK))
      .join('/');
    if (queryAt === -1) return loggedPath;
    const query = url
      .slice(queryAt + 1)
      .split('&')
      .map((pair) => {
        const equals = pair.indexOf('=');
        const name = equals === -1 ? pair : pair.slice(0, equals);
        if (!PARAMETER_NAME.test(name)) return MASK;
        if (equals === -1 || PLAIN_QUERY_PARAMETERS.has(name)) return pair;
        return `${name}=${MASK}`;
      })
      .join('&');
    return `${loggedPath}?${query}`;
  }
}

function loggedError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const serialized = stdSerializers.err(error) as unknown as Record<string, unknown>;
  for (const field of ERROR_FIELDS_WITH_VALUES) delete serialized[field];
  return serialized;
}
