// @vitest-environment jsdom
// The Agents' List route with a mocked API: the list's state lives in the address (search, page, page size, filters,
// the open drawer), the API is asked with the same values, and the empty and error states show.
import '../../../test/dom-setup';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Agent } from '@farmland/contracts';
import { listPage, requestsTo, server } from '../../../test/api-server';
import { renderRoute } from '../../../test/render-route';
import { paths } from '../../../lib/paths';
import { AgentsScreen } from './agents-screen';

const AGENTS = '/api/accounts/agents/';
const REGION = '7f1d8a6e-0000-4000-8000-000000000001';

const agent = (n: number): Agent =>
  ({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    first_name: 'Ada',
    last_name: `Obi ${n}`,
    agent_name: `Ada Obi ${n}`,
    email: `ada${n}@example.org`,
    phone_number: null,
    gender: null,
    image: null,
    operational_area_id: null,
    operational_area: null,
    region_id: null,
    region: null,
    is_suspended: false,
    is_active: true,
    farmers_count: 2,
    mapped_farms_count: 1,
    total_mapped_area: 1234.5,
    progress: 50,
  }) as Agent;

function lookups() {
  server.use(
    http.get('*/api/base/regions/', () => listPage([{ id: REGION, name: 'Ashanti', country: 'Ghana', country_id: REGION }])),
    http.get('*/api/operational-areas/', () => listPage([])),
  );
}

const renderAgents = (at: string) => renderRoute(paths.tenant.agents(), <AgentsScreen />, at);

describe('Agents list route', () => {
  it('reads search, page, page size and filters from the address and sends them to the API', async () => {
    lookups();
    server.use(http.get(`*${AGENTS}`, () => listPage([agent(1)], 45)));
    renderAgents(`${paths.tenant.agents()}?search=ada&page=2&page_size=20&region=${REGION}`);
    await screen.findByText('Ada Obi 1');
    const q = requestsTo(AGENTS).at(-1)!.searchParams;
    expect(q.get('search')).toBe('ada');
    expect(q.get('page')).toBe('2');
    expect(q.get('page_size')).toBe('20');
    expect(q.get('region')).toBe(REGION);
    expect(screen.getByRole('textbox', { name: 'Search all agents' })).toHaveProperty('value', 'ada');
    expect(screen.getByRole('button', { name: 'Filter (1)' })).toBeTruthy();
  });

  it('writes a typed search into the address (page back to 1) and asks the API with it', async () => {
    lookups();
    server.use(http.get(`*${AGENTS}`, () => listPage([agent(1)])));
    const view = renderAgents(`${paths.tenant.agents()}?page=3`);
    await screen.findByText('Ada Obi 1');
    await userEvent.type(screen.getByRole('textbox', { name: 'Search all agents' }), 'obi');
    await waitFor(() => expect(view.location().searchParams.get('search')).toBe('obi'));
    expect(view.location().searchParams.get('page')).toBeNull();
    await waitFor(() => expect(requestsTo(AGENTS).at(-1)!.searchParams.get('search')).toBe('obi'));
    expect(requestsTo(AGENTS).at(-1)!.searchParams.get('page')).toBe('1');
  });

  it('keeps the open drawer in the address: a row opens ?agent=<id>', async () => {
    lookups();
    const a = agent(7);
    server.use(
      http.get(`*${AGENTS}`, () => listPage([a])),
      http.get(`*${AGENTS}${a.id}/`, () => HttpResponse.json({ data: a })),
    );
    const view = renderAgents(paths.tenant.agents());
    await userEvent.click(await screen.findByText('Ada Obi 7'));
    await waitFor(() => expect(view.location().searchParams.get('agent')).toBe(a.id));
    expect(view.location().pathname).toBe(paths.tenant.agents());
  });

  it('shows the empty state of a tenant with no agents', async () => {
    lookups();
    server.use(http.get(`*${AGENTS}`, () => listPage([])));
    renderAgents(paths.tenant.agents());
    await screen.findByText('No agents yet: add one with New Agent');
  });

  it('says when nothing matches the search in the address', async () => {
    lookups();
    server.use(http.get(`*${AGENTS}`, () => listPage([])));
    renderAgents(`${paths.tenant.agents()}?search=zzz`);
    await screen.findByText('No agents match your search or filters');
  });

  it('shows the error state with Try again, which asks the API again', async () => {
    lookups();
    let calls = 0;
    server.use(
      http.get(`*${AGENTS}`, () => {
        calls += 1;
        return calls === 1 ? HttpResponse.json({ message: 'Boom', code: 'internal' }, { status: 500 }) : listPage([agent(3)]);
      }),
    );
    renderAgents(paths.tenant.agents());
    await screen.findByText('This list could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('Ada Obi 3');
    expect(calls).toBe(2);
  });
});
