// Mail goes through an outbox table written in the caller's transaction, and is sent by SMTP when SMTP_URL is set. The
// log says a mail was queued, to whom and about what, never its body: reset, invitation and admin links are secrets.
import nodemailer from 'nodemailer';
import type { Deps } from '../../context.js';
import { withScope, type Executor } from '../../db/client.js';
import { insertMail, markMail, pendingMail } from './mail.queries.js';

export async function queueMail(tx: Executor, deps: Pick<Deps, 'log'>, mail: { to: string; subject: string; body: string }): Promise<void> {
  await insertMail(tx, { toAddress: mail.to, subject: mail.subject, body: mail.body });
  deps.log.info({ mail: { to: mail.to, subject: mail.subject } }, 'mail queued (the body, with any link, is in outbox_emails only)');
}

/** Sends pending outbox mail over SMTP; without SMTP the outbox and the log are the delivery. Returns how many were sent. */
export async function flushOutbox(deps: Deps): Promise<number> {
  if (!deps.config.mail.smtpUrl) return 0;
  const transport = nodemailer.createTransport(deps.config.mail.smtpUrl);
  const pending = await withScope(deps.db, { kind: 'system' }, (tx) => pendingMail(tx, 50));
  let sent = 0;
  for (const m of pending) {
    try {
      await transport.sendMail({ from: deps.config.mail.from, to: m.toAddress, subject: m.subject, text: m.body });
      await withScope(deps.db, { kind: 'system' }, (tx) => markMail(tx, m.id, { sentAt: new Date() }));
      sent++;
    } catch (err) {
      deps.log.error({ err, mailId: m.id }, 'mail delivery failed');
      await withScope(deps.db, { kind: 'system' }, (tx) => markMail(tx, m.id, { error: String((err as Error).message).slice(0, 500) }));
    }
  }
  return sent;
}
