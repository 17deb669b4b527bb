// All SQL of the mail outbox.
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { outboxEmails } from '../../db/schema.js';

export async function insertMail(tx: Executor, m: { toAddress: string; subject: string; body: string }): Promise<void> {
  await tx.insert(outboxEmails).values(m);
}

export async function pendingMail(tx: Executor, limit: number) {
  return tx
    .select()
    .from(outboxEmails)
    .where(and(isNull(outboxEmails.sentAt), isNull(outboxEmails.error)))
    .orderBy(asc(outboxEmails.createdAt))
    .limit(limit);
}

export async function markMail(tx: Executor, id: string, result: { sentAt?: Date; error?: string }): Promise<void> {
  await tx.update(outboxEmails).set(result).where(eq(outboxEmails.id, id));
}

export async function latestMailTo(tx: Executor, to: string) {
  const rows = await tx.select().from(outboxEmails).where(eq(outboxEmails.toAddress, to)).orderBy(asc(outboxEmails.createdAt));
  return rows.at(-1) ?? null;
}
