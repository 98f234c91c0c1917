// The SSRF guard: only HTTPS targets whose every address is public.
import test from 'ava';
import { checkTarget, isPublicAddress, UnsafeTargetError } from '../../../src/outbound/address-guard.js';

const resolvesTo =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const strict = { allowLoopback: false };

test('public addresses pass', (t) => {
  for (const a of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])
    t.true(isPublicAddress(a), a);
});

test('loopback, private, link-local, CGNAT, multicast, reserved and special IPv6 are refused', (t) => {
  for (const a of [
    '127.0.0.1',
    '127.8.8.8',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.2.10',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '::127.0.0.1',
    '::8.8.8.8',
    '::ffff:0:7f00:1',
    '::ffff:0:808:808',
    '64:ff9b::7f00:1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '2001:db8::1',
    '2002:7f00:1::1',
    'not-an-ip',
  ]) {
    t.false(isPublicAddress(a), a);
  }
});

test('a public HTTPS URL is accepted with the addresses it was checked against', async (t) => {
  const target = await checkTarget('https://hooks.example.com/in', { ...strict, lookup: resolvesTo('93.184.216.34') });
  t.is(target.url.hostname, 'hooks.example.com');
  t.deepEqual(target.addresses, [{ address: '93.184.216.34', family: 4 }]);
  t.deepEqual((await checkTarget('https://93.184.216.34/hook', strict)).addresses, [
    { address: '93.184.216.34', family: 4 },
  ]);
});

test('http, credentials, internal names and IP literals of private ranges are refused', async (t) => {
  const lookup = resolvesTo('93.184.216.34');
  for (const url of [
    'http://hooks.example.com/in',
    'ftp://hooks.example.com',
    'https://user:pw@hooks.example.com/',
    'https://localhost/x',
    'https://app.localhost/x',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://printer.local/',
    'https://intranet/',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://10.0.0.8:8443/',
    'https://0x7f000001/',
    'https://2130706433/',
    'not a url',
  ]) {
    await t.throwsAsync(checkTarget(url, { ...strict, lookup }), { instanceOf: UnsafeTargetError }, url);
  }
});

test('a name resolving to any private address, or to none, is refused', async (t) => {
  await t.throwsAsync(
    checkTarget('https://evil.example.com/', { ...strict, lookup: resolvesTo('93.184.216.34', '10.0.0.1') }),
    {
      message: /non-public/,
    },
  );
  await t.throwsAsync(checkTarget('https://empty.example.com/', { ...strict, lookup: resolvesTo() }), {
    message: /does not resolve/,
  });
  await t.throwsAsync(
    checkTarget('https://gone.example.com/', { ...strict, lookup: async () => Promise.reject(new Error('ENOTFOUND')) }),
    { message: /does not resolve/ },
  );
});

test('the test-only switch lets loopback through and nothing else', async (t) => {
  const loose = { allowLoopback: true };
  t.truthy(await checkTarget('https://127.0.0.1:8443/hook', loose));
  t.truthy(await checkTarget('https://[::1]:8443/hook', loose));
  await t.throwsAsync(checkTarget('https://10.0.0.1/hook', loose), { instanceOf: UnsafeTargetError });
  await t.throwsAsync(checkTarget('https://169.254.169.254/', loose), { instanceOf: UnsafeTargetError });
  await t.throwsAsync(checkTarget('http://127.0.0.1/hook', loose), { instanceOf: UnsafeTargetError });
  await t.throwsAsync(checkTarget('https://[::ffff:127.0.0.1]/hook', loose), { instanceOf: UnsafeTargetError });
  await t.throwsAsync(checkTarget('https://[::127.0.0.1]/hook', loose), { instanceOf: UnsafeTargetError });
});
