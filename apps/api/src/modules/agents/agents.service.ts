// Agent use cases: list and read with mapping totals; create (with an optional photo checked by content, and an onboarding
// mail to set a password), edit, suspend/unsuspend (one call toggles; sessions end at once), delete (sessions end with it).
import type { Agent, AgentDetail, AgentsQuery, CreateAgentBody, UpdateAgentBody } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { scopedReader, withScope, type Executor } from '../../db/client.js';
import { sqlState } from '../../db/errors.js';
import type { UploadedFile } from '../../lib/form.js';
import { pageOffset, paginate, type Page } from '../../db/pagination.js';
import { authorize, namedTenant } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { extensionOf, sniffImage } from '../../lib/sniff.js';
import { recordActivity } from '../activity/activity.service.js';
import { revokeUserSessions } from '../auth/auth.queries.js';
import { createInvitation, invitationLink } from '../auth/auth.service.js';
import { storeFile } from '../files/files.service.js';
import { queueMail } from '../mail/mail.service.js';
import { lockTenantFarms } from '../farms/farms.queries.js';
import * as q from './agents.queries.js';
import { agentsPolicy } from './agents.policy.js';
import { presentAgent, presentAgentDetail } from './agents.presenter.js';

const tenantScope = (tenantId: string) => ({ kind: 'tenant', tenantId }) as const;

export async function listAgents(deps: Deps, ctx: Ctx, query: AgentsQuery, url: string): Promise<Page<Agent>> {
  const { tenantId, scope } = authorize(ctx, agentsPolicy, 'read', namedTenant(query.tenant_id));
  const size = query.page_size ?? 10;
  // The page and its total in one statement, sent with the scope in one round trip (db/pagination.ts).
  const { rows, total } = await q.listAgents(
    scopedReader(deps.db, scope, ctx),
    tenantId,
    { search: query.search, region: query.region, operationalAreaId: query.operational_area },
    size,
    pageOffset(query.page, size),
  );
  return paginate(
    rows.map((r) => presentAgent(deps, r)),
    total,
    query.page,
    size,
    url,
  );
}

/** The agent drawer: the agent with its totals and its ten latest captures. */
export async function getAgent(deps: Deps, ctx: Ctx, id: string): Promise<AgentDetail> {
  const { tenantId, scope } = authorize(ctx, agentsPolicy, 'read');
  return withScope(deps.db, scope, async (tx) => {
    const row = await q.findAgent(tx, tenantId, id);
    if (!row) throw problems.notFound('Agent');
    return presentAgentDetail(deps, row, await q.recentCaptures(tx, row.tenant_id, row.id, 10));
  });
}

function checkImage(files: UploadedFile[]) {
  const file = files[0];
  if (!file) return null;
  const type = sniffImage(file.data);
  if (!type) throw problems.field('image', 'The file is not a PNG, JPEG, WebP or GIF image');
  return { ...file, type };
}

async function storeImage(tx: Executor, deps: Deps, tenantId: string, by: string, image: ReturnType<typeof checkImage>): Promise<string | null> {
  if (!image) return null;
  return storeFile(tx, deps, {
    tenantId,
    kind: 'avatar',
    data: image.data,
    contentType: image.type,
    extension: extensionOf[image.type],
    originalName: image.filename || null,
    createdBy: by,
  });
}

/** A sign-in email is unique over the whole platform, so it is checked across tenants (system scope, emails only). */
export async function assertEmailsFree(deps: Deps, emails: string[], exceptUserId: string | null = null): Promise<Set<string>> {
  return withScope(deps.db, { kind: 'system' }, (tx) => q.takenEmails(tx, emails, exceptUserId));
}

const emailTaken = () => problems.field('email', 'A user with this email already exists');

/** The race between the check and the insert ends at the unique index: still a 400 on email. */
export async function uniqueEmail<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (sqlState(err) === '23505' && /email/i.test(String((err as { cause?: { constraint?: string } }).cause?.constraint ?? (err as Error).message)))
      throw emailTaken();
    throw err;
  }
}

export async function assertAreaOfTenant(tx: Executor, tenantId: string, areaId: string | undefined): Promise<void> {
  if (areaId && !(await q.tenantAreaIds(tx, tenantId, [areaId])).has(areaId))
    throw problems.field('operational_area_id', 'No such operational area in your organisation');
}

/** The onboarding mail of a new agent: a single-use link (7 days) to set a password. Same transaction as the agent. */
export async function sendOnboarding(
  tx: Executor,
  deps: Deps,
  agent: { id: string; email: string; firstName: string },
  tenantName: string | null,
): Promise<void> {
  const key = await createInvitation(tx as Parameters<typeof createInvitation>[0], deps, agent.id);
  await queueMail(tx, deps, {
    to: agent.email,
    subject: 'You have been added as a field agent',
    body: `Hello ${agent.firstName},\n\nYou have been added as a field agent${tenantName ? ` of ${tenantName}` : ''}. Set your password here (valid for 7 days):\n${invitationLink(deps, key)}\n`,
  });
}

