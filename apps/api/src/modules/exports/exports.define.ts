// How an exportable list is defined: its columns (labels and how to read them from a row), its column aliases
// (agent_name → first_name, last_name), the filters it accepts, who may export it, and a batched, tenant-scoped query.
import type { z } from 'zod';
import type { CsvCell as Cell, FieldError } from '@farmland/contracts';
import type { Actor, Deps } from '../../context.js';
import { problems } from '../../lib/problems.js';
import type { ExportAction } from './exports.policy.js';

/** The person-name aliases of docs/requirements.md §7: an export may ask for agent_name or farmer_name and get both name columns. */
export const NAME_ALIASES = {
  agent_name: ['first_name', 'last_name'],
  farmer_name: ['first_name', 'last_name'],
} as const satisfies Record<string, readonly string[]>;

export type ExportColumn<R> = { label: string; value: (row: R) => Cell };

export type ExportDefinition<R, F> = {
  name: string;
  /** How the activity log names what was exported: "the activity log". */
  subject: string;
  /** Who may export it: its rule in exports.policy.ts. */
  action: ExportAction;
  columns: Record<string, ExportColumn<R>>;
  aliases?: Readonly<Record<string, readonly string[]>>;
  filters: z.ZodType<F>;
  /** Yields the rows in batches, each batch read in its own short transaction scoped to the actor's tenant. */
  batches: (deps: Deps, actor: Actor, filters: F) => AsyncGenerator<R[]>;
};

/** A list with its row type erased, so that lists of different rows share one registry. */
export type ExportableList = {
  name: string;
  subject: string;
  action: ExportAction;
  columns: readonly { key: string; label: string }[];
  aliases: Readonly<Record<string, readonly string[]>>;
  /** Checks the filters (400 naming filters.<field>) and returns the rows, as cells of the chosen columns. */
  prepare: (deps: Deps, actor: Actor, filters: unknown) => { rows: (columns: readonly string[]) => AsyncGenerator<Cell[][]> };
};

export function defineExport<R, F>(def: ExportDefinition<R, F>): ExportableList {
  return {
    name: def.name,
    subject: def.subject,
    action: def.action,
    columns: Object.entries(def.columns).map(([key, c]) => ({ key, label: c.label })),
    aliases: def.aliases ?? {},
    prepare: (deps, actor, raw) => {
      const parsed = def.filters.safeParse(raw ?? {});
      if (!parsed.success) {
        const errors: FieldError[] = parsed.error.issues.map((i) => {
          const keys = (i as { keys?: string[] }).keys;
          const path = [...i.path.map(String), ...(keys?.length ? [keys[0] ?? ''] : [])].filter(Boolean).join('.');
          return { field: path ? `filters.${path}` : 'filters', message: i.message };
        });
        throw problems.validation(errors);
      }
      const filters = parsed.data;
      return {
        rows: async function* (columns) {
          const readers = columns.map((c) => {
            const col = def.columns[c];
            if (!col) throw new Error(`column ${c} was not resolved`);
            return col.value;
          });
          for await (const batch of def.batches(deps, actor, filters)) yield batch.map((row) => readers.map((read) => read(row)));
        },
      };
    },
  };
}

/**
 * column_list → the list's own column keys, in the order asked, aliases expanded, duplicates dropped.
 * An unknown column is a 400 that names it.
 */
export function resolveColumns(list: Pick<ExportableList, 'name' | 'columns' | 'aliases'>, asked: readonly string[]): string[] {
  const known = new Set(list.columns.map((c) => c.key));
  const out: string[] = [];
  const unknown: string[] = [];
  for (const raw of asked) {
    const name = raw.trim();
    const expanded = known.has(name) ? [name] : (list.aliases[name] ?? null);
    if (!expanded || expanded.some((k) => !known.has(k))) {
      unknown.push(name);
      continue;
    }
    for (const k of expanded) if (!out.includes(k)) out.push(k);
  }
  if (unknown.length) {
    throw problems.field(
      'column_list',
      `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')} for ${list.name}. Available: ${list.columns.map((c) => c.key).join(', ')}`,
    );
  }
  return out;
}
