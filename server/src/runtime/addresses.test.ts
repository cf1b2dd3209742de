import { describe, expect, it } from 'vitest';
import { addressGroup, forwardedOrigin, trustedProxies } from './addresses.ts';

const headers =
  (values: Record<string, string>) =>
  (name: string): string | undefined =>
    values[name];

describe('addressGroup', () => {
  it('counts an IPv6 client by its /64, and an IPv4-mapped address as IPv4', () => {
    expect(addressGroup('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressGroup('192.0.2.7')).toBe('192.0.2.7');
  });
});

describe('trustedProxies', () => {
  it('matches IPv4 and IPv6 addresses and CIDRs, IPv4-mapped addresses as IPv4, and nothing else', () => {
    const isProxy = trustedProxies(['10.0.0.5/32', '10.0.1.0/24', '2001:db8:aa::/48']);
    for (const address of ['10.0.0.5', '::ffff:10.0.0.5', '10.0.1.200', '2001:db8:aa:1::9'])
      expect(isProxy(address), address).toBe(true);
    for (const address of ['10.0.0.6', '10.0.2.1', '2001:db8:ab::1', 'unknown', '', '10.0.0.5, 1.2.3.4'])
      expect(isProxy(address), address).toBe(false);
    expect(trustedProxies([])('10.0.0.5')).toBe(false);
  });
});

describe('forwardedOrigin', () => {
  const isProxy = trustedProxies(['10.0.0.0/24', 'fd00::/8']);

  it('believes no forwarded header from a peer that is not a named proxy', () => {
    const spoofed = headers({ 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https' });
    expect(forwardedOrigin('203.0.113.9', spoofed, isProxy)).toEqual({
      address: '203.0.113.9',
      https: false,
    });
    expect(forwardedOrigin(undefined, spoofed, isProxy)).toEqual({ address: 'unknown', https: false });
  });

  it('reads X-Forwarded-For from the right, stepping over trusted hops; what the client wrote at the left is never reached', () => {
    const chain = headers({ 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.0.0.9, fd00::2' });
    expect(forwardedOrigin('10.0.0.1', chain, isProxy).address).toBe('198.51.100.7');
    expect(forwardedOrigin('::ffff:10.0.0.1', chain, isProxy).address).toBe('198.51.100.7');
    // One proxy that appended the client's address: the last entry.
    expect(
      forwardedOrigin('10.0.0.1', headers({ 'x-forwarded-for': '6.6.6.6,198.51.100.7' }), isProxy).address,
    ).toBe('198.51.100.7');
  });

  it('keeps the last trusted hop when the next entry is not an address, and the proxy itself without the header', () => {
    const garbage = headers({ 'x-forwarded-for': 'x, not-an-ip, 10.0.0.9' });
    expect(forwardedOrigin('10.0.0.1', garbage, isProxy).address).toBe('10.0.0.9');
    expect(forwardedOrigin('10.0.0.1', headers({}), isProxy).address).toBe('10.0.0.1');
    expect(forwardedOrigin('10.0.0.1', headers({ 'x-forwarded-for': ' , ' }), isProxy).address).toBe(
      '10.0.0.1',
    );
  });

  it('takes the scheme the outermost trusted proxy saw', () => {
    const https = (forFor: string, proto: string, peer = '10.0.0.1') =>
      forwardedOrigin(peer, headers({ 'x-forwarded-for': forFor, 'x-forwarded-proto': proto }), isProxy)
        .https;
    expect(https('198.51.100.7', 'https')).toBe(true);
    expect(https('198.51.100.7', 'HTTPS')).toBe(true);
    expect(https('198.51.100.7', 'http')).toBe(false);
    // Two proxies that each appended: the outer one took HTTPS, the inner one spoke http to us.
    expect(https('198.51.100.7, 10.0.0.9', 'https, http')).toBe(true);
    // The client's own claim at the left of one proxy's is not read.
    expect(https('198.51.100.7', 'https, http')).toBe(false);
    expect(https('198.51.100.7', 'https', '203.0.113.9')).toBe(false);
  });
});
