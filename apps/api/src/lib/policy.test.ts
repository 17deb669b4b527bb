// Unit tests of the policy evaluator (lib/policy.ts) on a table written here: every answer in its order (401, 403, 404,
// the notSelf 403), each role's reach, license keys, the grant's tenant and scope, and the route gate.
import { describe, expect, it } from 'vitest';
import { authorize, authorizeRow, can, decide, definePolicy, gate, namedTenant, rowTenant, type Actor, type LicenseActor, type Resource } from './policy.js';
import { Problem } from './problems.js';

const T1 = '11111111-1111-4111-8111-111111111111';
const T2 = '22222222-2222-4222-8222-222222222222';
const person = (userId: string, role: Actor['role'], tenantId: string | null): Actor => ({
  userId,
  sessionId: `s-${userId}`,
  role,
  tenantId,
  name: userId,
  email: `${userId}@test.example`,
});
const superAdmin = person('super', 'super_admin', null);
const admin1 = person('admin1', 'tenant_admin', T1);
const agent1 = person('agent1', 'agent', T1);
const agent2 = person('agent2', 'agent', T2);
const homeless = person('homeless', 'tenant_admin', null);
const key1: LicenseActor = { licenseId: 'lic1', tenantId: T1, tenantName: 'One', keyHint: 'abcd' };

const policy = definePolicy('things', {
  read: { who: ['super_admin', 'tenant_admin', 'agent'], hidden: 'Thing' },
  manage: { who: ['tenant_admin'], denied: 'Only a tenant administrator can manage things.' },
  capture: { who: ['agent', 'sdk_license'], denied: 'Only agents or a key.' },
  profile: { who: ['super_admin', 'tenant_admin', 'agent'], reach: { agent: 'self' }, hidden: 'User' },
  reset: { who: ['super_admin', 'tenant_admin'], hidden: 'User', notSelf: 'Not your own.' },
});

/** The Problem authorize throws, as status, code and message; 'ok' when it grants. */
function answer(who: { actor: Actor | null; license?: LicenseActor | null }, action: keyof typeof policy.rules, resource?: Resource | null): string {
  try {
    authorize(who, policy, action, resource);
    return 'ok';
  } catch (e) {
    if (!(e instanceof Problem)) throw e;
    return `${e.status} ${e.code} ${e.message}`;
  }
}
const as = (actor: Actor | null) => ({ actor });

