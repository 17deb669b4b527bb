// The field app's calls, through the console's API client (JWE bodies, token refresh).
import { api } from '../../lib/api-client';
import type { FieldArea, FieldBundle } from './types';

/** GET /api/field/areas/: the areas the agent may download, its assigned area first. */
export async function fetchAreas(): Promise<FieldArea[]> {
  return (await api<{ data: FieldArea[] }>('/field/areas/')).data;
}

/** GET /api/field/bundle/?area_id=: the area, its farms, the agent's farmers and the tenant's check settings. */
export async function fetchBundle(areaId: string): Promise<{ bundle: FieldBundle; bytes: number }> {
  const res = await api<{ data: FieldBundle }>('/field/bundle/', { query: { area_id: areaId } });
  return { bundle: res.data, bytes: JSON.stringify(res.data).length };
}
