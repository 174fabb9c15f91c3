// Mounts single sign-on at /sso (DESIGN.md section 4) and lets the API accept its access
// tokens: the sign-in pages, userinfo, the provider itself, and the bearer scheme.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { registerBearerTokens } from '../auth/bearer-token.ts';
import { interactionRoutes } from './interaction.routes.ts';
import { deleteExpiredPayloads } from './oidc-adapter.ts';
import { providerMount } from './provider.mount.ts';
import { SSO_PATH, issuerOf } from './provider.ts';
import { createSsoRuntime } from './sso-runtime.ts';
import { userinfoRoutes } from './userinfo.routes.ts';

/** Expired sessions, codes and tokens are deleted this often (by every process). */
const CLEANUP_INTERVAL_MS = 10 * 60_000;

export async function registerSso(app: FastifyInstance, { config, database }: { config: Config; database: DatabaseHandle }): Promise<void> {
  const sso = createSsoRuntime(config, database, app.log);
  registerBearerTokens(database, { verify: async (token) => (await sso()).accessTokens.verify(token) });

  await app.register(interactionRoutes, { prefix: SSO_PATH, sso, db: database.db });
  await app.register(userinfoRoutes, { prefix: SSO_PATH, sso, issuer: issuerOf(config) });
  await app.register(providerMount, { prefix: SSO_PATH, sso });

  const cleanup = setInterval(() => {
    deleteExpiredPayloads(database.db).catch((error: unknown) => app.log.warn({ err: error }, 'deleting expired SSO records failed'));
  }, CLEANUP_INTERVAL_MS).unref();
  app.addHook('onClose', async () => clearInterval(cleanup));
}
