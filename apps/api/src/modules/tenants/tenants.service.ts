// Tenant use cases (provider staff only): list and read; create (the tenant, its admin with an onboarding mail, its
// license with a generated key shown once, its configuration), edit, suspend/deactivate (the tenant gate shuts the
// tenant's users out on their next call), and the all-or-nothing soft delete. Every write records its activity entry in
// the same transaction.
import type {
  CreatedTenant,
  DeletedTenants,
  SuspendDeactivateBody,
  Tenant,
  TenantBody,
  TenantListItem,
  TenantsQuery,
  UpdatedTenant,
} from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope, type Executor, type Tx } from '../../db/client.js';
import { sqlState } from '../../db/errors.js';
import { pageOffset, paginate, type Page } from '../../db/pagination.js';
import { authorize } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { revokeTenantSessions } from '../auth/auth.queries.js';
import { createInvitation, invitationLink } from '../auth/auth.service.js';
import { licenseKeyColumns, newLicenseKey } from '../../lib/license-key.js';
import { queueMail } from '../mail/mail.service.js';
import { takenEmails } from '../agents/agents.queries.js';
import { tenantsPolicy } from './tenants.policy.js';
import { presentTenant, presentTenantListItem } from './tenants.presenter.js';
import * as q from './tenants.queries.js';

const provider = { kind: 'provider' } as const;

export async function listTenants(deps: Deps, ctx: Ctx, query: TenantsQuery, url: string): Promise<Page<TenantListItem>> {
  authorize(ctx, tenantsPolicy, 'manage');
  const size = query.page_size ?? 20;
  return withScope(deps.db, provider, async (tx) => {
    const { rows, total } = await q.listTenants(
      tx,
      { search: query.search, isActive: query.is_active, isSuspended: query.is_suspended, licenseType: query.license_type, status: query.status },
      size,
      pageOffset(query.page, size),
    );
    return paginate(rows.map(presentTenantListItem), total, query.page, size, url);
  });
}

export async function getTenant(deps: Deps, ctx: Ctx, id: string): Promise<Tenant> {
  authorize(ctx, tenantsPolicy, 'manage');
  return withScope(deps.db, provider, async (tx) => {
    const row = await q.findTenant(tx, id);
    if (!row) throw problems.notFound('Tenant');
    return presentTenant(row);
  });
}

const tenantEmailTaken = () => problems.field('email', 'A tenant with this email already exists');
const adminEmailTaken = () => problems.field('admin.email', 'A user with this email already exists');

/** The race between the checks and the write ends at a unique index: still a 400 naming the field. */
async function uniqueEmails<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (sqlState(err) === '23505') {
      const text = `${String((err as { cause?: { constraint?: string } }).cause?.constraint ?? '')} ${(err as Error).message}`;
      if (/tenants_email/.test(text)) throw tenantEmailTaken();
      if (/users_email/.test(text)) throw adminEmailTaken();
    }
    throw err;
  }
}

/** The body's country, state and city, checked against the lookups (each refusal names its field). */
async function placeOf(tx: Executor, body: TenantBody): Promise<q.Place> {
  const found = await q.resolvePlace(tx, body.country_id, body.state_id, body.city);
  if (!found.country) throw problems.field('country_id', 'No such country');
  if (!found.state) throw problems.field('state_id', 'No such state in this country');
  const isId = !!body.city && /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(body.city);
  if (isId && !found.city) throw problems.field('city', 'No such city in this country');
  return { countryId: body.country_id, stateId: body.state_id ?? null, cityId: found.city?.id ?? null, city: found.city?.name ?? body.city ?? null };
}

const tenantValues = (body: TenantBody, place: q.Place): q.TenantValues => ({
  ...place,
  name: body.name,
  address: body.address ?? null,
  phoneNumber: body.phone_number,
  email: body.email,
  enableFarmSync: body.license.type === 'SDK' && (body.enable_farm_sync ?? false),
});

const licenseValues = (body: TenantBody): q.LicenseValues => ({
  type: body.license.type,
  issuedDate: body.license.issued_date,
  expiryDate: body.license.expiry_date,
  price: body.license.price,
});

