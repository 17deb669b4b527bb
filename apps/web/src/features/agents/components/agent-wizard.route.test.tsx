// @vitest-environment jsdom
// The Add New Agent wizard, opened by its address (?new=1, as the dashboard's card links it), with a mocked API: Next
// stays on a step whose fields are invalid and nothing is sent; filled in, the third step shows the entries and Submit
// posts them, then the wizard closes and leaves the address.
import '../../../test/dom-setup';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { listPage, requestsTo, server } from '../../../test/api-server';
import { renderRoute } from '../../../test/render-route';
import { paths } from '../../../lib/paths';
import { AgentsScreen } from './agents-screen';

describe('Add New Agent wizard route', () => {
  it('checks each step before Next, shows the entries, and posts them on Submit', { timeout: 120_000 }, async () => {
    let posted: FormData | null = null;
    server.use(
      http.get('*/api/accounts/agents/', () => listPage([])),
      http.get('*/api/base/regions/', () => listPage([])),
      http.get('*/api/operational-areas/', () => listPage([])),
      http.post('*/api/accounts/agents/', async ({ request }) => {
        posted = await request.formData();
        return HttpResponse.json({ data: { id: '00000000-0000-4000-8000-000000000009' }, message: 'Agent created successfully' }, { status: 201 });
      }),
    );
    const view = renderRoute(paths.tenant.agents(), <AgentsScreen />, paths.tenant.agents({ new: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Agent' });
    const user = userEvent.setup();

    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    // The four required fields say what is wrong, and the wizard stays on its first step.
    await waitFor(() => expect(dialog.querySelectorAll('.ant-form-item-has-error').length).toBe(4));
    expect(within(dialog).getByLabelText('First name')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('First name'), { target: { value: 'Ama' } });
    fireEvent.change(within(dialog).getByLabelText('Last name'), { target: { value: 'Mensah' } });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'ama.mensah@example.org' } });
    fireEvent.change(within(dialog).getByLabelText('Phone number'), { target: { value: '+233201234567' } });
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await within(dialog).findByLabelText('Operational area');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await within(dialog).findByText('ama.mensah@example.org');
    expect(requestsTo('/api/accounts/agents/').filter((u) => u.search === '')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(posted).not.toBeNull());
    expect(posted!.get('first_name')).toBe('Ama');
    expect(posted!.get('last_name')).toBe('Mensah');
    expect(posted!.get('email')).toBe('ama.mensah@example.org');
    expect(posted!.get('phone_number')).toBe('+233201234567');
    await waitFor(() => expect(view.location().searchParams.get('new')).toBeNull());
  });
});
