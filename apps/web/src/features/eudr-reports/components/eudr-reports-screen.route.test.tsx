// @vitest-environment jsdom
// The tenant's Reports (EUDR readiness) with a mocked API: the cards show the summary's figures, the tables per area
// and agent list their groups, the needing-action list asks the API with the address's filters and links each farm to
// its drawer, the export asks the list's own csv route with the same filters, and the empty and error states show.
import '../../../test/dom-setup';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { EudrPlot, EudrReadinessSummary } from '@farmland/contracts';
import { listPage, requestsTo, server } from '../../../test/api-server';
import { renderRoute } from '../../../test/render-route';
import { paths } from '../../../lib/paths';
import { EudrReportsScreen } from './eudr-reports-screen';

vi.mock('../../../components/chart/lazy-chart', () => ({ LazyChart: ({ testId }: { testId: string }) => <div data-testid={testId} /> }));

const AREA = '00000000-0000-4000-8000-00000000000a';
const AGENT = '00000000-0000-4000-8000-00000000000b';
const counts = { plots: 12, screened: 11, low: 7, review: 3, high: 2, with_warnings: 1, ready: 6 };
const summary: EudrReadinessSummary = {
  ...counts,
  by_warning: { has_holes: 1, invalid_geometry: 0, low_precision: 0, point_over_4ha: 0, outside_country: 0 },
  by_area: [{ id: AREA, name: 'Kumasi North', ...counts }],
  by_agent: [{ id: AGENT, name: 'Ama Mensah', ...counts }],
  trend: [{ month: '2026-11', plots: 12, low: 7, review: 3, high: 2, with_warnings: 1 }],
  layers: 2,
};
const plot: EudrPlot = {
  farm_id: '00000000-0000-4000-8000-000000000001',
  farm_name: 'Cocoa plot 1',
  farmer_id: '00000000-0000-4000-8000-000000000002',
  farmer: 'Kofi Boateng',
  area_id: AREA,
  area_name: 'Kumasi North',
  agent_id: AGENT,
  agent_name: 'Ama Mensah',
  area_sqm: 25_000,
  captured_at: '2026-11-02T10:00:00.000Z',
  verdict: 'high',
  reasons: [{ code: 'tree_cover_loss', level: 'high', message: 'Tree-cover loss after 2020 (Loss): 2,500 m², 10 % of the plot', layer_id: null }],
  warnings: ['has_holes'],
};

const SUMMARY = '/api/eudr-reports/summary/';
const PLOTS = '/api/eudr-reports/plots/';
const renderReports = (at = paths.tenant.reports) => renderRoute(paths.tenant.reports, <EudrReportsScreen />, at);

describe('EUDR readiness screen', () => {
  it("shows the summary's figures, the groups, and the plots needing action with a link to the farm's drawer", async () => {
    server.use(
      http.get(`*${SUMMARY}`, () => HttpResponse.json({ data: summary })),
      http.get(`*${PLOTS}`, () => listPage([plot], 5)),
    );
    renderReports(`${paths.tenant.reports}?verdict=high&area_id=${AREA}`);
    await waitFor(() => expect(screen.getByTestId('eudr-plots').textContent).toBe('12'));
    expect(screen.getByTestId('eudr-ready').textContent).toBe('6');
    expect(screen.getByTestId('eudr-high').textContent).toBe('2');
    expect(within(screen.getByTestId('eudr-by-area')).getByText('Kumasi North')).toBeTruthy();
    expect(within(screen.getByTestId('eudr-by-agent')).getByText('Ama Mensah')).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Cocoa plot 1' });
    expect(link.getAttribute('href')).toBe(paths.tenant.farmers({ farmer: plot.farmer_id, farm: plot.farm_id }));
    expect(screen.getByText(/Tree-cover loss after 2020/)).toBeTruthy();
    expect(screen.getByText('Polygon with holes')).toBeTruthy();
    const q = requestsTo(PLOTS).at(-1)!.searchParams;
    expect([q.get('verdict'), q.get('area_id'), q.get('page')]).toEqual(['high', AREA, '1']);
  });

  it('exports the list from its own csv route with the same filters', async () => {
    server.use(
      http.get(`*${SUMMARY}`, () => HttpResponse.json({ data: summary })),
      http.get(`*${PLOTS}`, () => listPage([plot])),
      http.get(
        '*/api/eudr-reports/plots/export/',
        () =>
          new HttpResponse('farm_id\r\n', {
            headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="eudr-plots-needing-action.csv"' },
          }),
      ),
    );
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    renderReports(`${paths.tenant.reports}?warning=has_holes`);
    await screen.findByRole('link', { name: 'Cocoa plot 1' });
    await userEvent.click(screen.getByRole('button', { name: /Export table/ }));
    await waitFor(() => expect(requestsTo('/api/eudr-reports/plots/export/')).toHaveLength(1));
    expect(requestsTo('/api/eudr-reports/plots/export/')[0]!.searchParams.get('warning')).toBe('has_holes');
  });

  it('says when no farm is mapped, and when the report fails', async () => {
    server.use(
      http.get(`*${SUMMARY}`, () =>
        HttpResponse.json({
          data: { ...summary, plots: 0, low: 0, review: 0, high: 0, ready: 0, screened: 0, with_warnings: 0, by_area: [], by_agent: [], trend: [] },
        }),
      ),
      http.get(`*${PLOTS}`, () => listPage([])),
    );
    const view = renderReports();
    expect(await screen.findByText(/No farms are mapped yet/)).toBeTruthy();
    expect(await screen.findByText('No plot needs action')).toBeTruthy();
    view.unmount();
    server.use(http.get(`*${SUMMARY}`, () => HttpResponse.json({ message: 'Boom', code: 'internal' }, { status: 500 })));
    renderReports();
    expect(await screen.findByText('The EUDR readiness report could not be loaded')).toBeTruthy();
  });
});
