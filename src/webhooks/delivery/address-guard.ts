// The SSRF guard (docs/design.md section 5): a callback URL is chosen by whoever pushes a lead,
// so without this check a push could make the service call its own admin ports, the
// database, a neighbour in the private network or the cloud metadata endpoint. The host is
// resolved once, every address it resolves to is checked, and the connection is then made
// to those checked addresses only (see `lookupFor`), so a second DNS answer cannot swap in
// another address between the check and the connect (DNS rebinding).
import dns from 'node:dns/promises';
import net, { BlockList, type LookupFunction } from 'node:net';

type Family = 'ipv4' | 'ipv6';
type Range = readonly [network: string, prefix: number, family: Family];

interface RangeGroup {
  readonly reason: string;
  /** Allowed with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true (development against local receivers). */
  readonly privateNetwork: boolean;
  readonly ranges: readonly Range[];
}

// RFC 6890 special-purpose registries. Checked in this order, so the most specific reason
// wins (the metadata address is also link-local).
const GROUPS: readonly RangeGroup[] = [
  {
    // Never allowed, whatever the setting: no webhook receiver lives there, and the
    // credentials of the machine do.
    reason: 'a cloud metadata address',
    privateNetwork: false,
    ranges: [
      ['169.254.169.254', 32, 'ipv4'],
      ['100.100.100.200', 32, 'ipv4'],
      ['fd00:ec2::254', 128, 'ipv6'],
    ],
  },
  {
    reason: 'an unspecified address',
    privateNetwork: false,
    ranges: [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  },
  {
    reason: 'a loopback address',
    privateNetwork: true,
    ranges: [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  },
  {
    reason: 'a private address',
    privateNetwork: true,
    ranges: [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
    ],
  },
  {
    reason: 'a link-local address',
    privateNetwork: true,
    ranges: [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  },
  { reason: 'a shared (carrier-grade NAT) address', privateNetwork: true, ranges: [['100.64.0.0', 10, 'ipv4']] },
  {
    reason: 'a multicast address',
    privateNetwork: false,
    ranges: [
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  },
  {
    reason: 'a reserved address',
    privateNetwork: false,
    ranges: [
      ['240.0.0.0', 4, 'ipv4'], // reserved, and 255.255.255.255 broadcast
      ['192.0.0.0', 24, 'ipv4'],
      ['192.0.2.0', 24, 'ipv4'],
      ['192.88.99.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['::', 96, 'ipv6'], // IPv4-compatible (deprecated, RFC 4291 2.5.5.1)
      ['::ffff:0:0:0', 96, 'ipv6'], // IPv4-translated (SIIT)
      ['100::', 64, 'ipv6'],
      ['2001::', 23, 'ipv6'],
      ['2001:db8::', 32, 'ipv6'],
      ['2002::', 16, 'ipv6'], // 6to4 (deprecated, RFC 7526): would tunnel to any IPv4 address
      ['fec0::', 10, 'ipv6'], // site-local (deprecated)
    ],
  },
];

const LISTS = GROUPS.map((group) => {
  const list = new BlockList();
  // BlockList checks an IPv4-mapped IPv6 address (::ffff:a.b.c.d) against the IPv4 rules.
  for (const [network, prefix, family] of group.ranges) list.addSubnet(network, prefix, family);
  return { ...group, list };
});

/** NAT64 (RFC 6052): DNS64 networks give IPv4-only hosts these addresses; the last 32 bits are the IPv4 one. */
const NAT64 = new BlockList();
NAT64.addSubnet('64:ff9b::', 96, 'ipv6');

export class RefusedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddressError';
  }
}

export interface CheckedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address a host name resolves to (the system resolver unless one is given). */
export type HostResolver = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

/** getaddrinfo: /etc/hosts, search domains and the resolvers of resolv.conf, as every program on the machine. */
const systemResolver: HostResolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * A name that has not resolved by then fails the attempt (retried on the schedule): the
 * system resolver retries a dead name server for seconds, and an attempt must not wait
 * on that (docs/design.md section 5: names that never resolved held every slot for ~6 s
 * each).
 */
export const DNS_TIMEOUT_MS = 5_000;

export class DnsTimeoutError extends Error {
  constructor(hostname: string, timeoutMs: number) {
    super(`DNS lookup of ${hostname} did not finish within ${timeoutMs / 1000} s`);
    this.name = 'DnsTimeoutError';
  }
}

export class AddressGuard {
  readonly #allowPrivateNetworks: boolean;
  readonly #resolveHost: HostResolver;
  readonly #timeoutMs: number;
  /**
   * Lookups in flight, by name: the deliveries of one host share one lookup. getaddrinfo
   * runs on libuv's small thread pool, and a thread waits out the whole lookup even after
   * we gave up on it, so one name must not take more than one thread.
   */
  readonly #inFlight = new Map<string, Promise<ReadonlyArray<{ address: string; family: number }>>>();

  constructor(options: { allowPrivateNetworks: boolean; resolveHost?: HostResolver; timeoutMs?: number }) {
    this.#allowPrivateNetworks = options.allowPrivateNetworks;
    this.#resolveHost = options.resolveHost ?? systemResolver;
    this.#timeoutMs = options.timeoutMs ?? DNS_TIMEOUT_MS;
  }

  /** The host's addresses, from the lookup in flight for it if there is one, within the timeout. */
  #lookup(host: string): Promise<ReadonlyArray<{ address: string; family: number }>> {
    let lookup = this.#inFlight.get(host);
    if (lookup === undefined) {
      lookup = this.#resolveHost(host).finally(() => this.#inFlight.delete(host));
      this.#inFlight.set(host, lookup);
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new DnsTimeoutError(host, this.#timeoutMs)), this.#timeoutMs);
    });
    return Promise.race([lookup, timeout]).finally(() => clearTimeout(timer));
  }

  /** Why a connection to this IP address is refused, or undefined when it is allowed. */
  refusal(address: string): string | undefined {
    return this.#refusingGroup(address)?.reason;
  }

  /** The group that refuses this IP address (its reason and category), or undefined when it is allowed. */
  #refusingGroup(address: string): Omit<RangeGroup, 'ranges'> | undefined {
    const family = net.isIP(address);
    if (family === 0) return { reason: 'not an IP address', privateNetwork: false };
    const type: Family = family === 4 ? 'ipv4' : 'ipv6';
    const embedded = type === 'ipv6' && NAT64.check(address, 'ipv6') ? embeddedIPv4(address) : undefined;
    // The first group that holds the address decides (::1 is loopback before it is IPv4-compatible).
    const group = LISTS.find(
      (g) => g.list.check(address, type) || (embedded !== undefined && g.list.check(embedded, 'ipv4')),
    );
    if (group === undefined || (group.privateNetwork && this.#allowPrivateNetworks)) return undefined;
    return group;
  }

  /**
   * Every address the URL's host resolves to, when all of them are allowed. One refused
   * address refuses the host: otherwise a record set mixing a public and a private address
   * would reach the private one whenever the connection happens to pick it.
   */
  async resolve(hostname: string): Promise<CheckedAddress[]> {
    const host = withoutBrackets(hostname);
    const literal = net.isIP(host);
    const addresses: CheckedAddress[] =
      literal !== 0
        ? [{ address: host, family: literal as 4 | 6 }]
        : (await this.#lookup(host)).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
    if (addresses.length === 0) throw new Error(`${host} resolves to no address`);
    for (const { address } of addresses) {
      const refused = this.#refusingGroup(address);
      if (refused !== undefined) {
        const hint = refused.privateNetwork ? ' (WEBHOOK_ALLOW_PRIVATE_NETWORKS=true allows it)' : '';
        throw new RefusedAddressError(`refused: ${host} resolves to ${address}, ${refused.reason}${hint}`);
      }
    }
    return addresses;
  }
}

/** A URL's hostname without the brackets of an IPv6 literal (`[::1]` -> `::1`). */
export function withoutBrackets(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

/** A `lookup` for http.request that answers with the checked addresses only, never asking DNS again. */
export function lookupFor(addresses: readonly CheckedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all)
      callback(
        null,
        addresses.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

/** The last 32 bits of an IPv6 address as dotted IPv4. */
function embeddedIPv4(address: string): string {
  const groups = expandIPv6(address);
  const high = groups[6]!;
  const low = groups[7]!;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The eight 16-bit groups of a valid IPv6 address (with `::` and a trailing dotted quad). */
function expandIPv6(address: string): number[] {
  let text = address.split('%')[0]!;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
