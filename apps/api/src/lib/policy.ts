// The one policy form. Each module declares who may do what in a table (`<module>.policy.ts`: definePolicy), and
// three functions read every table the same way:
//   can(principal, policy, action, resource?)     true or false (tests, and a caller that only asks)
//   authorize(ctx, policy, action, resource?)     the grant, or the Problem the request is answered with
//   authorizeRow(ctx, policy, action, row, of)    the same, for a record read first: the row itself, known to exist
// and gate(policy, action) gives a route its access rule from the same table (plugins/auth.ts checks it before the
// body is read), so a route's gate and its service's check cannot drift apart.
//
// The answers, in this order:
//   nobody signed in (or an SDK license key on a rule that does not admit one)   401 unauthenticated
//   a role the rule does not admit, or a tenant user without a tenant             403 forbidden (the rule's message)
//   a record that does not exist, or lies outside the role's reach                404 not_found (the rule's record name):
//                                                                                 a foreign record looks like a missing one
//   the actor's own record, where the rule refuses it (notSelf)                   403 forbidden (that message)
//
// Tenancy walls (row-level security, the tenant id first in every query) are not policies: a grant only says which
// tenant the act is bound to and the scope that goes with it. This file is a leaf: it imports nothing from the modules.
import type { RoleName } from '@farmland/contracts';
import { problems, type Problem } from './problems.js';

/** A signed-in user, as the session gives it. */
export type Actor = {
  userId: string;
  sessionId: string;
  role: RoleName;
  tenantId: string | null;
  name: string;
  email: string;
};

/** A tenant's SDK license key acting for field capture (no user behind it). */
export type LicenseActor = { licenseId: string; tenantId: string; tenantName: string; keyHint: string };

/** Who a rule may admit: a role's sessions, or 'sdk_license', a tenant's SDK license key (X-License-Key). */
export type Who = RoleName | 'sdk_license';

/** How far an admitted role reaches: every tenant, its own tenant, or its own account only. */
export type Reach = 'all' | 'tenant' | 'self';

export type Rule<W extends Who = Who> = {
  /** Who may. Anyone else gets 403; nobody signed in gets 401. */
  readonly who: readonly W[];
  /** The 403's message for a role not admitted (the catalogue's default when absent). */
  readonly denied?: string;
  /** Each role's reach over a resource. Default: super_admin 'all', every other role (and a license key) 'tenant'. */
  readonly reach?: Partial<Record<W, Reach>>;
  /** The record's name in the 404 for a record that is missing or out of reach ('Tenant', 'User', 'Analysis'). */
  readonly hidden?: string;
  /** The actor's own record is refused with 403 and this message. */
  readonly notSelf?: string;
};

export type Table = Readonly<Record<string, Rule>>;

/** A module's table, with the module's name (actions are named `<module>.<action>` outside it). */
export type Policy<T extends Table = Table> = { readonly module: string; readonly rules: T };

/**
 * What a rule is asked about. tenantId: the record's tenant, or the tenant a request names (tenant_id); userId: the
 * account a record is (for 'self' and notSelf). null instead of a resource: the record does not exist.
 */
export type Resource = { tenantId: string | null; userId?: string | null };

/** The request's principals: plugins/auth.ts sets at most one of them. */
export type Principals = { actor: Actor | null; license?: LicenseActor | null };

export type TenantScope = { kind: 'provider' } | { kind: 'tenant'; tenantId: string };

type Grant = {
  actor: Actor | null;
  license: LicenseActor | null;
  /** The tenant the act is bound to: a tenant user's or license key's own; provider staff: the named tenant or null (every tenant). */
  tenantId: string | null;
  /** The row-level-security scope that goes with it. */
  scope: TenantScope;
};

/** A grant typed by the rule's roles: no super_admin, a tenant is certain; no sdk_license, an actor is. */
export type GrantOf<W extends Who> = {
  actor: 'sdk_license' extends W
    ? ('super_admin' extends W ? Actor : Actor & { tenantId: string }) | null
    : 'super_admin' extends W
      ? Actor
      : Actor & { tenantId: string };
  license: 'sdk_license' extends W ? LicenseActor | null : null;
  tenantId: 'super_admin' extends W ? string | null : string;
  scope: TenantScope;
};

type WhoOf<T extends Table, A extends keyof T> = T[A]['who'][number];

