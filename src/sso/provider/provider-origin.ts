// Every URL oidc-provider publishes (discovery's endpoints and jwks_uri, form actions,
// redirects back to itself) is built from Koa's `ctx.href`, which Koa makes of the request:
// the Host header, or X-Forwarded-Host/Proto when `proxy` is on. A client could then
// choose the token endpoint that discovery advertises (`Host: evil.example`). docs/design.md
// section 8: published URLs come from PUBLIC_URL only. So this provider's Koa request
// answers scheme, host and href from PUBLIC_URL, whatever the request says; the issuer
// already is `{PUBLIC_URL}/sso`.
import type Provider from 'oidc-provider';

/** The path and query of a request target, also for the absolute form (`GET http://host/path`). */
function pathAndQuery(target: string): string {
  if (target.startsWith('/')) return target;
  const url = URL.parse(target);
  return url ? `${url.pathname}${url.search}` : '/';
}

export function pinProviderOrigin(provider: Provider, publicUrl: string): void {
  const { protocol, host, origin } = new URL(publicUrl);
  const scheme = protocol.slice(0, -1);
  // `provider.request` is this Koa application's own request prototype (not Koa's shared
  // one); `hostname`, `secure` (and so the cookies' Secure flag) and `origin` follow from
  // `protocol` and `host`.
  Object.defineProperties(provider.request, {
    protocol: { configurable: true, get: () => scheme },
    host: { configurable: true, get: () => host },
    href: {
      configurable: true,
      get(this: { originalUrl: string }) {
        return `${origin}${pathAndQuery(this.originalUrl)}`;
      },
    },
    URL: {
      configurable: true,
      get(this: { originalUrl: string }) {
        return new URL(pathAndQuery(this.originalUrl), origin);
      },
    },
  });
  // X-Forwarded-* then decide nothing here; the client address the sign-in throttle
  // counts is Fastify's (TRUST_PROXY), not Koa's.
  provider.proxy = false;
}
