// The plot-risk decision tree (docs/decisions/0072-eudr-plot-risk.md), rule by rule, on hand-made figures.
import { describe, expect, it } from 'vitest';
import { PLOT_RISK_DEFAULTS, type ReferenceLayerKind } from '@farmland/contracts';
import { plotRisk, type RiskFigure } from './plot-risk.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const fig = (kind: ReferenceLayerKind, overlap_sqm: number, share: number, n = 1): RiskFigure => ({
  layer_id: id(n),
  layer_name: `${kind} layer`,
  kind,
  overlap_sqm,
  share,
});
const base = { pendingLayers: 0, hasForestLayer: true };
const codes = (r: ReturnType<typeof plotRisk>) => r.reasons.map((x) => x.code);

describe('plot risk', () => {
  it('no overlap anywhere, with a forest layer loaded: low', () => {
    const r = plotRisk([fig('forest_2020', 0, 0), fig('protected_area', 0, 0, 2)], PLOT_RISK_DEFAULTS, base);
    expect(r).toEqual({ level: 'low', reasons: [expect.objectContaining({ code: 'no_overlap', level: 'low', layer_id: null })] });
  });

  it('overlaps under the minimum area are digitising noise', () => {
    const r = plotRisk([fig('tree_cover_loss', 9.99, 0.001), fig('protected_area', 5, 0.0005, 2), fig('forest_2020', 9, 0.5, 3)], PLOT_RISK_DEFAULTS, base);
    expect(r.level).toBe('low');
    const raised = plotRisk([fig('tree_cover_loss', 9.99, 0.001)], { ...PLOT_RISK_DEFAULTS, eudr_min_overlap_sqm: 5 }, base);
    expect(raised.level).toBe('high');
  });

  it('tree-cover loss after 2020 over its share: high; at or under the share: not a reason', () => {
    expect(plotRisk([fig('tree_cover_loss', 50, 0.02)], PLOT_RISK_DEFAULTS, base)).toMatchObject({
      level: 'high',
      reasons: [{ code: 'tree_cover_loss', level: 'high', layer_id: id(1) }],
    });
    const settings = { ...PLOT_RISK_DEFAULTS, eudr_loss_high_share: 0.05 };
    expect(plotRisk([fig('tree_cover_loss', 50, 0.05)], settings, base).level).toBe('low');
    expect(plotRisk([fig('tree_cover_loss', 50, 0.0501)], settings, base).level).toBe('high');
  });

  it('a protected area over its share: high', () => {
    expect(plotRisk([fig('protected_area', 11, 0.0001)], PLOT_RISK_DEFAULTS, base)).toMatchObject({ level: 'high', reasons: [{ code: 'protected_area' }] });
    expect(plotRisk([fig('protected_area', 11, 0.0001)], { ...PLOT_RISK_DEFAULTS, eudr_protected_high_share: 0.5 }, base).level).toBe('low');
  });

  it('forest at the 2020 cut-off over the tenant share: review; at or under it: low', () => {
    expect(plotRisk([fig('forest_2020', 100, 0.0101)], PLOT_RISK_DEFAULTS, base)).toMatchObject({
      level: 'review',
      reasons: [{ code: 'forest_2020', level: 'review' }],
    });
    expect(plotRisk([fig('forest_2020', 100, 0.01)], PLOT_RISK_DEFAULTS, base).level).toBe('low');
    expect(plotRisk([fig('forest_2020', 100, 0.3)], { ...PLOT_RISK_DEFAULTS, eudr_forest_review_share: 0.3 }, base).level).toBe('low');
  });

  it('indigenous land and concessions: review; other layers: evidence only', () => {
    expect(plotRisk([fig('indigenous_land', 20, 0.001)], PLOT_RISK_DEFAULTS, base)).toMatchObject({ level: 'review', reasons: [{ code: 'indigenous_land' }] });
    expect(plotRisk([fig('concession', 20, 0.001)], PLOT_RISK_DEFAULTS, base)).toMatchObject({ level: 'review', reasons: [{ code: 'concession' }] });
    expect(plotRisk([fig('other', 20, 0.5)], PLOT_RISK_DEFAULTS, base)).toMatchObject({ level: 'low', reasons: [{ code: 'other_layer', level: 'low' }] });
  });

  it('no forest layer loaded, or a screening still running: review', () => {
    expect(plotRisk([], PLOT_RISK_DEFAULTS, { pendingLayers: 0, hasForestLayer: false })).toMatchObject({
      level: 'review',
      reasons: [{ code: 'no_forest_layer' }],
    });
    expect(plotRisk([fig('forest_2020', 0, 0)], PLOT_RISK_DEFAULTS, { pendingLayers: 2, hasForestLayer: true })).toMatchObject({
      level: 'review',
      reasons: [{ code: 'not_screened' }],
    });
  });

  it('the verdict is the highest reason, and every reason is listed, highest first', () => {
    const r = plotRisk(
      [fig('other', 30, 0.1, 1), fig('forest_2020', 500, 0.4, 2), fig('protected_area', 30, 0.01, 3), fig('concession', 30, 0.01, 4)],
      PLOT_RISK_DEFAULTS,
      base,
    );
    expect(r.level).toBe('high');
    expect(codes(r)).toEqual(['protected_area', 'forest_2020', 'concession', 'other_layer']);
    expect(r.reasons[1]!.message).toMatch(/500 m², 40 % of the plot/);
  });
});
