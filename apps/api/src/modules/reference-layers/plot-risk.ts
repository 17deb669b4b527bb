// The plot-risk decision tree (issue 29), as written in docs/decisions/0072-eudr-plot-risk.md: a farm's screening figures and
// the tenant's thresholds → low, review or high, with every reason that applies. Pure: no database, no clock.
import type { PlotRisk, PlotRiskLevel, PlotRiskReasonItem, PlotRiskSettings, ReferenceLayerKind } from '@farmland/contracts';

export type RiskFigure = { layer_id: string; layer_name: string; kind: ReferenceLayerKind; overlap_sqm: number; share: number };

const RANK: Record<PlotRiskLevel, number> = { low: 0, review: 1, high: 2 };

const pct = (share: number) => `${(Math.round(share * 10_000) / 100).toLocaleString('en')} %`;
const sqm = (v: number) => `${Math.round(v).toLocaleString('en')} m²`;
const figure = (f: RiskFigure) => `${sqm(f.overlap_sqm)}, ${pct(f.share)} of the plot`;

/**
 * The tree, in order (each rule adds a reason; the verdict is the highest level among them):
 * 1. An overlap under eudr_min_overlap_sqm counts as none (digitising noise along edges).
 * 2. Tree-cover loss after 2020 over eudr_loss_high_share of the plot → high.
 * 3. A protected area over eudr_protected_high_share → high.
 * 4. Forest at the 2020 cut-off over eudr_forest_review_share → review.
 * 5. Indigenous or community land, or a concession, overlapping at all → review (legality: consent and tenure).
 * 6. Another layer overlapping → a low reason (listed as evidence; it changes nothing).
 * 7. No forest-2020 layer applies to the tenant → review (nothing shows the plot was not forest).
 * 8. A layer in use without a figure for this plot yet (its screening is running) → review, until it has one.
 * 9. No reason at all → low, "no overlap with any layer".
 */
export function plotRisk(figures: readonly RiskFigure[], settings: PlotRiskSettings, opts: { pendingLayers: number; hasForestLayer: boolean }): PlotRisk {
  const reasons: PlotRiskReasonItem[] = [];
  for (const f of figures) {
    if (!(f.overlap_sqm >= settings.eudr_min_overlap_sqm) || !(f.overlap_sqm > 0)) continue;
    switch (f.kind) {
      case 'tree_cover_loss':
        if (f.share > settings.eudr_loss_high_share)
          reasons.push({ code: 'tree_cover_loss', level: 'high', message: `Tree-cover loss after 2020 (${f.layer_name}): ${figure(f)}`, layer_id: f.layer_id });
        break;
      case 'protected_area':
        if (f.share > settings.eudr_protected_high_share)
          reasons.push({ code: 'protected_area', level: 'high', message: `Inside a protected area (${f.layer_name}): ${figure(f)}`, layer_id: f.layer_id });
        break;
      case 'forest_2020':
        if (f.share > settings.eudr_forest_review_share)
          reasons.push({ code: 'forest_2020', level: 'review', message: `Forest at the end of 2020 (${f.layer_name}): ${figure(f)}`, layer_id: f.layer_id });
        break;
      case 'indigenous_land':
        reasons.push({
          code: 'indigenous_land',
          level: 'review',
          message: `Overlaps indigenous or community land (${f.layer_name}): ${figure(f)}`,
          layer_id: f.layer_id,
        });
        break;
      case 'concession':
        reasons.push({ code: 'concession', level: 'review', message: `Overlaps a concession (${f.layer_name}): ${figure(f)}`, layer_id: f.layer_id });
        break;
      case 'other':
        reasons.push({ code: 'other_layer', level: 'low', message: `Overlaps ${f.layer_name}: ${figure(f)}`, layer_id: f.layer_id });
        break;
    }
  }
  if (!opts.hasForestLayer)
    reasons.push({
      code: 'no_forest_layer',
      level: 'review',
      message: 'No forest-cover layer at the 2020 cut-off is loaded, so nothing shows the plot was not forest',
      layer_id: null,
    });
  if (opts.pendingLayers > 0)
    reasons.push({
      code: 'not_screened',
      level: 'review',
      message: `Not yet screened against ${opts.pendingLayers} layer(s); the screening is running`,
      layer_id: null,
    });
  const level = reasons.reduce<PlotRiskLevel>((m, r) => (RANK[r.level] > RANK[m] ? r.level : m), 'low');
  if (reasons.length === 0) reasons.push({ code: 'no_overlap', level: 'low', message: 'No overlap with any reference layer', layer_id: null });
  reasons.sort((a, b) => RANK[b.level] - RANK[a.level]);
  return { level, reasons };
}
