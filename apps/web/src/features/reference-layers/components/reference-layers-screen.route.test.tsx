// @vitest-environment jsdom
// The Reference Layers route with a mocked API: a tenant admin sees its own layers (with actions) and the provider's
// (read-only), the job's status and errors with the feature number, and its plot-risk thresholds; an upload sends the
// details and the file as multipart and follows the job; delete asks first; provider staff read /base/reference-layers/.
// Empty, loading and error states.
import '../../../test/dom-setup';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ReferenceLayer } from '@farmland/contracts';
import { requestsTo, server } from '../../../test/api-server';
import { renderRoute } from '../../../test/render-route';
import { paths } from '../../../lib/paths';
import { ReferenceLayersScreen } from './reference-layers-screen';

const LAYERS = '/api/reference-layers/';
const PROVIDER_LAYERS = '/api/base/reference-layers/';
const RISK = '/api/reference-layers/risk-settings/';

const layer = (n: number, over: Partial<ReferenceLayer> = {}): ReferenceLayer => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `Layer ${n}`,
  kind: 'forest_2020',
  reference_date: '2020-12-31',
  source: 'JRC',
  licence: 'CC-BY-4.0',
  owner: 'tenant',
  tenant_id: '00000000-0000-4000-8000-0000000000aa',
  filename: `layer-${n}.geojson`,
  feature_count: 1200,
  piece_count: 1300,
  repaired_count: 0,
  status: 'ready',
  progress: 100,
  features_loaded: 1200,
  version: 1,
  loading_version: null,
  error: null,
  error_feature: null,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-21T10:00:00Z',
  ...over,
});

const risk = () =>
  http.get(`*${RISK}`, () =>
    HttpResponse.json({ data: { eudr_min_overlap_sqm: 10, eudr_forest_review_share: 0.01, eudr_loss_high_share: 0, eudr_protected_high_share: 0 } }),
  );
const renderTenant = (at = paths.tenant.referenceLayers) => renderRoute(paths.tenant.referenceLayers, <ReferenceLayersScreen scope="tenant" />, at);

