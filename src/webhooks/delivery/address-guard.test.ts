import { describe, expect, it } from 'vitest';
import { AddressGuard, RefusedAddressError } from './address-guard.ts';

const strict = new AddressGuard({ allowPrivateNetworks: false });
const lenient = new AddressGuard({ allowPrivateNetworks: true });

describe('AddressGuard.refusal', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.254', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['fd12:3456::1', 'a private address'],
    ['fc00::1', 'a private address'],
    ['169.254.10.10', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['100.64.0.1', 'a shared (carrier-grade NAT) address'],
    ['100.127.255.255', 'a shared (carrier-grade NAT) address'],
    ['224.0.0.1', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['169.254.169.254', 'a cloud metadata address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['255.255.255.255', 'a reserved address'],
    ['192.0.2.10', 'a reserved address'],
    // IPv4 addresses in IPv6 clothing reach the IPv4 address they carry.
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', 'a loopback address'],
    ['0:0:0:0:0:ffff:a00:1', 'a private address'],
    ['::ffff:169.254.169.254', 'a cloud metadata address'],
    ['::127.0.0.1', 'a reserved address'],
    ['::ffff:0:10.0.0.1', 'a reserved address'],
    ['64:ff9b::10.0.0.1', 'a private address'],
    ['64:ff9b::a9fe:a9fe', 'a cloud metadata address'],
    ['2002:7f00:1::1', 'a reserved address'],
    ['2001:db8::1', 'a reserved address'],
  ])('refuses %s as %s', (address, reason) => {
    expect(strict.refusal(address)).toBe(reason);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::6810:84e5',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows the public address %s', (address) => {
    expect(strict.refusal(address)).toBeUndefined();
  });

  it('allows private networks when told to, but never the metadata endpoint, multicast or reserved ranges', () => {
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', '192.168.0.1', 'fd12::1', '169.254.1.1', '100.64.0.1']) {
      expect(lenient.refusal(address), address).toBeUndefined();
    }
    expect(lenient.refusal('169.254.169.254')).toBe('a cloud metadata address');
    expect(lenient.refusal('::ffff:169.254.169.254')).toBe('a cloud metadata address');
    expect(lenient.refusal('224.0.0.1')).toBe('a multicast address');
    expect(lenient.refusal('0.0.0.0')).toBe('an unspecified address');
  });
});

describe('AddressGuard.resolve', () => {
  it('resolves names and refuses a host whose addresses include a refused one', async () => {
    await expect(strict.resolve('localhost')).rejects.toThrow(RefusedAddressError);
    await expect(strict.resolve('[::1]')).rejects.toThrow(
      /::1, a loopback address \(WEBHOOK_ALLOW_PRIVATE_NETWORKS=true allows it\)/,
    );
    await expect(strict.resolve('169.254.169.254')).rejects.toThrow(
      /^refused: 169\.254\.169\.254 resolves to 169\.254\.169\.254, a cloud metadata address$/,
    );
    expect(await lenient.resolve('localhost')).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) })]),
    );
    expect(await strict.resolve('8.8.8.8')).toEqual([{ address: '8.8.8.8', family: 4 }]);
  });
});
