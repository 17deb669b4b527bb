// A plot's EUDR verdict with its evidence: the verdict, every reason of the decision tree (highest first, as the API
// orders them) and the figures per reference layer (kind, overlap in m², share of the plot). Takes the contract's
// types, so the farm drawer (GET /farms/{id}/screening/), reports and analysis rows can all show it.
import Alert from 'antd/es/alert';
import Skeleton from 'antd/es/skeleton';
import Table from 'antd/es/table';
import type { PlotRisk, ScreeningFigure } from '@farmland/contracts';
import { formatDateTime, formatNumber } from '../../lib/formatters';
import { LAYER_KIND_LABEL, LAYER_OWNER_LABEL, formatShare } from './eudr-labels';
import { VerdictTag } from './verdict-tag';
import { reasonText } from './reason-text';
import { t } from '../../i18n';
import { eudrText as m } from './eudr.messages';

type Props = {
  verdict?: PlotRisk;
  /** Per-layer figures; omit when only the verdict is known (the table is then left out). */
  figures?: readonly ScreeningFigure[];
  /** Layers that apply but have no figure yet (the screening is running). */
  pendingLayers?: readonly string[];
  loading?: boolean;
  /** An error to show instead of the verdict (the notifier has already toasted it). */
  error?: boolean;
  title?: string;
};

export function VerdictPanel({ verdict, figures, pendingLayers = [], loading = false, error = false, title: titleProp }: Props) {
  const title = titleProp ?? t(m.panelTitle);
  if (loading) {
    return (
      <section aria-label={title} aria-busy="true" data-testid="verdict-panel">
        <div className="strong mb-8">{title}</div>
        <Skeleton active paragraph={{ rows: 3 }} title={false} />
      </section>
    );
  }
  if (error || !verdict) {
    return (
      <section aria-label={title} data-testid="verdict-panel">
        <div className="strong mb-8">{title}</div>
        <Alert type="error" showIcon title={t(m.panelError)} data-testid="verdict-error" />
      </section>
    );
  }
  return (
    <section aria-label={title} data-testid="verdict-panel">
      <div className="inline-12 mb-8">
        <span className="strong">{title}</span>
        <VerdictTag level={verdict.level} />
      </div>
      <ul className="plain-list" data-testid="verdict-reasons">
        {verdict.reasons.map((r, i) => (
          <li key={`${r.code}-${r.layer_id ?? i}`} className="inline-12" data-reason={r.code}>
            <VerdictTag level={r.level} short testId="reason-level" />
            <span className="grow-shrink">{reasonText(r)}</span>
          </li>
        ))}
      </ul>
      {figures && (
        <Table<ScreeningFigure>
          className="mt-12"
          size="small"
          rowKey="layer_id"
          pagination={false}
          data-testid="verdict-figures"
          dataSource={[...figures]}
          locale={{ emptyText: t(m.noLayerApplies) }}
          columns={[
            {
              key: 'layer',
              title: t(m.layer),
              render: (_: unknown, f) => (
                <>
                  <span className="block" translate="no">
                    {f.layer_name}
                  </span>
                  <span className="text-muted small">{t(m.screened, { owner: LAYER_OWNER_LABEL[f.owner], date: formatDateTime(f.computed_at) })}</span>
                </>
              ),
            },
            { key: 'kind', title: t(m.kind), render: (_: unknown, f) => LAYER_KIND_LABEL[f.kind] },
            {
              key: 'overlap',
              title: t(m.overlap),
              align: 'right',
              render: (_: unknown, f) => <span className="nowrap">{formatNumber(f.overlap_sqm, 2)}</span>,
            },
            { key: 'share', title: t(m.share), align: 'right', render: (_: unknown, f) => <span className="nowrap">{formatShare(f.share)}</span> },
          ]}
        />
      )}
      {pendingLayers.length > 0 && (
        <div className="text-muted small mt-8" data-testid="verdict-pending">
          {t(m.pending, { count: pendingLayers.length })}
        </div>
      )}
    </section>
  );
}
