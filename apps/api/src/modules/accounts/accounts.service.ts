// Profile use cases: read, edit, upload an image, and reset an account (an administrator's act).
import type { UserProfile } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { requireActor, scopeOf } from '../../context.js';
import { withScope } from '../../db/client.js';
import { authorize } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { extensionOf, sniffImage } from '../../lib/sniff.js';
import { recordActivity } from '../activity/activity.service.js';
import { revokeUserSessions } from '../auth/auth.queries.js';
import { clearMfa } from '../auth/auth.queries.js';
import { createInvitation, invitationLink } from '../auth/auth.service.js';
import { storeFile } from '../files/files.service.js';
import { queueMail } from '../mail/mail.service.js';
import { clearCredentials, findProfile, updateProfile } from './accounts.queries.js';
import { accountsPolicy } from './accounts.policy.js';
import { presentProfile } from './accounts.presenter.js';

const target = (p: Awaited<ReturnType<typeof findProfile>>) => (p ? { userId: p.user.id, tenantId: p.user.tenantId } : null);

export async function getUser(deps: Deps, ctx: Ctx, userId: string): Promise<UserProfile> {
  const actor = requireActor(ctx);
  return withScope(deps.db, scopeOf(actor), async (tx) => {
    const p = await findProfile(tx, userId);
    authorize(ctx, accountsPolicy, 'see', target(p));
    return presentProfile(deps, p!.user, p!.tenantName);
  });
}

export type ProfilePatch = {
  first_name?: string | undefined;
  last_name?: string | undefined;
  phone_number?: string | null | undefined;
  gender?: 'Male' | 'Female' | null | undefined;
};

export async function updateUser(deps: Deps, ctx: Ctx, userId: string, body: ProfilePatch): Promise<UserProfile> {
  const actor = requireActor(ctx);
  return withScope(deps.db, scopeOf(actor), async (tx) => {
    const before = await findProfile(tx, userId);
    authorize(ctx, accountsPolicy, 'edit', target(before));
    const patch = {
      ...(body.first_name !== undefined ? { firstName: body.first_name } : {}),
      ...(body.last_name !== undefined ? { lastName: body.last_name } : {}),
      ...(body.phone_number !== undefined ? { phoneNumber: body.phone_number } : {}),
      ...(body.gender !== undefined ? { gender: body.gender } : {}),
    };
    if (Object.keys(patch).length === 0) throw problems.field('body', 'Send at least one of first_name, last_name, phone_number, gender');
    await updateProfile(tx, userId, patch);
    const changed = Object.keys(body).join(', ');
    const subject = userId === actor.userId ? 'their profile' : `the profile of ${before!.user.firstName} ${before!.user.lastName}`;
    await recordActivity(tx, ctx, { action: 'Update', description: `${actor.name} updated ${subject} (${changed})`, tenantId: before!.user.tenantId });
    const after = await findProfile(tx, userId);
    return presentProfile(deps, after!.user, after!.tenantName);
  });
}

export async function uploadImage(deps: Deps, ctx: Ctx, file: { data: Buffer; filename: string }): Promise<UserProfile> {
  const actor = requireActor(ctx);
  const type = sniffImage(file.data);
  if (!type) throw problems.field('image', 'The file is not a PNG, JPEG, WebP or GIF image');
  return withScope(deps.db, scopeOf(actor), async (tx) => {
    const fileId = await storeFile(tx, deps, {
      tenantId: actor.tenantId,
      kind: 'avatar',
      data: file.data,
      contentType: type,
      extension: extensionOf[type],
      originalName: file.filename.slice(0, 200),
      createdBy: actor.userId,
    });
    await updateProfile(tx, actor.userId, { imageFileId: fileId });
    await recordActivity(tx, ctx, { action: 'Update', description: `${actor.name} changed their profile image` });
    const p = await findProfile(tx, actor.userId);
    return presentProfile(deps, p!.user, p!.tenantName);
  });
}

/** Ends every session, clears password and two-factor, and mails a fresh invitation to set them again. */
export async function resetAccount(deps: Deps, ctx: Ctx, userId: string): Promise<void> {
  const actor = requireActor(ctx);
  await withScope(deps.db, scopeOf(actor), async (tx) => {
    const p = await findProfile(tx, userId);
    authorize(ctx, accountsPolicy, 'reset', target(p));
    const u = p!.user;
    await clearCredentials(tx, u.id);
    await clearMfa(tx, u.id);
    await revokeUserSessions(tx, u.id, 'account_reset');
    const key = await createInvitation(tx, deps, u.id);
    await queueMail(tx, deps, {
      to: u.email,
      subject: 'Your account was reset',
      body: `Hello ${u.firstName},\n\nAn administrator reset your account. Choose a new password here (valid for 7 days):\n${invitationLink(deps, key)}\n`,
    });
    await recordActivity(tx, ctx, { action: 'Update', description: `${actor.name} reset the account of ${u.firstName} ${u.lastName}`, tenantId: u.tenantId });
  });
}
