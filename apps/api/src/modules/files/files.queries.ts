// All SQL of stored files. tenantId null is a provider-level file (a super-admin's avatar).
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { files } from '../../db/schema.js';

export type NewFile = typeof files.$inferInsert;

export async function insertFile(tx: Executor, f: NewFile): Promise<string> {
  const [row] = await tx.insert(files).values(f).returning({ id: files.id });
  if (!row) throw new Error('file insert returned nothing');
  return row.id;
}

export async function findFile(tx: Executor, id: string) {
  const rows = await tx.select().from(files).where(eq(files.id, id)).limit(1);
  return rows[0] ?? null;
}
