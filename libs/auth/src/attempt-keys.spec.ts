import { addressKey, basicUser } from './attempt-keys';

describe('attempt keys', () => {
  it.each([
    ['10.0.0.7', 'address:10.0.0.7'],
    ['::ffff:10.0.0.7', 'address:10.0.0.7'],
    ['2001:db8:1:2:3:4:5:6', 'address:2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', 'address:2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1', 'address:2001:db8:1:2::/64'],
    ['2001:db8::1', 'address:2001:db8:0:0::/64'],
    ['::1', 'address:0:0:0:0::/64'],
    ['fe80::1%eth0', 'address:fe80:0:0:0::/64'],
  ])('keys %s as %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });

  it('gives every address of one IPv6 /64 the same key, and a neighbouring /64 another', () => {
    expect(addressKey('2001:db8:a:b::1')).toBe(addressKey('2001:db8:a:b:ffff:ffff:ffff:ffff'));
    expect(addressKey('2001:db8:a:b::1')).not.toBe(addressKey('2001:db8:a:c::1'));
  });

  it('reads the user of a Basic header, never needing the password', () => {
    const header = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    expect(basicUser(header('alice:secret:with:colons'))).toBe('alice');
    expect(basicUser(header(':empty-user'))).toBe('');
    expect(basicUser(`basic   ${Buffer.from('bob:x').toString('base64')} `)).toBe('bob');
    expect(basicUser(header('no-colon'))).toBeUndefined();
    expect(basicUser('Bearer abc')).toBeUndefined();
    expect(basicUser('Basic !!!')).toBeUndefined();
    expect(basicUser(undefined)).toBeUndefined();
    expect(basicUser(header(`${'u'.repeat(500)}:p`))).toHaveLength(128);
  });
});
