// The one polygon gate of the registry: normalised rings (from the contract) must also satisfy ST_IsValid, else a 400 on the
// field with PostGIS's reason. Nothing is written before this passes.
import type { PolygonRings } from '@farmland/contracts';
import type { Executor } from '../../db/client.js';
import { problems } from '../../lib/problems.js';
import { checkPolygon } from './geometry.queries.js';

export async function assertValidPolygon(tx: Executor, rings: PolygonRings, field = 'coordinates'): Promise<{ areaSqm: number }> {
  const check = await checkPolygon(tx, rings);
  if (!check.valid) throw problems.field(field, `The polygon is not valid: ${check.reason}`);
  if (!(check.areaSqm > 0)) throw problems.field(field, 'The polygon has no area');
  return { areaSqm: check.areaSqm };
}
