// The header's search box (docs/requirements.md §2: "a search box"), searching what users look for by name through the existing list
// APIs, three results each, debounced by 400 ms (docs/requirements.md §9): in the tenant area farms, farmers and agents; in the provider
// area tenants and farms of every tenant. Picking a result opens it where its screen shows it (issue 33: the
// box only ever opened the activity log). Decided in docs/decisions/0052-header-search.md.
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import AutoComplete from 'antd/es/auto-complete';
import Input from 'antd/es/input';
import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { Agent, Farm, Farmer, TenantListItem } from '@farmland/contracts';
import { api } from '../../lib/api-client';
import type { Envelope, ListPage } from '../../lib/contract-types';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { queryKeys } from '../../lib/query-keys';
import { paths, PROVIDER_BASE } from '../../lib/paths';
import { t } from '../../i18n';
import { layoutText as m } from './layout.messages';

const PER_KIND = 3;

type Hit = { value: string; label: string; to: string };
type Group = { kind: string; hits: Hit[] };

const list = <T,>(path: string, search: string, signal: AbortSignal) =>
  api<Envelope<ListPage<T>>>(path, { query: { search, page: 1, page_size: PER_KIND }, signal }).then((r) => r.data.results);

async function searchTenantArea(search: string, signal: AbortSignal): Promise<Group[]> {
  const [farms, farmers, agents] = await Promise.all([
    list<Farm>('/farms/', search, signal),
    list<Farmer>('/farmers/', search, signal),
    list<Agent>('/accounts/agents/', search, signal),
  ]);
  return [
    {
      kind: t(m.searchFarms),
      hits: farms.map((f) => ({ value: `farm:${f.id}`, label: `${f.name} · ${f.farmer}`, to: paths.tenant.farmers({ farmer: f.farmer_id, farm: f.id }) })),
    },
    {
      kind: t(m.searchFarmers),
      hits: farmers.map((f) => ({ value: `farmer:${f.id}`, label: `${f.farmer_name} · ${f.folio_id}`, to: paths.tenant.farmers({ farmer: f.id }) })),
    },
    {
      kind: t(m.searchAgents),
      hits: agents.map((a) => ({ value: `agent:${a.id}`, label: `${a.agent_name} · ${a.email}`, to: paths.tenant.agents({ agent: a.id }) })),
    },
  ];
}

async function searchProviderArea(search: string, signal: AbortSignal): Promise<Group[]> {
  const [tenants, farms] = await Promise.all([list<TenantListItem>('/base/tenants/', search, signal), list<Farm>('/farms/', search, signal)]);
  const at = (f: Farm) => {
    const [lng, lat] = f.coordinates[0] ?? [undefined, undefined];
    return lng === undefined || lat === undefined ? paths.provider.farmlands() : paths.provider.farmlands({ lat, lng });
  };
  return [
    { kind: t(m.searchTenants), hits: tenants.map((t) => ({ value: `tenant:${t.id}`, label: t.name, to: paths.provider.tenant(t.id) })) },
    { kind: t(m.searchFarms), hits: farms.map((f) => ({ value: `farm:${f.id}`, label: `${f.name} · ${f.farmer}`, to: at(f) })) },
  ];
}

export function HeaderSearch({ basePath, narrow = false }: { basePath: string; narrow?: boolean }) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim());
  const provider = basePath === PROVIDER_BASE;
  const found = useQuery({
    queryKey: queryKeys.headerSearch(basePath, search),
    queryFn: ({ signal }) => (provider ? searchProviderArea(search, signal) : searchTenantArea(search, signal)),
    enabled: search.length >= 2,
    staleTime: 10_000,
    meta: { silent: true },
  });
  const groups = useMemo(() => (search.length >= 2 ? (found.data ?? []) : []), [search, found.data]);
  const hits = useMemo(() => new Map(groups.flatMap((g) => g.hits).map((h) => [h.value, h])), [groups]);
  const options = groups.filter((g) => g.hits.length > 0).map((g) => ({ label: g.kind, options: g.hits.map((h) => ({ value: h.value, label: h.label })) }));
  const empty = search.length >= 2 && found.isSuccess && options.length === 0;

  return (
    <div role="search" className={narrow ? 'header-search narrow' : 'header-search'}>
      <AutoComplete
        value={text}
        options={options}
        notFoundContent={empty ? t(m.nothingFound, { search }) : null}
        onChange={(v: string) => setText(hits.has(v) ? text : v)}
        onSelect={(v: string) => {
          const hit = hits.get(v);
          if (!hit) return;
          setText('');
          void navigate(hit.to);
        }}
        className="full-width"
        popupMatchSelectWidth={360}
      >
        <Input
          aria-label={provider ? t(m.searchProvider) : t(m.searchTenant)}
          placeholder={t(m.search)}
          prefix={<SearchOutlined aria-hidden="true" />}
          allowClear
        />
      </AutoComplete>
    </div>
  );
}
