// Who may do what to farms. Reads: provider staff every tenant (optionally narrowed by tenant_id), tenant admins and
// agents their own tenant (naming another tenant is a 404). Captures: an agent's session or the tenant's SDK license key.
// Retain and delete: tenant admins.
import type { Actor, LicenseActor } from '../../context.js';
import type { Scope } from '../../db/client.js';
import { definePolicy } from '../../lib/policy.js';

export const farmsPolicy = definePolicy('farms', {
  read: { who: ['super_admin', 'tenant_admin', 'agent'], hidden: 'Tenant' },
  capture: { who: ['agent', 'sdk_license'], denied: 'Only field agents or an SDK license key can capture farms.' },
  /** Retain and delete change other people's captures. */
  manage: { who: ['tenant_admin'], denied: 'Only a tenant administrator can do this.' },
});

/** Who is capturing: an agent (or, for farmers, a tenant admin) with a session, or the tenant's SDK license key. */
export type Capturer = {
  tenantId: string;
  userId: string | null;
  name: string;
  source: 'agent' | 'sdk';
  actor: Actor | null;
  license: LicenseActor | null;
};

/** The capturer a capture grant (farms 'capture', farmers 'write') names. */
export function capturer(grant: { actor: Actor | null; license: LicenseActor | null; tenantId: string }): Capturer {
  if (grant.license) {
    return {
      tenantId: grant.license.tenantId,
      userId: null,
      name: `SDK license …${grant.license.keyHint}`,
      source: 'sdk',
      actor: null,
      license: grant.license,
    };
  }
  const actor = grant.actor!;
  return { tenantId: grant.tenantId, userId: actor.userId, name: actor.name, source: 'agent', actor, license: null };
}

export function tenantScope(tenantId: string): Scope {
  return { kind: 'tenant', tenantId };
}
