// POST /accounts/agents/bulk-upload/: every row of the file is checked (every cell, every error), the valid rows become
// agents in one transaction (each with its onboarding mail), and the failed rows come back for correction.
import { z } from 'zod';
import { createAgentBody, type BulkUploadResult, type FailedRow } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { authorize } from '../../lib/policy.js';
import { recordActivity } from '../activity/activity.service.js';
import { blankToUndefined, bulkResult, mapInSlices, normaliseGender, readTable, RowErrors, rowData } from '../bulk-upload/bulk-upload.js';
import * as q from './agents.queries.js';
import { agentsPolicy } from './agents.policy.js';
import { assertEmailsFree, sendOnboarding, uniqueEmail } from './agents.service.js';

/** The columns of agents-template.csv, in order; the required ones are also the header's required columns. */
export const AGENT_COLUMNS = ['first_name', 'last_name', 'email', 'phone_number', 'gender', 'operational_area_id'] as const;
const REQUIRED = ['first_name', 'last_name', 'email', 'phone_number'] as const;

export const AGENTS_TEMPLATE_CSV = [
  AGENT_COLUMNS.join(','),
  'Amina,Bello,amina.bello@example.com,+2348030000001,Female,',
  'Tunde,Okafor,tunde.okafor@example.com,+2348030000002,Male,',
  '',
].join('\r\n');

const rowSchema = createAgentBody.extend({ operational_area_id: z.uuid('Use the id of one of your operational areas').optional() });

export async function bulkUploadAgents(deps: Deps, ctx: Ctx, file: { filename: string; data: Buffer }): Promise<BulkUploadResult> {
  const { actor } = authorize(ctx, agentsPolicy, 'manage');
  const { rows } = await readTable(file, REQUIRED, AGENT_COLUMNS.join(', '));

  type Checked = { index: number; errors: RowErrors; value: z.infer<typeof rowSchema> | null };
  const checked: Checked[] = await mapInSlices(rows, (row, index) => {
    const input = blankToUndefined(row, AGENT_COLUMNS);
    input['gender'] = normaliseGender(input['gender']);
    const errors = new RowErrors();
    const parsed = rowSchema.safeParse(input);
    if (!parsed.success) errors.addIssues(parsed.error.issues);
    return { index, errors, value: parsed.success ? parsed.data : null };
  });

  // Emails repeated inside the file: the first keeps it, each later row is refused on email.
  // A row with other bad cells still hears about its email: the cell is read as it is, when it is itself well formed.
  const emailOf = (c: Checked) => (c.errors.has('email') ? undefined : (rows[c.index]!['email'] ?? '').trim().toLowerCase() || undefined);
  const firstRowOf = new Map<string, number>();
  for (const c of checked) {
    const e = emailOf(c);
    if (!e) continue;
    const seen = firstRowOf.get(e);
    if (seen === undefined) firstRowOf.set(e, c.index);
    else c.errors.add('email', `This email is already used in row ${seen + 1} of the file`);
  }
  const taken = await assertEmailsFree(deps, [...firstRowOf.keys()]);

  return uniqueEmail(() =>
    withScope(deps.db, { kind: 'tenant', tenantId: actor.tenantId }, async (tx) => {
      const areaIds = [...new Set(checked.map((c) => rows[c.index]!['operational_area_id']).filter((v): v is string => !!v))];
      const areas = await q.tenantAreaIds(tx, actor.tenantId, areaIds);
      for (const c of checked) {
        const e = emailOf(c);
        if (e && taken.has(e) && !c.errors.has('email')) c.errors.add('email', 'A user with this email already exists');
        const area = c.errors.has('operational_area_id') ? undefined : rows[c.index]!['operational_area_id'];
        if (area && !areas.has(area)) c.errors.add('operational_area_id', 'No such operational area in your organisation');
      }
      const good = checked.filter((c) => c.value && !c.errors.has());
      const ids = await q.insertAgents(
        tx,
        actor.tenantId,
        good.map((c) => ({
          firstName: c.value!.first_name,
          lastName: c.value!.last_name,
          email: c.value!.email,
          phoneNumber: c.value!.phone_number,
          gender: c.value!.gender ?? null,
          operationalAreaId: c.value!.operational_area_id ?? null,
          imageFileId: null,
        })),
      );
      for (const [i, c] of good.entries()) await sendOnboarding(tx, deps, { id: ids[i]!, email: c.value!.email, firstName: c.value!.first_name }, null);
      const failed: FailedRow[] = checked
        .filter((c) => c.errors.has())
        .map((c) => ({ row: c.index + 1, row_data: rowData(rows[c.index]!, AGENT_COLUMNS), errors: c.errors.byField }));
      await recordActivity(tx, ctx, {
        action: 'Create',
        description: `${actor.name} bulk-uploaded agents from ${file.filename.slice(0, 100)}: ${ids.length} created, ${failed.length} row(s) failed`,
      });
      return bulkResult(rows.length, ids.length, failed);
    }),
  );
}
