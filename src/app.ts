// Builds the Fastify application from a Config and an open database. The process
// concerns (listening, signals, logger destination) live in server.ts, so tests build
// their own app against their own database.
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { systemClock, type Clock } from './clock.ts';
import { HEADERS_TIMEOUT_MS, type Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { createAjvCompilers } from './http/validation.ts';
import { registerErrorHandling, sendError } from './http/error-handler.ts';
import { NotFoundError } from './errors.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { originForm } from './http/protocol/request-target.ts';
import { registerParameterChecks } from './http/request-parameters.ts';
import { registerRateLimit } from './http/rate-limit/rate-limit.ts';
import { registerIdempotency } from './idempotency/idempotency.plugin.ts';
import { clientErrorHandler } from './http/protocol/client-errors.ts';
import { registerUnreadBodyDiscard } from './http/protocol/unread-body.ts';
import { registerProtocolRefusals } from './http/protocol/protocol-refusals.ts';
import { registerLateContinue } from './http/protocol/late-continue.ts';
import { generateRequestId } from './http/request-id.ts';
import { RequestLog } from './http/request-log.ts';
import { SECURITY_HEADERS, registerResponseHeaders } from './http/response-headers.ts';
import { registerOpenApi } from './ops/openapi.ts';
import { registerOperationalRoutes } from './ops/operational.routes.ts';
import { createTransactionRunner } from './db/transaction-runner.ts';
import { registerParty } from './party/index.ts';
import { distributionUsersRoutes } from './distributions/distribution-users.routes.ts';
import { createSsoRuntime, registerSso } from './sso/sso.plugin.ts';
import { apiTokenVerifier } from './auth/api-token.service.ts';
import { findApiToken } from './auth/api-token.repository.ts';
import { registerTokenCheckInWrite } from './auth/token-check-in-write.ts';
import { createAuthenticator } from './auth/authorize.ts';
import { bearerTokenVerifier } from './auth/bearer-token.ts';
import { WebhookOutbox } from './webhooks/webhook.outbox.ts';
import { registerWebhooks } from './webhooks/webhook.plugin.ts';
import { registerBrokerApp } from './broker-app/broker-app.plugin.ts';
import { registerReferenceData } from './reference/reference.plugin.ts';

export interface AppDependencies {
  readonly config: Config;
  readonly database: DatabaseHandle;
  /** pino options or false; server.ts passes its logger settings, tests usually pass false. */
  readonly logger?: boolean | object;
  /** What expiries, windows and schedules are decided by: the system's unless a test moves its own. */
  readonly clock?: Clock;
}

export type App = FastifyInstance;

export async function buildApp({
  config,
  database,
  logger = false,
  clock = systemClock,
}: AppDependencies): Promise<App> {
  // No personal data in the log at any level (docs/design.md section 14): request lines,
  // URLs and errors go through its serializers, in every app, whatever logger it is given.
  const requestLog = new RequestLog();
  const app = Fastify({
    logger: requestLog.loggerOptions(logger),
    bodyLimit: config.bodyLimit,
    // X-Forwarded-For names the caller only when it comes from a proxy we were told to
    // trust; otherwise any client could pick the address the login throttle counts.
    trustProxy: typeof config.trustProxy === 'boolean' ? config.trustProxy : [...config.trustProxy],
    // protocol-refusals.ts answers requests that arrive while closing, in the documented body.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    rewriteUrl: originForm,
    // A caller's own X-Request-Id is kept when it looks like one (request-id.ts).
    requestIdHeader: false,
    genReqId: generateRequestId,
    // Slow or stalled requests are cut off (docs/design.md section 8): the whole request within
    // REQUEST_TIMEOUT, its headers within HEADERS_TIMEOUT_MS of that; Node checks every
    // connection this often, so a limit holds to within that interval.
    requestTimeout: config.requestTimeoutMs,
    http: {
      // protocol-refusals.ts refuses a missing Host in the documented body.
      requireHostHeader: false,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(config.requestTimeoutMs / 4)),
    },
    // Errors of Node's HTTP parser (431, 408, framing), in the documented body.
    clientErrorHandler: clientErrorHandler({ requestTimeoutMs: config.requestTimeoutMs }),
    // A URL that cannot even be decoded (`/v1/api/%zz`) names no route: answered like any
    // unknown route, in the documented body, instead of Fastify's own.
    frameworkErrors: (_error, request, reply) =>
      sendError(new NotFoundError(), request, reply.header('x-request-id', request.id).headers(SECURITY_HEADERS)),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const compilers = createAjvCompilers();
  app.setValidatorCompiler(compilers.validatorCompiler);
  requestLog.register(app);
  registerResponseHeaders(app);
  registerProtocolRefusals(app);
  registerLateContinue(app);
  registerErrorHandling(app);
  registerJsonBodyParser(app);
  registerUnreadBodyDiscard(app);
  registerParameterChecks(app);
  await registerOpenApi(app, config);
  registerOperationalRoutes(app, database);

  // The API's credentials, per app (tests build several, each with its own database and
  // issuer); decorated before the routes that check them are registered.
  const sso = createSsoRuntime(config, database, app.log);
  app.decorate(
    'authenticate',
    createAuthenticator({
      apikey: apiTokenVerifier(database.db, () => new Date(clock.now())),
      bearer: bearerTokenVerifier(sso),
    }),
  );
  // A token let through from memory (a push's) is checked before any answer leaves.
  registerTokenCheckInWrite(app, (id) => findApiToken(database.db, id));

  // Before the routes: it hooks every route added after it (rate-limit.ts).
  await registerRateLimit(app, config, clock);
  // One runner for every write, so SQLite's group commit covers pushes and updates alike.
  const transactions = createTransactionRunner(database);
  // Before the routes too: it hooks every write route under /v1/api/ added after it.
  registerIdempotency(app, {
    config,
    database,
    write: database.dialect === 'sqlite' ? (work) => transactions.run(work) : (work) => work(database.db),
    clock,
  });

  // Pushes, party updates and erasures write their webhook events here, in their own transaction.
  const outbox = new WebhookOutbox(clock);
  const party = await registerParty(app, { config, database, transactions, outbox, validation: compilers, clock });
  await app.register(distributionUsersRoutes, { prefix: '/v1/api', database });
  await registerReferenceData(app, config, database);
  registerWebhooks(app, { config, database, transactions, outbox, clock });
  await registerSso(app, { config, database, sso, clock });
  // The pages behind the leads' href links read through the same services as the API.
  await registerBrokerApp(app, { config, database, services: { database, clock, ...party } });
  app.addHook('onClose', async () => transactions.close());
  return app;
}
