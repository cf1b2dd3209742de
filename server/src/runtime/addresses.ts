import { BlockList, isIP, isIPv6 } from 'node:net';

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.5`, as a dual-stack socket reports it) as its IPv4 address. */
function plainAddress(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
}

/** The address a client is counted under: IPv6 by its /64 (one subscriber's network), IPv4 as it is. */
export function addressGroup(address: string): string {
  const plain = plainAddress(address);
  if (!isIPv6(plain)) return plain;
  const [head = '', tail = ''] = plain.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const full = plain.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${full
    .slice(0, 4)
    .map((part) => part.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Whether an address is one of the proxies named by TRUST_PROXY (CIDRs as settings.ts normalises them). */
export type ProxyTest = (address: string) => boolean;

export function trustedProxies(cidrs: readonly string[]): ProxyTest {
  if (cidrs.length === 0) return () => false;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network = '', prefix = ''] = cidr.split('/');
    list.addSubnet(network, Number(prefix), isIP(network) === 6 ? 'ipv6' : 'ipv4');
  }
  return (address) => {
    const plain = plainAddress(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

const entries = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

/**
 * Who the client is, as far as can be believed. The socket's peer, unless it is a trusted proxy: then
 * `X-Forwarded-For` is read from the right (each proxy appends the address it saw), stepping over trusted hops
 * up to the first address that is not a proxy. A client can write anything at the left of that header, and it is
 * never reached. `X-Forwarded-Proto` likewise: the scheme the outermost trusted proxy saw (each appends its own;
 * a proxy that sets the header instead leaves one value, which is taken).
 */
export function forwardedOrigin(
  peer: string | undefined,
  header: (name: string) => string | undefined,
  isProxy: ProxyTest,
): { address: string; https: boolean } {
  let address = plainAddress(peer ?? 'unknown');
  if (!isProxy(address)) return { address, https: false };
  let proxies = 1;
  const hops = entries(header('x-forwarded-for'));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plainAddress(hops[i] as string);
    // Not an address: written by whoever stands beyond the last proxy. That proxy's own view stands.
    if (isIP(hop) === 0) break;
    address = hop;
    if (!isProxy(hop)) break;
    proxies += 1;
  }
  const schemes = entries(header('x-forwarded-proto'));
  const scheme = schemes.at(-Math.min(proxies, schemes.length));
  return { address, https: scheme?.toLowerCase() === 'https' };
}
