// @vitest-environment jsdom
// The Overlapping Farmlands drawer with a mocked API (issue 28): each farm of the group, the opened one first, lists its
// overlap pairs with their measures (area, share of each farm, IoU), a pair under the tolerance marked "touching or
// sliver"; each farm's pairs are asked of its own GET /farms/{id}/overlaps/; and the same in French. The map is
// MapLibre (WebGL): jsdom has none, so it is replaced here and drawn in the browser test (e2e/maps.e2e.ts).
import '../../../test/dom-setup';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Farm, FarmOverlap } from '@farmland/contracts';
import { listPage, requestsTo, server } from '../../../test/api-server';
import { renderRoute } from '../../../test/render-route';
import { RawIntlProvider } from 'react-intl';
import { currentIntl, setMessagesForTest } from '../../../i18n';
import { OverlappingDrawer } from './overlapping-drawer';
import frenchFarmlands from '../farmlands.messages.fr';
import frenchPairs from './overlap-pairs.messages.fr';

vi.mock('../../../components/map/lazy-map', () => ({ LazyFarmMap: ({ testId }: { testId: string }) => <div data-testid={testId} /> }));

const TENANT = '00000000-0000-4000-8000-0000000000aa';
const GROUP = '00000000-0000-4000-8000-0000000000bb';
const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const ring: Array<[number, number]> = [
  [-1.6, 6.7],
  [-1.599, 6.7],
  [-1.599, 6.701],
  [-1.6, 6.7],
];
const farm = (n: number, name: string): Farm => ({
  id: id(n),
  name,
  location: null,
  address: null,
  farmer: 'Kofi Boateng',
  farmer_id: id(9),
  farmer_folio_id: 'F-1',
  coordinates: ring,
  polygon: { type: 'Polygon', coordinates: [ring] },
  area: 10_000,
  hectare: 1,
  operational_area: null,
  operational_area_id: null,
  operational_area_name: null,
  is_overlapping: true,
  overlap_group_id: GROUP,
  overlapping_farms: null,
  flag: null,
  snapshots: [],
  mapped_by: null,
  mapping_record: null,
  point: null,
  declared_area_sqm: null,
  tenant_id: TENANT,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
});
const pair = (n: number, name: string, area: number, shareThis: number, shareOther: number, iou: number, sliver = false): FarmOverlap => ({
  farm_id: id(n),
  name,
  area_sqm: area,
  share_of_this: shareThis,
  share_of_other: shareOther,
  iou,
  sliver,
});
// North overlaps Centre by half of North; Centre touches South by a 0.3 m² sliver (under the tolerance).
const overlaps: Record<string, FarmOverlap[]> = {
  [id(1)]: [pair(2, 'Centre farm', 5000, 0.5, 0.25, 0.2)],
  [id(2)]: [pair(1, 'North farm', 5000, 0.25, 0.5, 0.2), pair(3, 'South farm', 0.3, 0.000015, 0.00003, 0.00001, true)],
  [id(3)]: [pair(2, 'Centre farm', 0.3, 0.00003, 0.000015, 0.00001, true)],
};

function serveGroup() {
  server.use(
    http.get('*/api/farms/:id/overlapping/', () => listPage([farm(1, 'North farm'), farm(2, 'Centre farm'), farm(3, 'South farm')])),
    http.get('*/api/farms/:id/overlaps/', ({ params }) => HttpResponse.json({ data: overlaps[params.id as string] ?? [] })),
  );
}
const openDrawer = (farmId: string) =>
  renderRoute(
    '/admin/mapping',
    <RawIntlProvider value={currentIntl()}>
      <OverlappingDrawer farmId={farmId} onClose={() => undefined} />
    </RawIntlProvider>,
    '/admin/mapping',
  );
const cards = () => [...document.querySelectorAll<HTMLElement>('.ant-drawer .ant-card')];
const cardOf = (name: string) => cards().find((c) => c.querySelector('.ant-card-head-title')?.textContent === name)!;

describe('Overlapping Farmlands drawer', () => {
  afterEach(() => setMessagesForTest('en', {}));

  it("lists each farm's overlap pairs with their measures, the opened farm first, slivers marked", async () => {
    serveGroup();
    openDrawer(id(2));
    await waitFor(() => expect(screen.getAllByTestId('overlap-pair')).toHaveLength(2));
    await waitFor(() => expect(screen.getAllByTestId('overlap-sliver')).toHaveLength(2));
    expect(cards().map((c) => c.querySelector('.ant-card-head-title')?.textContent)).toEqual(['Centre farm', 'North farm', 'South farm']);

    const centre = within(cardOf('Centre farm'));
    const withNorth = centre.getByTestId('overlap-pair').textContent;
    expect(withNorth).toContain('North farm');
    expect(withNorth).toContain('5,000');
    expect(withNorth).toContain('25% of this farm');
    expect(withNorth).toContain('50% of the other');
    expect(withNorth).toContain('IoU 0.20');
    expect(centre.getByTestId('overlap-sliver').textContent).toContain('South farm');
    expect(centre.getByTestId('overlap-sliver').textContent).toContain('touching or sliver');

    expect(within(cardOf('North farm')).getByTestId('overlap-pair').textContent).toContain('50% of this farm');
    expect(within(cardOf('South farm')).queryByTestId('overlap-pair')).toBeNull();
    expect(within(cardOf('South farm')).getByTestId('overlap-sliver').textContent).toContain('Centre farm');
    expect(screen.getByText(/intersection over union \(IoU\)/)).toBeTruthy();
    // Each farm's pairs from its own route, once.
    for (const n of [1, 2, 3]) expect(requestsTo(`/api/farms/${id(n)}/overlaps/`)).toHaveLength(1);
  });

  it('says so in a farm card when its pairs could not be loaded', async () => {
    server.use(
      http.get('*/api/farms/:id/overlapping/', () => listPage([farm(1, 'North farm'), farm(2, 'Centre farm')])),
      http.get('*/api/farms/:id/overlaps/', ({ params }) =>
        params.id === id(1) ? HttpResponse.json({ data: overlaps[id(1)] }) : HttpResponse.json({ title: 'Unavailable' }, { status: 422 }),
      ),
    );
    openDrawer(id(1));
    await waitFor(() => expect(within(cardOf('Centre farm')).getByTestId('overlap-pairs').textContent).toContain('The overlaps could not be loaded.'));
    expect(within(cardOf('North farm')).getByTestId('overlap-pair').textContent).toContain('Centre farm');
  });

  it('speaks French when French is chosen', async () => {
    setMessagesForTest('fr', { ...frenchFarmlands, ...frenchPairs });
    serveGroup();
    openDrawer(id(2));
    await waitFor(() => expect(screen.getAllByTestId('overlap-sliver')).toHaveLength(2));
    expect(screen.getByText('Parcelles en chevauchement')).toBeTruthy();
    expect(within(cardOf('Centre farm')).getByTestId('overlap-sliver').textContent).toContain('contact ou liseré');
    expect(within(cardOf('Centre farm')).getByTestId('overlap-pair').textContent).toMatch(/25\s?% de cette parcelle/);
    expect(screen.getByText(/intersection sur l’union/)).toBeTruthy();
  });
});
