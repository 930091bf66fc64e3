import dns from 'node:dns';
import net from 'node:net';
import { DomainError } from '../common/errors.js';

// Local receivers (loopback, private networks) are the point of webhooks on a desktop app, so they are
// allowed. What is refused is what a URL should never reach: link-local addresses (which include the cloud
// metadata service at 169.254.169.254), the metadata services' other addresses, and addresses that are not
// a single host (unspecified, multicast, broadcast).
const REFUSED = new net.BlockList();
REFUSED.addSubnet('169.254.0.0', 16, 'ipv4');
REFUSED.addSubnet('0.0.0.0', 8, 'ipv4');
REFUSED.addSubnet('224.0.0.0', 4, 'ipv4');
REFUSED.addAddress('255.255.255.255', 'ipv4');
REFUSED.addAddress('100.100.100.200', 'ipv4');
REFUSED.addSubnet('fe80::', 10, 'ipv6');
REFUSED.addAddress('::', 'ipv6');
REFUSED.addSubnet('ff00::', 8, 'ipv6');
REFUSED.addAddress('fd00:ec2::254', 'ipv6');
// IPv4-mapped IPv6 forms of the IPv4 ranges above.
REFUSED.addSubnet('::ffff:169.254.0.0', 112, 'ipv6');
REFUSED.addSubnet('::ffff:0.0.0.0', 104, 'ipv6');
REFUSED.addSubnet('::ffff:224.0.0.0', 100, 'ipv6');
REFUSED.addAddress('::ffff:255.255.255.255', 'ipv6');
REFUSED.addAddress('::ffff:100.100.100.200', 'ipv6');

// Loopback, private, shared (CGNAT) and unique-local ranges: reachable only from here or the office network.
const LOCAL = new net.BlockList();
LOCAL.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('10.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('172.16.0.0', 12, 'ipv4');
LOCAL.addSubnet('192.168.0.0', 16, 'ipv4');
LOCAL.addSubnet('100.64.0.0', 10, 'ipv4');
LOCAL.addAddress('::1', 'ipv6');
LOCAL.addSubnet('fc00::', 7, 'ipv6');
LOCAL.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
LOCAL.addSubnet('::ffff:10.0.0.0', 104, 'ipv6');
LOCAL.addSubnet('::ffff:172.16.0.0', 108, 'ipv6');
LOCAL.addSubnet('::ffff:192.168.0.0', 112, 'ipv6');
LOCAL.addSubnet('::ffff:100.64.0.0', 106, 'ipv6');

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; replaceable so tests can name hosts without DNS. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/** Thrown for a destination that must not be contacted; the message says why. */
export class RefusedDestinationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedDestinationError';
  }
}

/** The IP literal of a URL host (`[::1]` → `::1`), or null for a name. */
function ipLiteral(hostname: string): ResolvedAddress | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const family = net.isIP(bare);
  return family === 0 ? null : { address: bare, family: family === 6 ? 6 : 4 };
}

/** Loopback or a private network (or refused anyway): answers from such an address are never stored. */
export function isLocalAddress(address: ResolvedAddress): boolean {
  const family = address.family === 6 ? 'ipv6' : 'ipv4';
  return LOCAL.check(address.address, family) || REFUSED.check(address.address, family);
}

export function isRefusedAddress(address: ResolvedAddress): boolean {
  return REFUSED.check(address.address, address.family === 6 ? 'ipv6' : 'ipv4');
}

function checkScheme(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedDestinationError(`destination refused: ${url.protocol} is not http or https`);
}

/**
 * Checks a URL before contacting it and returns the addresses the connection must use, so the name
 * cannot resolve to something else between the check and the connection.
 */
export async function resolveDestination(url: URL, resolve: HostResolver): Promise<ResolvedAddress[]> {
  checkScheme(url);
  const literal = ipLiteral(url.hostname);
  const addresses = literal ? [literal] : await resolve(url.hostname);
  if (addresses.length === 0) throw new RefusedDestinationError(`${url.hostname} has no address`);
  const refused = addresses.find(isRefusedAddress);
  if (refused) {
    const what = literal ? refused.address : `${url.hostname} resolves to ${refused.address}`;
    throw new RefusedDestinationError(`destination refused: ${what} is a link-local, metadata or non-unicast address`);
  }
  return addresses;
}

/** At create and update: a URL whose host is a refused IP literal is a 400; names are checked at delivery. */
export function assertAllowedUrl(value: string, field = 'url'): void {
  const url = new URL(value);
  const literal = ipLiteral(url.hostname);
  if (literal && isRefusedAddress(literal)) {
    throw new DomainError('validation_error', `webhook URL refused: ${literal.address} is a link-local, metadata or non-unicast address`, [
      { field, location: 'body', message: 'link-local (169.254.0.0/16, fe80::/10), metadata and non-unicast addresses are refused' },
    ]);
  }
}
