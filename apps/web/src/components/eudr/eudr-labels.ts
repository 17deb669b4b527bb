// Words of the EUDR screens, shared by every screen that shows a plot-risk verdict or a reference layer: the verdict
// levels (low, review, high) and the layer kinds, as the console says them.
import type { PlotRiskLevel, ReferenceLayerKind } from '@farmland/contracts';

export const RISK_LABEL: Record<PlotRiskLevel, string> = {
  low: 'Low risk',
  review: 'Needs review',
  high: 'High risk',
};

/** Ant Design status colours of a Tag; their text colours are the theme's Tag tokens (app/theme.ts), AA on their backgrounds. */
export const RISK_TAG_COLOR: Record<PlotRiskLevel, 'success' | 'warning' | 'error'> = {
  low: 'success',
  review: 'warning',
  high: 'error',
};

export const LAYER_KIND_LABEL: Record<ReferenceLayerKind, string> = {
  forest_2020: 'Forest cover 2020',
  tree_cover_loss: 'Tree-cover loss',
  protected_area: 'Protected area',
  indigenous_land: 'Indigenous or community land',
  concession: 'Concession',
  other: 'Other',
};

export const LAYER_OWNER_LABEL: Record<'provider' | 'tenant', string> = {
  provider: 'Provider-wide',
  tenant: 'Own',
};

/** A share 0–1 as a percentage: "12.5 %", "< 0.01 %" for a share that rounds to nothing but is not nothing. */
export function formatShare(share: number): string {
  if (!Number.isFinite(share)) return '--';
  const pct = share * 100;
  if (pct > 0 && pct < 0.01) return '< 0.01 %';
  return `${pct.toFixed(pct >= 10 ? 1 : 2)} %`;
}