const adminValues = (body: TenantBody): q.AdminValues => ({
  email: body.admin.email,
  firstName: body.admin.first_name,
  lastName: body.admin.last_name,
  phoneNumber: body.admin.phone_number,
});

/** The new admin's onboarding mail: a single-use link (7 days) to set a password, in the same transaction as the admin. */
async function sendAdminOnboarding(tx: Tx, deps: Deps, admin: { id: string; email: string; firstName: string }, tenantName: string): Promise<void> {
  const key = await createInvitation(tx, deps, admin.id);
  await queueMail(tx, deps, {
    to: admin.email,
    subject: `You are the administrator of ${tenantName}`,
    body: `Hello ${admin.firstName},\n\n${tenantName} has been registered on the farmland-mapping platform, and you are its administrator. Set your password here (valid for 7 days):\n${invitationLink(deps, key)}\n`,
  });
}

/** Emails used by a sign-in (any tenant, system scope): the admin's email must be free. */
async function adminEmailFree(deps: Deps, email: string, exceptUserId: string | null): Promise<boolean> {
  return (await withScope(deps.db, { kind: 'system' }, (tx) => takenEmails(tx, [email], exceptUserId))).size === 0;
}

export async function createTenant(deps: Deps, ctx: Ctx, body: TenantBody): Promise<CreatedTenant> {
  const { actor } = authorize(ctx, tenantsPolicy, 'manage');
  if (!(await adminEmailFree(deps, body.admin.email, null))) throw adminEmailTaken();
  const key = newLicenseKey(body.license.type);
  return uniqueEmails(() =>
    withScope(deps.db, provider, async (tx) => {
      if (await q.tenantEmailTaken(tx, body.email, null)) throw tenantEmailTaken();
      const id = await q.insertTenant(tx, tenantValues(body, await placeOf(tx, body)));
      await q.insertLicense(tx, id, licenseValues(body), licenseKeyColumns(key));
      const adminId = await q.insertAdmin(tx, id, adminValues(body));
      await sendAdminOnboarding(tx, deps, { id: adminId, email: body.admin.email, firstName: body.admin.first_name }, body.name);
      await recordActivity(tx, ctx, {
        action: 'Create',
        tenantId: id,
        description: `${actor.name} created the tenant ${body.name} (${body.license.type} license until ${body.license.expiry_date}; admin ${body.admin.email})`,
      });
      return { ...presentTenant((await q.findTenant(tx, id))!), license_key: key };
    }),
  );
}

/**
 * Edit: organisation, admin and license terms. The license is not re-dated: with the same type its issued date stays and
 * only the expiry date and price change; a type change issues a new license (the body's dates, a new key answered this
 * once as license_key) and revokes the old one, which stays in the history.
 */
export async function updateTenant(deps: Deps, ctx: Ctx, id: string, body: TenantBody): Promise<UpdatedTenant> {
  const { actor } = authorize(ctx, tenantsPolicy, 'manage');
  const before = await withScope(deps.db, provider, (tx) => q.findTenant(tx, id));
  if (!before) throw problems.notFound('Tenant');
  if (body.admin.email !== before.admin_email?.toLowerCase() && !(await adminEmailFree(deps, body.admin.email, before.admin_id))) throw adminEmailTaken();
  return uniqueEmails(() =>
    withScope(deps.db, provider, async (tx) => {
      if (!(await q.lockTenant(tx, id))) throw problems.notFound('Tenant');
      const row = (await q.findTenant(tx, id))!;
      if (await q.tenantEmailTaken(tx, body.email, id)) throw tenantEmailTaken();
      await q.updateTenant(tx, id, tenantValues(body, await placeOf(tx, body)));
      let licenseKey: string | undefined;
      if (row.license_id && row.license_type === body.license.type) {
        if (row.license_issued_date && body.license.expiry_date <= row.license_issued_date) {
          throw problems.field('license.expiry_date', `The expiry date must be after the license's issued date (${row.license_issued_date})`);
        }
        await q.updateLicenseTerms(tx, id, row.license_id, { expiryDate: body.license.expiry_date, price: body.license.price });
      } else {
        if (row.license_issued_date && body.license.issued_date < row.license_issued_date) {
          throw problems.field('license.issued_date', `A new license cannot be issued before the current one (${row.license_issued_date})`);
        }
        licenseKey = newLicenseKey(body.license.type);
        await q.insertLicense(tx, id, licenseValues(body), licenseKeyColumns(licenseKey));
        if (row.license_id) await q.supersedeLicense(tx, id, row.license_id);
      }
      if (row.admin_id) {
        await q.updateAdmin(tx, id, row.admin_id, adminValues(body));
      } else {
        const adminId = await q.insertAdmin(tx, id, adminValues(body));
        await sendAdminOnboarding(tx, deps, { id: adminId, email: body.admin.email, firstName: body.admin.first_name }, body.name);
      }
      const licenseNote = licenseKey
        ? ` (new ${body.license.type} license until ${body.license.expiry_date}${row.license_type ? `, replacing the ${row.license_type} license` : ''})`
        : '';
      await recordActivity(tx, ctx, { action: 'Update', tenantId: id, description: `${actor.name} edited the tenant ${body.name}${licenseNote}` });
      const tenant = presentTenant((await q.findTenant(tx, id))!);
      return licenseKey ? { ...tenant, license_key: licenseKey } : tenant;
    }),
  );
}

