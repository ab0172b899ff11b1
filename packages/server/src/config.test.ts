import { describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy } from './config.js';

describe('TRUST_PROXY', () => {
  it('trusts no proxy when unset or false, one hop for true, a number as hops', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    for (const off of ['', 'false', '0', ' false ']) expect(parseTrustProxy(off)).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
  });

  it('takes a comma-separated list of addresses, CIDRs and proxy-addr names', () => {
    expect(parseTrustProxy('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(parseTrustProxy('10.0.0.5, 192.168.0.0/16,::1, fd00::/8')).toEqual(['10.0.0.5', '192.168.0.0/16', '::1', 'fd00::/8']);
    expect(parseTrustProxy('loopback,uniquelocal')).toEqual(['loopback', 'uniquelocal']);
  });

  it('refuses anything else at start, naming what it did not understand', () => {
    for (const bad of ['yes', 'TRUE', '10.0.0.300', '10.0.0.0/33', '::1/129', '10.0.0.0/8/8', '10.0.0.1,', '-1', '1.5', '101', 'nginx']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
    }
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1, proxy.local' })).toThrow('not understood: "proxy.local"');
  });
});
