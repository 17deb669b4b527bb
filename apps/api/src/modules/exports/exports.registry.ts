// The registry of exportable lists: the {name} of POST /base/export/{name}/ → its definition. A later list plugs in
// by writing one defineExport(...) (see lists/activity-logs.export.ts) and adding it here.
import type { ExportableList } from './exports.define.js';
import { activityLogsExport } from './lists/activity-logs.export.js';
import { agentsExport } from './lists/agents.export.js';
import { farmersExport } from './lists/farmers.export.js';
import { licensesExport } from './lists/licenses.export.js';
import { mappingsExport } from './lists/mappings.export.js';
import { tenantsExport } from './lists/tenants.export.js';

/** Every exportable list; names are the {name} of POST /base/export/{name}/. */
export const EXPORTABLE_LISTS: readonly ExportableList[] = [activityLogsExport, mappingsExport, farmersExport, agentsExport, tenantsExport, licensesExport];

const registry = new Map(EXPORTABLE_LISTS.map((l) => [l.name, l]));

export function findExport(name: string): ExportableList | undefined {
  return registry.get(name);
}

export const exportNames = (): string[] => [...registry.keys()];
