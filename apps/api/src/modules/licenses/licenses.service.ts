// License use cases: the list (provider staff: every tenant's; a tenant admin: its own organisation's, for the
// dashboard's license card, docs/requirements.md §7), revoke (the tenant's users and its SDK key are refused with
// license_revoked from their next call), re-issue (SDK licenses only: one more year, revocation lifted) and key
// rotation (a new key shown once; the old license revoked, kept in the history). Each change locks the tenant row
// first (lockLicenseTenant), so it serialises with a tenant delete or edit: 404 or 409, never a half-read row.
import type { License, LicensesQuery, RotatedLicense } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope, type Executor } from '../../db/client.js';
import { pageOffset, paginate, type Page } from '../../db/pagination.js';
import { authorize } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { licenseKeyColumns, newLicenseKey } from '../../lib/license-key.js';
import { licensesPolicy } from './licenses.policy.js';
import { presentLicense } from './licenses.presenter.js';
import * as q from './licenses.queries.js';

const provider = { kind: 'provider' } as const;

export async function listLicenses(deps: Deps, ctx: Ctx, query: LicensesQuery, url: string): Promise<Page<License>> {
  // A tenant admin's grant is bound to its own tenant; provider staff's to none (every tenant).
  const { tenantId: own } = authorize(ctx, licensesPolicy, 'list');
  const size = query.page_size ?? 10;
  // A tenant admin reads in its tenant's scope (row-level security), and the tenant filter is its own, whatever was sent.
  return withScope(deps.db, own ? { kind: 'tenant', tenantId: own } : provider, async (tx) => {
    const { rows, total } = await q.listLicenses(
      tx,
      {
        search: query.search,
        isRevoked: query.is_revoked,
        isExpired: query.is_expired,
        type: query.type,
        issuedDate: query.issued_date,
        status: query.status,
        tenantId: own ?? query.tenant_id,
      },
      size,
      pageOffset(query.page, size),
    );
    return paginate(rows.map(presentLicense), total, query.page, size, url);
  });
}

/** The license with its tenant row locked (404 when either is missing or the tenant is deleted). */
async function lockedLicense(tx: Executor, id: string): Promise<q.LicenseRow> {
  if (!(await q.lockLicenseTenant(tx, id))) throw problems.notFound('License');
  const row = await q.findLicense(tx, id);
  if (!row) throw problems.notFound('License');
  return row;
}

export async function revokeLicense(deps: Deps, ctx: Ctx, id: string): Promise<License> {
  const { actor } = authorize(ctx, licensesPolicy, 'manage');
  return withScope(deps.db, provider, async (tx) => {
    const before = await lockedLicense(tx, id);
    if (!before.is_revoked) {
      await q.revokeLicense(tx, before.tenant_id, id);
      await recordActivity(tx, ctx, {
        action: 'Update',
        tenantId: before.tenant_id,
        description: `${actor.name} revoked the ${before.type} license ${before.key_hint}… of ${before.tenant_name}`,
      });
    }
    return presentLicense((await q.findLicense(tx, id))!);
  });
}

export async function reissueLicense(deps: Deps, ctx: Ctx, id: string): Promise<License> {
  const { actor } = authorize(ctx, licensesPolicy, 'manage');
  return withScope(deps.db, provider, async (tx) => {
    const before = await lockedLicense(tx, id);
    if (before.type !== 'SDK') throw problems.licenseNotReissuable();
    // A superseded license stays revoked: re-issuing it would bring its old key back to life.
    if ((await q.currentLicenseId(tx, before.tenant_id)) !== id) throw problems.licenseSuperseded();
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

/**
 * Rotate key: the current, unrevoked license is replaced by a copy with a new key (same type, dates and price; the
 * history keeps the old one, revoked now), so the old key is refused with license_revoked from its next call. The
 * new key is answered this once; only its hash and hint are stored.
 */
export async function rotateLicenseKey(deps: Deps, ctx: Ctx, id: string): Promise<RotatedLicense> {
  const { actor } = authorize(ctx, licensesPolicy, 'manage');
  return withScope(deps.db, provider, async (tx) => {
    const before = await lockedLicense(tx, id);
    if ((await q.currentLicenseId(tx, before.tenant_id)) !== id) throw problems.licenseSuperseded();
    if (before.is_revoked) throw problems.licenseNotRotatable();
    const key = newLicenseKey(before.type);
    const newId = await q.insertRotatedLicense(tx, before.tenant_id, id, licenseKeyColumns(key));
    await q.revokeLicense(tx, before.tenant_id, id);
    const after = (await q.findLicense(tx, newId))!;
    await recordActivity(tx, ctx, {
      action: 'Update',
      tenantId: before.tenant_id,
      description: `${actor.name} rotated the key of the ${before.type} license of ${before.tenant_name} (${before.key_hint}… revoked, ${after.key_hint}… issued)`,
    });
    return { ...presentLicense(after), license_key: key };
  });
}
