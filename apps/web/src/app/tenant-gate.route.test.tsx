// @vitest-environment jsdom
// The tenant gate with a mocked API: when the API refuses the tenant (403 with a gate code), whichever screen asked, the
// console gives way to the full-page message with the API's explanation; Back to sign in ends the session and leaves it.
import '../test/dom-setup';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { requestsTo, server } from '../test/api-server';
import { renderRoute } from '../test/render-route';
import { paths } from '../lib/paths';
import { getSession, setTenantGate, startSession, type TenantGateCode } from '../lib/session-store';
import { RequireRole } from './require-role';
import { FarmersScreen } from '../features/farmers/components/farmers-screen';
import { GATE_TITLES } from './routes/tenant-gate-page';

const refuse = (code: TenantGateCode, message: string) =>
  server.use(
    http.get('*/api/farmers/', () => HttpResponse.json({ code, message }, { status: 403 })),
    http.get('*/api/base/regions/', () => HttpResponse.json({ code, message }, { status: 403 })),
  );

describe('tenant gate', () => {
  it.each([
    ['tenant_suspended', 'Your organisation was suspended by the provider.'],
    ['license_expired', 'The license ended on 2026-01-31.'],
  ] as const)('a 403 %s from a list replaces the console with its full-page message', async (code, message) => {
    setTenantGate(null);
    refuse(code, message);
    renderRoute(paths.tenant.farmers(), <FarmersScreen />, paths.tenant.farmers());
    expect(await screen.findByRole('heading', { level: 1, name: GATE_TITLES[code] })).toBeTruthy();
    expect(screen.getByText(message)).toBeTruthy();
    expect(screen.queryByText('All Farmers')).toBeNull();
    expect(getSession().gate).toEqual({ code, message });
  });

  it('Back to sign in signs out, clears the gate and goes to the sign-in page', async () => {
    setTenantGate(null);
    startSession(
      {
        id: '00000000-0000-4000-8000-00000000000a',
        email: 'admin@example.org',
        first_name: 'Ama',
        last_name: 'Mensah',
        image: null,
        roles: ['tenant_admin'],
        tenant: null,
      } as never,
      'access-token',
    );
    refuse('tenant_inactive', 'This organisation is inactive.');
    server.use(http.post('*/api/auth/logout/', () => HttpResponse.json({ message: 'Signed out' })));
    const view = renderRoute(
      paths.tenant.farmers(),
      <RequireRole role="tenant_admin">
        <FarmersScreen />
      </RequireRole>,
      paths.tenant.farmers(),
    );
    await screen.findByRole('heading', { name: GATE_TITLES.tenant_inactive });
    await userEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
    // Both addresses are the sign-in page. Signing out ends the session first, so the area's guard sends the user to /
    // before the gate page's own navigate('/login') runs (it is unmounted by then, and React Router drops it).
    await waitFor(() => expect([paths.home, paths.login]).toContain(view.location().pathname));
    expect(getSession().gate).toBeNull();
    expect(getSession().status).toBe('anonymous');
    expect(requestsTo('/api/auth/logout/')).toHaveLength(1);
  });
});
