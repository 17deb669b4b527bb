// Lookup and region use cases.
import type { Ctx, Deps } from '../../context.js';
import { scopeOf } from '../../context.js';
import { withScope } from '../../db/client.js';
import { pageOffset, paginate } from '../../db/pagination.js';
import { authorize } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { basePolicy } from './base.policy.js';
import * as q from './base.queries.js';

const system = { kind: 'system' } as const;

export async function allCountries(deps: Deps) {
  const rows = await withScope(deps.db, system, (tx) => q.listCountries(tx));
  return rows.map((c) => ({
    id: c.id,
    country_name: c.name,
    country_code: c.iso2,
    currency_code: c.currencyCode,
    currency_name: c.currencyName,
    currency_symbol: c.currencySymbol,
    country_flag: c.countryFlag,
    flag_emoji: c.flagEmoji,
  }));
}

export async function statesOf(deps: Deps, countryId: string) {
  return withScope(deps.db, system, async (tx) => {
    if (!(await q.findCountry(tx, countryId))) throw problems.notFound('Country');
    const rows = await q.listStates(tx, countryId);
    return rows.map((s) => ({ id: s.id, name: s.name, code: s.code, country_id: s.countryId, latitude: s.latitude, longitude: s.longitude }));
  });
}

export async function citiesOf(deps: Deps, countryId: string, search: string | undefined) {
  return withScope(deps.db, system, async (tx) => {
    if (!(await q.findCountry(tx, countryId))) throw problems.notFound('Country');
    const rows = await q.listCities(tx, countryId, search, 5000);
    return rows.map((c) => ({ id: c.id, name: c.name, state_id: c.stateId, latitude: c.latitude, longitude: c.longitude }));
  });
}

export async function listRegions(deps: Deps, ctx: Ctx, query: { page: number; page_size?: number | undefined; country_id?: string | undefined }, url: string) {
  const { actor } = authorize(ctx, basePolicy, 'read-regions');
  const size = query.page_size ?? 100;
  return withScope(deps.db, scopeOf(actor), async (tx) => {
    const { rows, total } = await q.listRegions(tx, actor.role === 'super_admin' ? null : actor.tenantId, query.country_id, size, pageOffset(query.page, size));
    return paginate(
      rows.map((r) => ({ id: r.id, name: r.name, country_id: r.countryId, country: r.country })),
      total,
      query.page,
      size,
      url,
    );
  });
}

export async function createRegion(deps: Deps, ctx: Ctx, body: { country_id: string; name: string }) {
  const { actor } = authorize(ctx, basePolicy, 'create-region');
  return withScope(deps.db, scopeOf(actor), async (tx) => {
    const country = await q.findCountry(tx, body.country_id);
    if (!country) throw problems.field('country_id', 'Unknown country');
    if (await q.regionNameTaken(tx, actor.tenantId, body.name)) throw problems.conflict('name', 'A region with this name already exists');
    const r = await q.insertRegion(tx, actor.tenantId, { countryId: country.id, name: body.name });
    await recordActivity(tx, ctx, { action: 'Create', description: `${actor.name} created the region ${r.name} (${country.name})` });
    return { id: r.id, name: r.name, country_id: r.countryId, country: country.name };
  });
}
