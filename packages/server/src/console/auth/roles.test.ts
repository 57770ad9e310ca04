import { describe, expect, it } from 'vitest';
import { claimValue, displayName, roleFromClaim, staffRole } from './roles.js';

describe('the role from the provider’s claims', () => {
  it('a string or an array of reader/clerk/admin: the highest wins; anything else is no role', () => {
    expect(roleFromClaim('clerk')).toBe('clerk');
    expect(roleFromClaim(['reader', 'admin', 'clerk'])).toBe('admin');
    expect(roleFromClaim(['reader', 'superuser'])).toBe('reader');
    for (const none of [
      undefined,
      null,
      '',
      'Clerk',
      ' clerk',
      'superuser',
      42,
      { role: 'admin' },
      [['admin']],
    ]) {
      expect(roleFromClaim(none)).toBeNull();
    }
  });

  it('finds the claim by its name, or a dotted path into nested objects', () => {
    const claims = {
      ros_role: 'clerk',
      'https://urad.example/role': 'admin',
      realm_access: { roles: ['reader'] },
    };
    expect(claimValue(claims, 'ros_role')).toBe('clerk');
    expect(claimValue(claims, 'https://urad.example/role')).toBe('admin');
    expect(claimValue(claims, 'realm_access.roles')).toEqual(['reader']);
    expect(claimValue(claims, 'realm_access.missing')).toBeUndefined();
    expect(claimValue(claims, 'constructor')).toBeUndefined();
    expect(claimValue(claims, '__proto__.x')).toBeUndefined();
  });

  it('the subject list, when set, decides instead of the claim', () => {
    const subjects = new Map([['s-1', 'reader' as const]]);
    expect(staffRole('s-1', { ros_role: 'admin' }, { roleClaim: 'ros_role', subjects })).toBe('reader');
    expect(staffRole('s-2', { ros_role: 'admin' }, { roleClaim: 'ros_role', subjects })).toBeNull();
    expect(staffRole('s-2', { ros_role: 'admin' }, { roleClaim: 'ros_role', subjects: null })).toBe('admin');
  });

  it('names the person by name, else given and family name, else the subject', () => {
    expect(displayName({ name: '  Jana   Nová ' }, 's')).toBe('Jana Nová');
    expect(displayName({ given_name: 'Jana', family_name: 'Nová' }, 's')).toBe('Jana Nová');
    expect(displayName({ name: 7 }, 'sub-9')).toBe('sub-9');
    expect(displayName({ name: 'x'.repeat(300) }, 's')).toHaveLength(200);
  });
});
