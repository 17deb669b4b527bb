// Words of the EUDR screens, shared by every screen that shows a plot-risk verdict or a reference layer: the verdict
// levels (low, review, high) and the layer kinds, as the console says them.
import type { PlotRiskLevel, ReferenceLayerKind } from '@farmland/contracts';
import { currentLocale } from '../../i18n';
import { textMap } from '../../lib/text-map';
import { eudrText as m } from './eudr.messages';

/** Each map's values are read in the page's language when used (lib/text-map.ts). */
export const RISK_LABEL: Readonly<Record<PlotRiskLevel, string>> = textMap({ low: m.riskLow, review: m.riskReview, high: m.riskHigh });

/** Ant Design status colours of a Tag; their text colours are the theme's Tag tokens (app/theme.ts), AA on their backgrounds. */
export const RISK_TAG_COLOR: Record<PlotRiskLevel, 'success' | 'warning' | 'error'> = {
  low: 'success',
  review: 'warning',
  high: 'error',
};

export const LAYER_KIND_LABEL: Readonly<Record<ReferenceLayerKind, string>> = textMap({
  forest_2020: m.kindForest2020,
  tree_cover_loss: m.kindTreeCoverLoss,
  protected_area: m.kindProtectedArea,
  indigenous_land: m.kindIndigenousLand,
  concession: m.kindConcession,
  other: m.kindOther,
});

export const LAYER_OWNER_LABEL: Readonly<Record<'provider' | 'tenant', string>> = textMap({ provider: m.ownerProvider, tenant: m.ownerTenant });

/** A share 0–1 as a percentage: "12.5 %", "< 0.01 %" for a share that rounds to nothing but is not nothing. */
export function formatShare(share: number): string {
  if (!Number.isFinite(share)) return '--';
  const pct = share * 100;
  const fr = currentLocale() === 'fr';
  if (pct > 0 && pct < 0.01) return fr ? '< 0,01 %' : '< 0.01 %';
  const figure = pct.toFixed(pct >= 10 ? 1 : 2);
  return `${fr ? figure.replace('.', ',') : figure} %`;
}