/** What a suspend-deactivate call did, for the spec's success message. */
export type FlagChange = 'suspended' | 'unsuspended' | 'deactivated' | 'activated';

/**
 * Sets is_active and/or is_suspended. The tenant's users are shut out at once: every authenticated call re-reads the
 * tenant gate, so their next call answers 403 tenant_inactive / tenant_suspended, and activating or unsuspending gives
 * the same sessions their access back.
 */
export async function suspendDeactivate(deps: Deps, ctx: Ctx, id: string, body: SuspendDeactivateBody): Promise<{ tenant: Tenant; change: FlagChange }> {
  const { actor } = authorize(ctx, tenantsPolicy, 'manage');
  return withScope(deps.db, provider, async (tx) => {
    if (!(await q.lockTenant(tx, id))) throw problems.notFound('Tenant');
    const before = (await q.findTenant(tx, id))!;
    await q.setFlags(tx, id, { isActive: body.is_active, isSuspended: body.is_suspended });
    const after = (await q.findTenant(tx, id))!;
    const changes: string[] = [];
    if (after.is_active !== before.is_active) changes.push(after.is_active ? 'activated' : 'deactivated');
    if (after.is_suspended !== before.is_suspended) changes.push(after.is_suspended ? 'suspended' : 'unsuspended');
    if (changes.length > 0)
      await recordActivity(tx, ctx, { action: 'Update', tenantId: id, description: `${actor.name} ${changes.join(' and ')} the tenant ${before.name}` });
    // The message follows what was asked (suspension first when both are sent), even when the tenant was already so.
    const change: FlagChange =
      body.is_suspended !== undefined ? (body.is_suspended ? 'suspended' : 'unsuspended') : body.is_active ? 'activated' : 'deactivated';
    return { tenant: presentTenant(after), change };
  });
}

/**
 * Soft-deletes tenants, all or nothing in one transaction: an unknown, already deleted or repeated-but-missing uuid
 * deletes none of them. Sessions of their users end; their data stays in the database, hidden; the activity log stays.
 */
export async function deleteTenants(deps: Deps, ctx: Ctx, uuids: string[]): Promise<DeletedTenants> {
  const { actor } = authorize(ctx, tenantsPolicy, 'manage');
  const ids = [...new Set(uuids.map((u) => u.toLowerCase()))];
  return withScope(deps.db, provider, async (tx) => {
    const live = await q.lockLiveTenants(tx, ids);
    const found = new Set(live.map((t) => t.id));
    const missing = ids.filter((i) => !found.has(i));
    if (missing.length > 0) throw problems.field('uuids', `No such tenant: ${missing.join(', ')}. Nothing was deleted.`);
    await q.softDeleteTenants(tx, ids);
    for (const t of live) {
      await revokeTenantSessions(tx, t.id, 'tenant_deleted');
      await recordActivity(tx, ctx, { action: 'Delete', tenantId: t.id, description: `${actor.name} deleted the tenant ${t.name}` });
    }
    return { deleted: ids.length, uuids: ids };
  });
}
