// The one way a URL gets into an `href` (docs/design.md section 10): the html template
// takes nothing else where a URL attribute begins. A URL from data, such as a partner's
// backref, is a link only when it is an absolute http(s) URL as written, whatever was
// checked when it was pushed: `javascript:`, `data:`, `vbscript:`, `//host`, a relative
// path or anything with spaces or control characters (which browsers strip, and so could
// hide a scheme behind) is no link, and the page shows it as text.
let make: (url: string) => Href;

export class Href {
  readonly url: string;
  private constructor(url: string) {
    this.url = url;
  }
  toString(): string {
    return this.url;
  }
  static {
    make = (url) => new Href(url);
  }
}

const WEB_URL = /^https?:\/\/[^\s\p{Cc}]+$/iu;

/** A URL from data as a link: an absolute http(s) URL, else undefined (show it as text). */
export function webHref(value: unknown): Href | undefined {
  if (typeof value !== 'string' || !WEB_URL.test(value)) return undefined;
  const url = URL.parse(value);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '' ? make(value) : undefined;
}

/** One of this service's own paths (`/app/...`, `/sso/...`), written by our code. */
export function ownHref(path: string): Href {
  if (!/^\/(?![/\\])/.test(path)) throw new TypeError(`not a path of this service: ${path}`);
  return make(path);
}