export async function createAgent(deps: Deps, ctx: Ctx, body: CreateAgentBody, files: UploadedFile[]): Promise<Agent> {
  const { actor } = authorize(ctx, agentsPolicy, 'manage');
  const image = checkImage(files);
  if ((await assertEmailsFree(deps, [body.email])).size > 0) throw emailTaken();
  return uniqueEmail(() =>
    withScope(
      deps.db,
      tenantScope(actor.tenantId),
      async (tx) => {
        await assertAreaOfTenant(tx, actor.tenantId, body.operational_area_id);
        const [id] = await q.insertAgents(tx, actor.tenantId, [
          {
            firstName: body.first_name,
            lastName: body.last_name,
            email: body.email,
            phoneNumber: body.phone_number,
            gender: body.gender ?? null,
            operationalAreaId: body.operational_area_id ?? null,
            imageFileId: await storeImage(tx, deps, actor.tenantId, actor.userId, image),
          },
        ]);
        await sendOnboarding(tx, deps, { id: id!, email: body.email, firstName: body.first_name }, null);
        await recordActivity(tx, ctx, {
          action: 'Create',
          description: `${actor.name} created the agent ${body.first_name} ${body.last_name} (${body.email})`,
        });
        return presentAgent(deps, (await q.findAgent(tx, actor.tenantId, id!))!);
      },
      { retry: true },
    ),
  );
}

export async function updateAgent(deps: Deps, ctx: Ctx, id: string, body: UpdateAgentBody, files: UploadedFile[]): Promise<Agent> {
  const { actor } = authorize(ctx, agentsPolicy, 'manage');
  const image = checkImage(files);
  // Read first: an agent of another tenant is a 404 before anything about the email is said.
  const before = await withScope(deps.db, tenantScope(actor.tenantId), (tx) => q.findAgent(tx, actor.tenantId, id));
  if (!before) throw problems.notFound('Agent');
  if (body.email && body.email !== before.email.toLowerCase() && (await assertEmailsFree(deps, [body.email], id)).size > 0) throw emailTaken();
  return uniqueEmail(() =>
    withScope(
      deps.db,
      tenantScope(actor.tenantId),
      async (tx) => {
        if (!(await q.findAgent(tx, actor.tenantId, id))) throw problems.notFound('Agent');
        await assertAreaOfTenant(tx, actor.tenantId, body.operational_area_id);
        const imageFileId = await storeImage(tx, deps, actor.tenantId, actor.userId, image);
        const patch: q.AgentPatch = {
          firstName: body.first_name,
          lastName: body.last_name,
          email: body.email,
          phoneNumber: body.phone_number,
          gender: body.gender,
          operationalAreaId: body.operational_area_id,
          ...(imageFileId ? { imageFileId } : {}),
        };
        if (Object.values(patch).every((v) => v === undefined)) throw problems.field('body', 'Send at least one field to change');
        await q.updateAgent(tx, actor.tenantId, id, patch);
        const changed = Object.keys(body)
          .concat(imageFileId ? ['image'] : [])
          .join(', ');
        await recordActivity(tx, ctx, {
          action: 'Update',
          description: `${actor.name} edited the agent ${before.first_name} ${before.last_name} (${changed})`,
        });
        return presentAgent(deps, (await q.findAgent(tx, actor.tenantId, id))!);
      },
      { retry: true },
    ),
  );
}

/** One call toggles: a suspended agent is unsuspended and the other way round. Suspending ends every session at once. */
export async function toggleSuspension(deps: Deps, ctx: Ctx, id: string): Promise<{ agent: Agent; suspended: boolean }> {
  const { actor } = authorize(ctx, agentsPolicy, 'manage');
  return withScope(
    deps.db,
    tenantScope(actor.tenantId),
    async (tx) => {
      const before = await q.findAgent(tx, actor.tenantId, id);
      if (!before) throw problems.notFound('Agent');
      const suspended = !before.is_suspended;
      await q.setSuspended(tx, actor.tenantId, id, suspended);
      if (suspended) await revokeUserSessions(tx, id, 'agent_suspended');
      await recordActivity(tx, ctx, {
        action: 'Update',
        description: `${actor.name} ${suspended ? 'suspended' : 'unsuspended'} the agent ${before.first_name} ${before.last_name}`,
      });
      return { agent: presentAgent(deps, (await q.findAgent(tx, actor.tenantId, id))!), suspended };
    },
    { retry: true },
  );
}

export async function deleteAgent(deps: Deps, ctx: Ctx, id: string): Promise<void> {
  const { actor } = authorize(ctx, agentsPolicy, 'manage');
  await withScope(
    deps.db,
    tenantScope(actor.tenantId),
    async (tx) => {
      const before = await q.findAgent(tx, actor.tenantId, id);
      if (!before) throw problems.notFound('Agent');
      // Deleting the user sets farms.mapped_by to null on its farms (a write to farms, and to agent_stats by trigger): in
      // the tenant's farm-lock order, like every other farm writer, so it cannot deadlock with a farm edit.
      await lockTenantFarms(tx, actor.tenantId);
      await revokeUserSessions(tx, id, 'agent_deleted');
      await q.deleteAgent(tx, actor.tenantId, id);
      await recordActivity(tx, ctx, {
        action: 'Delete',
        description: `${actor.name} deleted the agent ${before.first_name} ${before.last_name} (${before.email}; ${before.farmers_count} farmers, ${before.mapped_farms_count} farms mapped)`,
      });
    },
    { retry: true },
  );
}