export function definePolicy<const T extends Table>(module: string, rules: T): Policy<T> {
  return Object.freeze({ module, rules: Object.freeze(rules) });
}

function ruleOf(policy: Policy, action: string): Rule {
  const rule = Object.hasOwn(policy.rules, action) ? policy.rules[action] : undefined;
  // Types make this unreachable from the code; a table changed at run time must not open a door.
  if (!rule) throw new Error(`No rule for ${policy.module}.${action}`);
  return rule;
}

export type Decision = { ok: true; grant: Grant } | { ok: false; problem: Problem };

/** The evaluator: one rule, the request's principals, and the resource if any. */
export function decide(rule: Rule, who: Principals, resource?: Resource | null): Decision {
  const license = who.license ?? null;
  const actor = license ? null : who.actor;
  const deny = (problem: Problem): Decision => ({ ok: false, problem });

  let role: Who;
  let tenantId: string | null;
  let userId: string | null;
  if (license) {
    // A license key is no identity for a rule that does not admit one: as if nobody had signed in.
    if (!rule.who.includes('sdk_license')) return deny(problems.unauthenticated());
    role = 'sdk_license';
    tenantId = license.tenantId;
    userId = null;
  } else {
    if (!actor) return deny(problems.unauthenticated());
    role = actor.role;
    tenantId = actor.tenantId;
    userId = actor.userId;
    if (!rule.who.includes(role) || (role !== 'super_admin' && !tenantId)) return deny(problems.forbidden(rule.denied));
  }

  const provider = role === 'super_admin';
  if (resource === null) return deny(problems.notFound(rule.hidden));
  if (resource !== undefined) {
    const reach = rule.reach?.[role] ?? (provider ? 'all' : 'tenant');
    const inReach = reach === 'all' || (reach === 'tenant' ? resource.tenantId === tenantId : userId !== null && resource.userId === userId);
    if (!inReach) return deny(problems.notFound(rule.hidden));
    if (rule.notSelf && userId !== null && resource.userId === userId) return deny(problems.forbidden(rule.notSelf));
  }

  const bound = provider ? (resource?.tenantId ?? null) : tenantId;
  const scope: TenantScope = provider ? { kind: 'provider' } : { kind: 'tenant', tenantId: tenantId! };
  return { ok: true, grant: { actor, license, tenantId: bound, scope } };
}

/** May this principal do this action (to this resource)? */
export function can<T extends Table>(who: Actor | LicenseActor | null, policy: Policy<T>, action: keyof T & string, resource?: Resource | null): boolean {
  const principals: Principals = who && 'licenseId' in who ? { actor: null, license: who } : { actor: who };
  return decide(ruleOf(policy, action), principals, resource).ok;
}

/** The grant for this action, or the Problem thrown (401, 403 or 404, as the order above says). */
export function authorize<T extends Table, A extends keyof T & string>(
  ctx: Principals,
  policy: Policy<T>,
  action: A,
  resource?: Resource | null,
): GrantOf<WhoOf<T, A>> {
  const d = decide(ruleOf(policy, action), ctx, resource);
  if (!d.ok) throw d.problem;
  return d.grant as GrantOf<WhoOf<T, A>>;
}

/** authorize() for a record read first (null: it does not exist); answers the record itself, known to exist and in reach. */
export function authorizeRow<T extends Table, R>(
  ctx: Principals,
  policy: Policy<T>,
  action: keyof T & string,
  row: R | null | undefined,
  resourceOf: (row: R) => Resource,
): R {
  authorize(ctx, policy, action, row === null || row === undefined ? null : resourceOf(row));
  return row!; // a missing row has thrown its 404 (or the 401/403 before it)
}

/** A tenant a request names (?tenant_id=), as a resource; none named: no resource. */
export function namedTenant(tenantId: string | null | undefined): Resource | undefined {
  return tenantId ? { tenantId } : undefined;
}

/** A record with a tenant_id column, as a resource (for authorizeRow). */
export const rowTenant = (row: { tenant_id: string | null }): Resource => ({ tenantId: row.tenant_id });

/** A route's access rule from the table: the rule's roles, checked before the body is read, and the action's name. */
export function gate<T extends Table>(policy: Policy<T>, action: keyof T & string): { access: readonly Who[]; action: string } {
  return { access: ruleOf(policy, action).who, action: `${policy.module}.${action}` };
}