describe('Reference Layers route (tenant admin)', () => {
  it("lists the tenant's layers with actions and the provider's read-only, with status, errors and thresholds", async () => {
    server.use(
      risk(),
      http.get(`*${LAYERS}`, () =>
        HttpResponse.json({
          data: [
            layer(1, { name: 'Own concessions', kind: 'concession' }),
            layer(2, { name: 'National forest', owner: 'provider', tenant_id: null }),
            layer(3, { name: 'Broken upload', status: 'failed', error: 'The geometry is a LineString, not a polygon', error_feature: 3, version: 0 }),
            layer(4, { name: 'Loading one', status: 'loading', progress: 0, features_loaded: 5000, loading_version: 1, version: 0 }),
          ],
        }),
      ),
    );
    renderTenant();
    const own = (await screen.findByText('Own concessions')).closest('tr')!;
    expect(within(own).getByText('Concession')).toBeTruthy();
    expect(within(own).getByText('This organisation')).toBeTruthy();
    expect(within(own).getByRole('button', { name: 'Actions for Own concessions' })).toBeTruthy();
    const shared = screen.getByText('National forest').closest('tr')!;
    expect(within(shared).getByText('Provider-wide (read-only)')).toBeTruthy();
    expect(within(shared).queryByRole('button', { name: /Actions for/ })).toBeNull();
    expect(within(shared).getByText('Forest cover 2020')).toBeTruthy();
    expect(within(shared).getByText('31/12/2020')).toBeTruthy();
    expect(screen.getByText('Feature 3: The geometry is a LineString, not a polygon')).toBeTruthy();
    expect(screen.getByText('5,000 features read')).toBeTruthy();
    // The thresholds, shares in %.
    const card = await screen.findByTestId('risk-settings');
    await waitFor(() => expect(within(card).getByRole('textbox', { name: 'Forest cover review share' })).toHaveProperty('value', '1'));
    expect(within(card).getByRole('textbox', { name: 'Minimum overlap' })).toHaveProperty('value', '10');
  });

  it('searches in the address (here, not at the API) and sends the kind filter to the API', async () => {
    server.use(
      risk(),
      http.get(`*${LAYERS}`, () => HttpResponse.json({ data: [layer(1, { name: 'Forest A' }), layer(2, { name: 'Parks B', kind: 'protected_area' })] })),
    );
    const view = renderTenant(`${paths.tenant.referenceLayers}?search=parks&kind=protected_area`);
    await screen.findByText('Parks B');
    expect(screen.queryByText('Forest A')).toBeNull();
    expect(requestsTo(LAYERS).at(-1)!.searchParams.get('kind')).toBe('protected_area');
    expect(requestsTo(LAYERS).at(-1)!.searchParams.get('search')).toBeNull();
    await userEvent.clear(screen.getByRole('textbox', { name: 'Search reference layers' }));
    await waitFor(() => expect(view.location().searchParams.get('search')).toBeNull());
    await screen.findByText('Forest A');
  });

  it('shows the empty state, and the error state with Try again', async () => {
    let calls = 0;
    server.use(
      risk(),
      http.get(`*${LAYERS}`, () => {
        calls += 1;
        return calls === 1 ? HttpResponse.json({ message: 'Boom', code: 'internal' }, { status: 500 }) : HttpResponse.json({ data: [] });
      }),
    );
    renderTenant();
    await screen.findByText('This list could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText(/No reference layers yet: upload one with Upload Layer/);
    expect(calls).toBe(2);
  });

  it('uploads a layer as multipart and follows its job to the error the API reports, with the feature number', async () => {
    const created = layer(9, { name: 'Forest 2020 upload', status: 'queued', progress: 0, version: 0, loading_version: 1 });
    let form: FormData | null = null;
    let polls = 0;
    server.use(
      risk(),
      http.get(`*${LAYERS}`, () => HttpResponse.json({ data: [] })),
      http.post(`*${LAYERS}`, async ({ request }) => {
        form = await request.formData();
        return HttpResponse.json({ data: created, message: 'Layer uploaded; it is loading' }, { status: 202 });
      }),
      http.get(`*${LAYERS}${created.id}/progress/`, () => {
        polls += 1;
        const base = { id: created.id, version: 0, loading_version: 1, error: null, error_feature: null };
        return HttpResponse.json({
          data:
            polls === 1
              ? { ...base, status: 'loading', progress: 0, features_loaded: 2 }
              : { ...base, status: 'failed', progress: 0, features_loaded: 3, loading_version: null, error: 'A point has no area', error_feature: 3 },
        });
      }),
    );
    renderTenant();
    await screen.findByText(/No reference layers yet/);
    await userEvent.click(screen.getByRole('button', { name: /Upload Layer/ }));
    const drawer = await screen.findByRole('dialog');
    await userEvent.type(within(drawer).getByLabelText('Name'), 'Forest 2020 upload');
    await userEvent.click(within(drawer).getByRole('combobox', { name: 'Kind' }));
    await userEvent.click(await screen.findByTitle('Forest cover 2020'));
    await userEvent.type(within(drawer).getByLabelText('Reference date'), '31/12/2020{enter}');
    await userEvent.type(within(drawer).getByLabelText('Source'), 'Synthetic');
    await userEvent.type(within(drawer).getByLabelText('Licence'), 'CC0-1.0');
    const input = drawer.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, new File(['{"type":"FeatureCollection","features":[]}'], 'forest.geojson', { type: 'application/geo+json' }));
    await within(drawer).findByTestId('layer-upload-zone-file');
    await userEvent.click(screen.getByTestId('layer-upload-submit'));
    await waitFor(() => expect(form).not.toBeNull());
    const sent = form as unknown as FormData;
    expect(sent.get('name')).toBe('Forest 2020 upload');
    expect(sent.get('kind')).toBe('forest_2020');
    expect(sent.get('reference_date')).toBe('2020-12-31');
    expect(sent.get('source')).toBe('Synthetic');
    expect(sent.get('licence')).toBe('CC0-1.0');
    // jsdom's File reaches MSW's FormData without its name or content: that it is sent, last, is what is checked here
    // (the browser test, e2e/reference-layers.e2e.ts, uploads a real file).
    expect([...sent.keys()].at(-1)).toBe('file');
    await within(drawer).findByText('The layer could not be loaded');
    expect(within(drawer).getByText('Feature 3: A point has no area')).toBeTruthy();
  });

  it('places a field error of the upload beside its field', async () => {
    server.use(
      risk(),
      http.get(`*${LAYERS}`, () => HttpResponse.json({ data: [] })),
      http.post(`*${LAYERS}`, () =>
        HttpResponse.json(
          {
            message: 'file: A reference layer is a GeoJSON…',
            code: 'file_type_unsupported',
            errors: { file: ['A reference layer is a GeoJSON, KML, KMZ, zipped Shapefile (.zip) or GeoPackage (.gpkg) file'] },
          },
          { status: 400 },
        ),
      ),
    );
    renderTenant();
    await screen.findByText(/No reference layers yet/);
    await userEvent.click(screen.getByRole('button', { name: /Upload Layer/ }));
    const drawer = await screen.findByRole('dialog');
    await userEvent.type(within(drawer).getByLabelText('Name'), 'X');
    await userEvent.click(within(drawer).getByRole('combobox', { name: 'Kind' }));
    await userEvent.click(await screen.findByTitle('Other'));
    await userEvent.type(within(drawer).getByLabelText('Reference date'), '01/01/2024{enter}');
    await userEvent.type(within(drawer).getByLabelText('Source'), 'S');
    await userEvent.type(within(drawer).getByLabelText('Licence'), 'L');
    await userEvent.upload(drawer.querySelector('input[type=file]') as HTMLInputElement, new File(['x'], 'x.json'));
    await within(drawer).findByTestId('layer-upload-zone-file');
    await userEvent.click(screen.getByTestId('layer-upload-submit'));
    await within(drawer).findByText('A reference layer is a GeoJSON, KML, KMZ, zipped Shapefile (.zip) or GeoPackage (.gpkg) file');
  });

  it('deletes an own layer after the confirmation', async () => {
    const own = layer(5, { name: 'Old concessions', kind: 'concession' });
    server.use(
      risk(),
      http.get(`*${LAYERS}`, () => HttpResponse.json({ data: [own] })),
      http.delete(`*${LAYERS}${own.id}/`, () => HttpResponse.json({ message: 'Reference layer deleted successfully' })),
    );
    renderTenant();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Old concessions' }));
    await userEvent.click(await screen.findByText('Delete Layer'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/cannot be undone/)).toBeTruthy();
    expect(requestsTo(`${LAYERS}${own.id}/`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(requestsTo(`${LAYERS}${own.id}/`).length).toBe(1));
  });

  it('saves the thresholds, shares sent as 0–1', async () => {
    let body: unknown = null;
    server.use(
      risk(),
      http.get(`*${LAYERS}`, () => HttpResponse.json({ data: [] })),
      http.put(`*${RISK}`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({
          data: { eudr_min_overlap_sqm: 25, eudr_forest_review_share: 0.05, eudr_loss_high_share: 0, eudr_protected_high_share: 0 },
          message: 'Plot-risk thresholds updated',
        });
      }),
    );
    renderTenant();
    const card = await screen.findByTestId('risk-settings');
    const area = await within(card).findByRole('textbox', { name: 'Minimum overlap' });
    await waitFor(() => expect(area).toHaveProperty('value', '10'));
    await userEvent.clear(area);
    await userEvent.type(area, '25');
    const forest = within(card).getByRole('textbox', { name: 'Forest cover review share' });
    await userEvent.clear(forest);
    await userEvent.type(forest, '5');
    await userEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(body).toEqual({ eudr_min_overlap_sqm: 25, eudr_forest_review_share: 0.05, eudr_loss_high_share: 0, eudr_protected_high_share: 0 }),
    );
  });
});

describe('Reference Layers route (provider staff)', () => {
  it('reads the provider layers, with actions, and shows no thresholds', async () => {
    server.use(http.get(`*${PROVIDER_LAYERS}`, () => HttpResponse.json({ data: [layer(2, { name: 'National forest', owner: 'provider', tenant_id: null })] })));
    renderRoute(paths.provider.referenceLayers, <ReferenceLayersScreen scope="provider" />, paths.provider.referenceLayers);
    const row = (await screen.findByText('National forest')).closest('tr')!;
    expect(within(row).getByText('Provider-wide')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Actions for National forest' })).toBeTruthy();
    expect(screen.queryByTestId('risk-settings')).toBeNull();
    expect(requestsTo(LAYERS)).toHaveLength(0);
  });
});
