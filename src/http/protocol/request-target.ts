// RFC 9112 section 3.2.2: a server must accept a request target in absolute form
// (`GET http://host/path HTTP/1.1`), and then the host comes from the target, not the
// Host header. Nothing here is built from either (docs/design.md section 8: published URLs come
// from PUBLIC_URL), so routing only needs the path and query: the absolute form is
// reduced to them before Fastify routes, and every route sees the origin form.
import type { IncomingMessage } from 'node:http';

export function originForm(request: IncomingMessage): string {
  const target = request.url ?? '/';
  if (target.startsWith('/')) return target;
  const url = URL.parse(target);
  // Anything else (`*`, an authority, garbage) names no route: the 404 handler answers it.
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? `${url.pathname}${url.search}` : `/${target}`;
}
