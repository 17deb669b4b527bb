// A plot-risk reason in the page's language. The API writes each reason in English with a stable code
// (apps/api/src/modules/reference-layers/plot-risk.ts); in French the console rewrites the ones it knows, keeping the
// layer's name and the figures (in the French number form), and shows any other as the API sent it.
import type { PlotRisk } from '@farmland/contracts';
import { currentLocale, t, type Text } from '../../i18n';
import { formatNumber } from '../../lib/formatters';
import { eudrText as m } from './eudr.messages';

type Reason = PlotRisk['reasons'][number];

const FIGURE = '([\\d,]+) m², ([\\d.,]+) % of the plot';
const WITH_LAYER: Record<string, { pattern: RegExp; text: Text }> = {
  tree_cover_loss: { pattern: new RegExp(`^Tree-cover loss after 2020 \\((.*)\\): ${FIGURE}$`), text: m.reasonTreeCoverLoss },
  protected_area: { pattern: new RegExp(`^Inside a protected area \\((.*)\\): ${FIGURE}$`), text: m.reasonProtectedArea },
  forest_2020: { pattern: new RegExp(`^Forest at the end of 2020 \\((.*)\\): ${FIGURE}$`), text: m.reasonForest2020 },
  indigenous_land: { pattern: new RegExp(`^Overlaps indigenous or community land \\((.*)\\): ${FIGURE}$`), text: m.reasonIndigenousLand },
  concession: { pattern: new RegExp(`^Overlaps a concession \\((.*)\\): ${FIGURE}$`), text: m.reasonConcession },
  other_layer: { pattern: new RegExp(`^Overlaps (.*): ${FIGURE}$`), text: m.reasonOtherLayer },
};

const number = (english: string) => Number(english.replace(/,/g, ''));

export function reasonText(reason: Reason): string {
  if (currentLocale() === 'en') return reason.message;
  const withLayer = WITH_LAYER[reason.code];
  if (withLayer) {
    const x = withLayer.pattern.exec(reason.message);
    if (!x) return reason.message;
    const figure = t(m.figure, { area: formatNumber(number(x[2]!)), share: formatNumber(number(x[3]!)) });
    return t(withLayer.text, { layer: x[1]!, figure });
  }
  if (reason.code === 'no_forest_layer' && reason.message === m.reasonNoForestLayer.defaultMessage) return t(m.reasonNoForestLayer);
  if (reason.code === 'no_overlap' && reason.message === m.reasonNoOverlap.defaultMessage) return t(m.reasonNoOverlap);
  const pending = reason.code === 'not_screened' ? /^Not yet screened against (\d+) layer\(s\); the screening is running$/.exec(reason.message) : null;
  if (pending) return t(m.reasonNotScreened, { count: Number(pending[1]) });
  return reason.message;
}
