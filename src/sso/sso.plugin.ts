// Mounts single sign-on at /sso (docs/design.md section 4): the sign-in pages, userinfo and
// the provider itself. The API's bearer scheme uses the same runtime (app.ts), which is
// why app.ts takes createSsoRuntime from here too: the module's wiring, beside index.ts.
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { interactionRoutes } from './interaction/interaction.routes.ts';
import { DEFAULT_THROTTLE, deleteExpiredFailures } from './interaction/login-throttle.ts';
import { deleteExpiredPayloads } from './provider/oidc-payload.repository.ts';
import { providerMount } from './provider.mount.ts';
import { SSO_PATH, issuerOf } from './provider/provider-urls.ts';
import type { SsoRuntime } from './sso-runtime.ts';
import { userinfoRoutes } from './userinfo.routes.ts';

export { createSsoRuntime } from './sso-runtime.ts';

/** Expired sessions, codes and tokens, and sign-in failures past the throttle's window, are deleted this often (by every process). */
const CLEANUP_INTERVAL_MS = 10 * 60_000;

export async function registerSso(
  app: FastifyInstance,
  { config, database, sso, clock }: { config: Config; database: DatabaseHandle; sso: SsoRuntime; clock: Clock },
): Promise<void> {
  await app.register(interactionRoutes, { prefix: SSO_PATH, sso, db: database.db, clock });
  await app.register(userinfoRoutes, { prefix: SSO_PATH, sso, issuer: issuerOf(config) });
  await app.register(providerMount, { prefix: SSO_PATH, sso });

  const cleanup = setInterval(() => {
    Promise.all([
      deleteExpiredPayloads(database.db),
      deleteExpiredFailures(database.db, DEFAULT_THROTTLE, new Date(clock.now())),
    ]).catch((error: unknown) => app.log.warn({ err: error }, 'deleting expired SSO records failed'));
  }, CLEANUP_INTERVAL_MS).unref();
  app.addHook('onClose', async () => clearInterval(cleanup));
}