describe('the policy evaluator', () => {
  it('answers 401 when nobody is signed in, and for a license key on a rule that admits none', () => {
    const unauth = '401 not_authenticated Authentication credentials were not provided or have expired.';
    expect(answer(as(null), 'read')).toBe(unauth);
    expect(answer({ actor: null, license: key1 }, 'read')).toBe(unauth);
    expect(answer({ actor: null, license: key1 }, 'manage')).toBe(unauth);
  });

  it("answers 403 with the rule's message (or the catalogue's default) for a role the rule does not admit", () => {
    expect(answer(as(superAdmin), 'manage')).toBe('403 forbidden Only a tenant administrator can manage things.');
    expect(answer(as(agent1), 'manage')).toBe('403 forbidden Only a tenant administrator can manage things.');
    expect(answer(as(admin1), 'capture')).toBe('403 forbidden Only agents or a key.');
    expect(answer(as(agent1), 'reset')).toBe('403 forbidden You do not have permission to perform this action.');
  });

  it('refuses a tenant user without a tenant (403), before looking at any resource', () => {
    expect(answer(as(homeless), 'read')).toBe('403 forbidden You do not have permission to perform this action.');
    expect(answer(as(homeless), 'manage', null)).toBe('403 forbidden Only a tenant administrator can manage things.');
  });

  it('answers a missing record with 404 naming it, whoever asks', () => {
    expect(answer(as(superAdmin), 'read', null)).toBe('404 not_found Thing not found.');
    expect(answer(as(admin1), 'read', null)).toBe('404 not_found Thing not found.');
    expect(answer(as(admin1), 'manage', null)).toBe('404 not_found Resource not found.');
  });

  it("reaches its own tenant for tenant roles and key holders, every tenant for provider staff: another tenant's record is a 404", () => {
    expect(answer(as(admin1), 'read', { tenantId: T1 })).toBe('ok');
    expect(answer(as(admin1), 'read', { tenantId: T2 })).toBe('404 not_found Thing not found.');
    expect(answer(as(agent2), 'read', { tenantId: T1 })).toBe('404 not_found Thing not found.');
    expect(answer(as(admin1), 'read', { tenantId: null })).toBe('404 not_found Thing not found.');
    expect(answer(as(superAdmin), 'read', { tenantId: T2 })).toBe('ok');
    expect(answer(as(superAdmin), 'read', { tenantId: null })).toBe('ok');
    expect(answer({ actor: null, license: key1 }, 'capture', { tenantId: T1 })).toBe('ok');
    expect(answer({ actor: null, license: key1 }, 'capture', { tenantId: T2 })).toBe('404 not_found Resource not found.');
  });

  it("reaches one's own account only where the rule says 'self'", () => {
    expect(answer(as(agent1), 'profile', { tenantId: T1, userId: 'agent1' })).toBe('ok');
    expect(answer(as(agent1), 'profile', { tenantId: T1, userId: 'admin1' })).toBe('404 not_found User not found.');
    // A record without an owner is nobody's own.
    expect(answer(as(agent1), 'profile', { tenantId: T1 })).toBe('404 not_found User not found.');
    expect(answer(as(admin1), 'profile', { tenantId: T1, userId: 'agent1' })).toBe('ok');
    expect(answer(as(admin1), 'profile', { tenantId: T2, userId: 'agent2' })).toBe('404 not_found User not found.');
    expect(answer(as(superAdmin), 'profile', { tenantId: T2, userId: 'agent2' })).toBe('ok');
  });

  it("refuses the actor's own record with notSelf's 403, after the reach (a foreign record stays a 404)", () => {
    expect(answer(as(admin1), 'reset', { tenantId: T1, userId: 'admin1' })).toBe('403 forbidden Not your own.');
    expect(answer(as(superAdmin), 'reset', { tenantId: null, userId: 'super' })).toBe('403 forbidden Not your own.');
    expect(answer(as(admin1), 'reset', { tenantId: T1, userId: 'agent1' })).toBe('ok');
    expect(answer(as(admin1), 'reset', { tenantId: T2, userId: 'agent2' })).toBe('404 not_found User not found.');
  });

  it('grants with the tenant the act is bound to and its row-level-security scope', () => {
    expect(authorize(as(admin1), policy, 'read')).toEqual({ actor: admin1, license: null, tenantId: T1, scope: { kind: 'tenant', tenantId: T1 } });
    expect(authorize(as(admin1), policy, 'read', namedTenant(T1))).toMatchObject({ tenantId: T1, scope: { kind: 'tenant', tenantId: T1 } });
    expect(authorize(as(superAdmin), policy, 'read')).toEqual({ actor: superAdmin, license: null, tenantId: null, scope: { kind: 'provider' } });
    expect(authorize(as(superAdmin), policy, 'read', namedTenant(T2))).toMatchObject({ tenantId: T2, scope: { kind: 'provider' } });
    expect(authorize({ actor: null, license: key1 }, policy, 'capture')).toEqual({
      actor: null,
      license: key1,
      tenantId: T1,
      scope: { kind: 'tenant', tenantId: T1 },
    });
    // A license key, when the request has one, is the principal (plugins/auth.ts never sets both).
    expect(authorize({ actor: agent2, license: key1 }, policy, 'capture').tenantId).toBe(T1);
    expect(namedTenant(undefined)).toBeUndefined();
    expect(namedTenant('')).toBeUndefined();
  });

  it('answers the same through can(), decide() and authorizeRow()', () => {
    expect(can(admin1, policy, 'manage')).toBe(true);
    expect(can(agent1, policy, 'manage')).toBe(false);
    expect(can(null, policy, 'read')).toBe(false);
    expect(can(key1, policy, 'capture', { tenantId: T1 })).toBe(true);
    expect(can(key1, policy, 'capture', { tenantId: T2 })).toBe(false);
    expect(can(key1, policy, 'read')).toBe(false);
    const d = decide(policy.rules.read, as(agent1), { tenantId: T2 });
    expect(d.ok ? 'ok' : d.problem.status).toBe(404);

    const row = { id: 'r1', tenant_id: T1 };
    expect(authorizeRow(as(admin1), policy, 'read', row, rowTenant)).toBe(row);
    expect(() => authorizeRow(as(admin1), policy, 'read', { id: 'r2', tenant_id: T2 }, rowTenant)).toThrow('Thing not found.');
    expect(() => authorizeRow(as(admin1), policy, 'read', null, rowTenant)).toThrow('Thing not found.');
  });

  it("gives a route the rule's roles as its access, named <module>.<action>", () => {
    expect(gate(policy, 'capture')).toEqual({ access: ['agent', 'sdk_license'], action: 'things.capture' });
    expect(gate(policy, 'read')).toEqual({ access: ['super_admin', 'tenant_admin', 'agent'], action: 'things.read' });
  });

  it('never opens on an action missing from the table (a table changed at run time, or an unchecked cast)', () => {
    const loose = policy as unknown as Parameters<typeof authorize>[1];
    expect(() => authorize(as(superAdmin), loose, 'toString')).toThrow('No rule for things.toString');
    expect(() => gate(loose, 'nothing')).toThrow('No rule for things.nothing');
    expect(Object.isFrozen(policy.rules)).toBe(true);
  });
});
