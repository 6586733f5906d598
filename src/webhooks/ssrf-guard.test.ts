import { describe, expect, it } from 'vitest';
import { sendWebhook } from './http-sender.js';
import { checkWebhookUrl, isPublicAddress } from './ssrf-guard.js';

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
  ];
  for (const address of publicAddresses) {
    it(`accepts ${address}`, () => expect(isPublicAddress(address)).toBe(true));
  }
});

describe('checkWebhookUrl', () => {
  it('allows private targets only with the flag, but never other schemes', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:9/x', false)).toMatch(/private/);
    expect(await checkWebhookUrl('http://127.0.0.1:9/x', true)).toBeNull();
    expect(await checkWebhookUrl('ftp://127.0.0.1/x', true)).toMatch(/http or https/);
    expect(await checkWebhookUrl('https://8.8.8.8/x', false)).toBeNull();
  });

  it('refuses a name that resolves to loopback', async () => {
    expect(await checkWebhookUrl('http://localhost:9/x', false)).toMatch(/private/);
  });

  it('refuses a name that does not resolve', async () => {
    expect(await checkWebhookUrl('http://no-such-host.invalid/x', false)).toMatch(/could not be resolved/);
  });
});

describe('sendWebhook guard', () => {
  it('refuses at send time without opening a connection', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x']) {
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
