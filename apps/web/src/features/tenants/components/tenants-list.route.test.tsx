// @vitest-environment jsdom
// The All Tenants route with a mocked API: a filter chosen in the Filter modal is written into the address and sent
// to the API as a query parameter; Reset takes it out of both. The page and the search round-trip the same way.
import '../../../test/dom-setup';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { listPage, requestsTo, server } from '../../../test/api-server';
import { renderRoute } from '../../../test/render-route';
import { paths } from '../../../lib/paths';
import { TenantsList } from './tenants-list';

const TENANTS = '/api/base/tenants/';
const tenant = {
  id: '00000000-0000-4000-8000-000000000001',
  uuid: '00000000-0000-4000-8000-000000000001',
  name: 'Green Harvest Ltd',
  email: 'admin@greenharvest.example',
  status: 'Active',
  number_of_agents: 4,
  registration_date: '2026-01-01T00:00:00.000Z',
  country: 'Ghana',
  type: 'Platform',
  issued_date: '2026-01-01',
  expiry_date: '2027-01-01',
  license: null,
};

describe('All Tenants route', () => {
  it('sends the status filter from the address, and Reset removes it from the address and the request', async () => {
    server.use(http.get(`*${TENANTS}`, () => listPage([tenant], 1)));
    const view = renderRoute(paths.provider.tenants, <TenantsList />, `${paths.provider.tenants}?status=Suspended&page=2`);
    await screen.findByText('Green Harvest Ltd');
    let q = requestsTo(TENANTS).at(-1)!.searchParams;
    expect(q.get('status')).toBe('Suspended');
    expect(q.get('page')).toBe('2');

    await userEvent.click(screen.getByRole('button', { name: 'Filter (1)' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(view.location().searchParams.get('status')).toBeNull());
    expect(view.location().searchParams.get('page')).toBeNull();
    await waitFor(() => {
      q = requestsTo(TENANTS).at(-1)!.searchParams;
      expect(q.get('status')).toBeNull();
      expect(q.get('page')).toBe('1');
    });
  });

  it('a row goes to the tenant page built from the paths module', async () => {
    server.use(http.get(`*${TENANTS}`, () => listPage([tenant], 1)));
    const view = renderRoute(paths.provider.tenants, <TenantsList />, paths.provider.tenants);
    await userEvent.click(await screen.findByText('Green Harvest Ltd'));
    await waitFor(() => expect(view.location().pathname).toBe(paths.provider.tenant(tenant.uuid)));
  });
});
