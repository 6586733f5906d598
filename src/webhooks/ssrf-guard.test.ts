import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sendWebhook } from './http-sender.js';
import {
  checkWebhookUrl,
  guardedLookup,
  isPublicAddress,
  type Resolver,
  TargetRefusedError,
} from './ssrf-guard.js';

describe('isPublicAddress', () => {
  const nonPublic = [
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fdff:ffff::1',
    'fe80::1',
    'febf::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '64:ff9b::a00:1',
    // IPv6 encodings of private IPv4 addresses: 6to4, NAT64, mapped, compatible, translated, Teredo.
    '2002:7f00:1::',
    '2002:a00:1::1',
    '2002:c0a8:101:1::1',
    '64:ff9b::7f00:1',
    '64:ff9b::127.0.0.1',
    '::ffff:7f00:1',
    '::127.0.0.1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:a00:1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    'not an ip',
  ];
  for (const address of nonPublic) {
    it(`refuses ${address}`, () => expect(isPublicAddress(address)).toBe(false));
  }
  const publicAddresses = [
    '8.8.8.8',
    '93.184.215.14',
    '172.32.0.1',
    '172.15.255.255',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::1',
    '2001:4860:4860::8888',
  ];
  for (const address of publicAddresses) {
    it(`accepts ${address}`, () => expect(isPublicAddress(address)).toBe(true));
  }
});

describe('checkWebhookUrl', () => {
  it('allows private targets only with the flag, but never other schemes', async () => {
    expect((await checkWebhookUrl('http://127.0.0.1:9/x', false))?.message).toMatch(/private/);
    expect(await checkWebhookUrl('http://127.0.0.1:9/x', true)).toBeNull();
    expect((await checkWebhookUrl('ftp://127.0.0.1/x', true))?.message).toMatch(/http or https/);
    expect(await checkWebhookUrl('https://8.8.8.8/x', false)).toBeNull();
  });

  it('refuses a name that resolves to loopback', async () => {
    expect((await checkWebhookUrl('http://localhost:9/x', false))?.message).toMatch(/private/);
  });

  it('refuses control characters and port 0, which the URL parser would otherwise rewrite or take', async () => {
    expect((await checkWebhookUrl('https://example.com/a\r\nX-Injected: 1', true))?.message).toMatch(
      /control characters/,
    );
    expect((await checkWebhookUrl('https://exa\tmple.com/', true))?.message).toMatch(/control characters/);
    expect((await checkWebhookUrl('https://example.com:0/a', true))?.message).toMatch(/port/);
    expect((await checkWebhookUrl('http://[2002:7f00:1::]/', false))?.message).toMatch(/private/);
  });

  it('refuses a name that does not resolve', async () => {
    expect((await checkWebhookUrl('http://no-such-host.invalid/x', false))?.message).toMatch(
      /could not be resolved/,
    );
  });
});

describe('guardedLookup (DNS rebinding)', () => {
  /** A resolver that answers public the first time and loopback afterwards, like a rebinding name. */
  function rebinding(): { resolve: Resolver; calls: number } {
    const state = {
      calls: 0,
      resolve: ((_host, _options, callback) => {
        state.calls += 1;
        callback(null, [{ address: state.calls === 1 ? '93.184.215.14' : '127.0.0.1', family: 4 }]);
      }) as Resolver,
    };
    return state;
  }
  const lookupOnce = (lookup: LookupFunction, all = false) =>
    new Promise<{ error: Error | null; address: unknown }>((done) =>
      lookup('rebind.example', { all }, (error, address) => done({ error, address })),
    );

  it('hands the connection the address it vetted, and refuses the name once it resolves to loopback', async () => {
    const r = rebinding();
    const lookup = guardedLookup(false, r.resolve);
    expect(await lookupOnce(lookup)).toEqual({ error: null, address: '93.184.215.14' });
    const second = await lookupOnce(lookup);
    expect(second.error).toBeInstanceOf(TargetRefusedError);
    expect(r.calls).toBe(2);
  });

  it('a send dials the vetted address, not what the system resolver says for the name', async () => {
    const server = http.createServer((_request, response) => response.end('ok'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as AddressInfo).port;
    try {
      const toLoopback: Resolver = (_host, _options, callback) =>
        callback(null, [{ address: '127.0.0.1', family: 4 }]);
      const request = {
        url: `http://rebind.invalid:${port}/`,
        headers: {},
        body: '{}',
        timeoutMs: 2000,
        resolve: toLoopback,
      };
      // The name does not exist in DNS: an answer can only come through the guarded resolver.
      expect(await sendWebhook({ ...request, allowPrivate: true })).toMatchObject({
        ok: true,
        statusCode: 200,
      });
      const refused = await sendWebhook({ ...request, allowPrivate: false });
      expect(refused).toMatchObject({ ok: false, statusCode: null });
      expect(refused.error).toMatch(/non-public address/);
    } finally {
      server.close();
    }
  });
});

describe('sendWebhook guard', () => {
  it('refuses at send time without opening a connection', async () => {
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://localhost:9/x',
      'http://[::1]:9/x',
      'http://[2002:7f00:1::]:9/x',
    ]) {
      const result = await sendWebhook({
        url,
        headers: {},
        body: '{}',
        timeoutMs: 1000,
        allowPrivate: false,
      });
      expect(result).toMatchObject({ ok: false, statusCode: null });
      expect(result.error).toMatch(/non-public address/);
    }
  });
});
