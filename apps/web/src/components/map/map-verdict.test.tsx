// @vitest-environment jsdom
// "Colour by EUDR risk" (issue 29): the legend's switch hands the choice to the page and shows the verdict colours
// (in French too); the farm layers repaint by the features' verdict property (clusters of several farms grey); a farm's
// popup shows its verdict with the VerdictTag, and none without one. MapLibre itself is drawn in the browser test
// (e2e/reference-layers.e2e.ts); here a stand-in map records the paint calls.
import '../../test/dom-setup';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { useState } from 'react';
import { setMessagesForTest } from '../../i18n';
import { createQueryClient } from '../../lib/query-client';
import { FarmPopup } from '../../features/farmlands/components/farm-popup';
import { FARM_LAYERS, setFarmColors } from './farm-layers';
import { MapLegend } from './map-legend';
import { VERDICT_COLORS, verdictOf, type MapColorBy, type PickedFeature } from './map-constants';
import frenchMap from './map.messages.fr';

function Legend({ onChange }: { onChange?: (c: MapColorBy) => void }) {
  const [colorBy, setColorBy] = useState<MapColorBy>('category');
  return (
    <MapLegend
      colorBy={colorBy}
      clusters
      onColorByChange={(c) => {
        setColorBy(c);
        onChange?.(c);
      }}
    />
  );
}

const picked = (properties: Record<string, unknown>): PickedFeature => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Plot 1',
  category: 'within',
  lngLat: [3.77, 7.64],
  properties: { farmer: 'Ada Obi', area: 1200, ...properties },
});

const renderPopup = (p: PickedFeature) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FarmPopup feature={p} close={() => {}} />
    </QueryClientProvider>,
  );

describe('colour by EUDR risk', () => {
  afterEach(() => setMessagesForTest('en', {}));

  it('switches the legend from categories to verdicts and tells the page', () => {
    const onChange = vi.fn();
    render(<Legend onChange={onChange} />);
    const legend = screen.getByTestId('map-legend');
    expect(legend.dataset['colorBy']).toBe('category');
    expect(legend.textContent).toContain('Within Op. Areas');
    const toggle = screen.getByRole('switch', { name: 'Colour by EUDR risk' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    expect(onChange).toHaveBeenCalledWith('verdict');
    expect(legend.dataset['colorBy']).toBe('verdict');
    expect([...legend.querySelectorAll('[data-legend]')].map((e) => e.getAttribute('data-legend'))).toEqual(['low', 'review', 'high', 'none']);
    expect(legend.textContent).toContain('Low risk');
    expect(legend.textContent).toContain('High risk');
    expect(legend.textContent).toContain('No verdict');
    expect(legend.textContent).toContain('Groups of farms: zoom in');
    expect(legend.textContent).not.toContain('Within Op. Areas');
    fireEvent.click(toggle);
    expect(onChange).toHaveBeenLastCalledWith('category');
  });

  it('has no switch where the page offers none (a map without verdicts)', () => {
    render(<MapLegend />);
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('speaks French', () => {
    setMessagesForTest('fr', frenchMap);
    render(<Legend />);
    fireEvent.click(screen.getByRole('switch', { name: 'Colorer par risque RDUE' }));
    expect(screen.getByTestId('map-legend').textContent).toContain('Sans verdict');
  });

  it('repaints every farm layer by the verdict property, clusters of several farms grey, and back', () => {
    const paint: Record<string, unknown> = {};
    const map = {
      getLayer: () => ({}),
      setPaintProperty: (id: string, prop: string, value: unknown) => (paint[`${id}.${prop}`] = value),
    } as unknown as MapLibreMap;
    setFarmColors(map, 'verdict');
    const fill = paint[`${FARM_LAYERS.fill}.fill-color`];
    expect(JSON.stringify(fill)).toContain('"verdict"');
    expect(fill).toEqual(
      expect.arrayContaining(['low', VERDICT_COLORS.low, 'review', VERDICT_COLORS.review, 'high', VERDICT_COLORS.high, VERDICT_COLORS.none]),
    );
    for (const key of [`${FARM_LAYERS.line}.line-color`, `${FARM_LAYERS.markers}.circle-color`, `${FARM_LAYERS.singles}.circle-color`])
      expect(paint[key]).toEqual(fill);
    expect(paint[`${FARM_LAYERS.clusters}.circle-color`]).toBe(VERDICT_COLORS.none);
    setFarmColors(map, 'category');
    expect(JSON.stringify(paint[`${FARM_LAYERS.fill}.fill-color`])).toContain('"category"');
    expect(JSON.stringify(paint[`${FARM_LAYERS.clusters}.circle-color`])).toContain('"category"');
  });

  it("shows a farm's verdict in its popup, and none without one", () => {
    expect(verdictOf({ verdict: 'review' })).toBe('review');
    expect(verdictOf({ verdict: 'bogus' })).toBeNull();
    const { unmount } = renderPopup(picked({ verdict: 'high' }));
    const tag = screen.getByTestId('popup-verdict');
    expect(tag.textContent).toBe('High risk');
    expect(tag.dataset['level']).toBe('high');
    unmount();
    renderPopup(picked({}));
    expect(screen.getByTestId('farm-popup')).toBeTruthy();
    expect(screen.queryByTestId('popup-verdict')).toBeNull();
  });
});
