// License use cases: the list (provider staff: every tenant's; a tenant admin: its own organisation's, for the
// dashboard's license card, spec tenant-admin.md §7), revoke (the tenant's users and its SDK key are refused with
// license_revoked from their next call) and re-issue (SDK licenses only: one more year, revocation lifted).
import type { License, LicensesQuery } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { pageOffset, paginate, type Page } from '../../lib/pagination.js';
import { problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { canManageTenants } from '../tenants/tenants.policy.js';
import { presentLicense } from './licenses.presenter.js';
import * as q from './licenses.queries.js';

const provider = { kind: 'provider' } as const;

export async function listLicenses(deps: Deps, ctx: Ctx, query: LicensesQuery, url: string): Promise<Page<License>> {
  const own = ctx.actor?.role === 'tenant_admin' && ctx.actor.tenantId ? ctx.actor.tenantId : null;
  if (!own) canManageTenants(ctx);
  const size = query.page_size ?? 10;
  // A tenant admin reads in its tenant's scope (row-level security), and the tenant filter is its own, whatever was sent.
  return withScope(deps.db, own ? { kind: 'tenant', tenantId: own } : provider, async (tx) => {
    const { rows, total } = await q.listLicenses(
      tx,
      { search: query.search, isRevoked: query.is_revoked, isExpired: query.is_expired, type: query.type, issuedDate: query.issued_date, status: query.status, tenantId: own ?? query.tenant_id },
      size,
      pageOffset(query.page, size),
    );
    return paginate(rows.map(presentLicense), total, query.page, size, url);
  });
}

export async function revokeLicense(deps: Deps, ctx: Ctx, id: string): Promise<License> {
  const actor = canManageTenants(ctx);
  return withScope(deps.db, provider, async (tx) => {
    const before = await q.findLicense(tx, id);
    if (!before) throw problems.notFound('License');
    if (!before.is_revoked) {
      await q.revokeLicense(tx, before.tenant_id, id);
      await recordActivity(tx, ctx, { action: 'Update', tenantId: before.tenant_id, description: `${actor.name} revoked the ${before.type} license ${before.key_hint}… of ${before.tenant_name}` });
    }
    return presentLicense((await q.findLicense(tx, id))!);
  });
}

export async function reissueLicense(deps: Deps, ctx: Ctx, id: string): Promise<License> {
  const actor = canManageTenants(ctx);
  return withScope(deps.db, provider, async (tx) => {
    const before = await q.findLicense(tx, id);
    if (!before) throw problems.notFound('License');
    if (before.type !== 'SDK') throw problems.licenseNotReissuable();
    await q.reissueLicense(tx, before.tenant_id, id);
    const after = (await q.findLicense(tx, id))!;
    await recordActivity(tx, ctx, {
      action: 'Update',
      tenantId: before.tenant_id,
      description: `${actor.name} re-issued the SDK license ${before.key_hint}… of ${before.tenant_name} (expiry ${before.expiry_date} → ${after.expiry_date})`,
    });
    return presentLicense(after);
  });
}
