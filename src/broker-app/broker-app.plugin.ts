// The broker app under /app (docs/design.md section 7): server-rendered pages behind
// the `href` links of every lead answer, signed in through the embedded OpenID provider.
// Its own scope: form bodies, HTML error pages in the user's language, and a 404 page for
// unknown /app paths, none of which touch the API's JSON conventions; inside it, signing
// in, and everything else behind the session guard.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import { acceptFormBodies } from '../http/form-body.ts';
import { bulkRoutes } from './bulk.routes.ts';
import { sourcesRoutes } from './sources.routes.ts';
import { inboxExportRoutes } from './inbox-export.routes.ts';
import { personalDataRoutes } from './personal-data.routes.ts';
import { mergeRoutes } from './merge.routes.ts';
import { requireSession } from './sign-in/session-guard.ts';
import { signInRoutes } from './sign-in.routes.ts';
import { workRoutes } from './work.routes.ts';
import { PAGE_HEADERS } from './pages/layout.ts';
import type { LeadServices } from './lead-data.ts';
import { pageContext } from './pages/page-context.ts';
import { pageRoutes } from './page.routes.ts';
import { renderNotice } from './pages/notice.page.ts';
import { APP_PATH } from './sign-in/session.ts';

export async function registerBrokerApp(
  app: FastifyInstance,
  options: { config: Config; database: DatabaseHandle; services: LeadServices },
): Promise<void> {
  await app.register(
    async (scope) => {
      // HTML pages for people, not operations for an API client: left out of /openapi.json
      // (docs/design.md section 16).
      scope.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true };
      });
      acceptFormBodies(scope);
      scope.setNotFoundHandler((request, reply) => {
        reply
          .status(404)
          .headers(PAGE_HEADERS)
          .send(
            renderNotice(pageContext(request, request.appSession), 'notFoundTitle', 'notFound', {
              href: '/app',
              label: 'inbox',
            }),
          );
      });
      scope.setErrorHandler((error, request, reply) => {
        const context = pageContext(request, request.appSession);
        const status = error instanceof ApiError ? error.status : (error as { statusCode?: unknown }).statusCode;
        if (typeof status === 'number' && status >= 400 && status < 500) {
          const [title, message] =
            status === 404
              ? (['notFoundTitle', 'notFound'] as const)
              : status === 410
                ? (['erasedTitle', 'erasedNotice'] as const)
                : (['badRequestTitle', 'badRequest'] as const);
          return reply
            .status(status)
            .headers(error instanceof ApiError ? error.headers : {})
            .headers(PAGE_HEADERS)
            .send(renderNotice(context, title, message, { href: '/app', label: 'inbox' }));
        }
        request.log.error({ err: error }, 'broker app page failed');
        return reply
          .status(500)
          .headers(PAGE_HEADERS)
          .send(renderNotice(context, 'errorTitle', 'error', { href: '/app', label: 'inbox' }));
      });
      await scope.register(signInRoutes, options);
      await scope.register(async (signedIn) => {
        requireSession(signedIn, options.database.db);
        await signedIn.register(pageRoutes, options);
        await signedIn.register(workRoutes, options);
        await signedIn.register(personalDataRoutes, options);
        await signedIn.register(mergeRoutes, options);
        await signedIn.register(inboxExportRoutes, options);
        await signedIn.register(bulkRoutes, options);
        await signedIn.register(sourcesRoutes, options);
      });
    },
    { prefix: APP_PATH },
  );
}
