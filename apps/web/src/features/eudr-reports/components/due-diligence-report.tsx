// /admin/reports/due-diligence?area_id=… or ?farm_ids=… (issue 29): the printable due-diligence report of a chosen set
// of plots: a summary, the reference layers the verdicts were read against, a map of the plots (coloured by verdict)
// and per plot its evidence: verdict and reasons, overlap with each layer (m² and share of the plot) and geolocation
// warnings. "Print or save as PDF" uses the browser's print with the stylesheet in due-diligence.css.
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Spin from 'antd/es/spin';
import Typography from 'antd/es/typography';
import { PrinterOutlined } from '@ant-design/icons';
import type { DueDiligencePlot, DueDiligenceReport as Report, PlotRiskLevel } from '@farmland/contracts';
import { LazyFarmMap } from '../../../components/map/lazy-map';
import type { MapCategory, MapFeature } from '../../../components/map/map-constants';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime, formatHectares, formatNumber } from '../../../lib/formatters';
import { paths } from '../../../lib/paths';
import { useDueDiligence, type DueDiligenceChoice } from '../api/get-due-diligence';
import { formatShare, LAYER_KIND_LABEL, LAYER_OWNER_LABEL } from '../../../components/eudr/eudr-labels';
import { VerdictTag } from '../../../components/eudr/verdict-tag';
import { reasonText, verdictLabel, warningLabel } from './verdict-label';
import { currentIntl, t } from '../../../i18n';
import { eudrReportsText as m } from '../eudr-reports.messages';
import './due-diligence.css';

/** The map's category colours carry the verdict: green low, orange review, red high. */
const CATEGORY: Record<PlotRiskLevel, MapCategory> = { low: 'overlap', review: 'unrecognized', high: 'outside' };
const LEVELS: PlotRiskLevel[] = ['high', 'review', 'low'];

function choiceOf(params: URLSearchParams): DueDiligenceChoice | null {
  const area = params.get('area_id');
  const farms = params.get('farm_ids');
  if (area) return { area_id: area };
  if (farms) return { farm_ids: farms };
  return null;
}

function PlotEvidence({ p }: { p: DueDiligencePlot }) {
  return (
    <Card
      size="small"
      className="dd-plot"
      data-testid="dd-plot"
      title={`${p.farm_name} · ${p.farmer}`}
      extra={<VerdictTag level={p.verdict} testId={`verdict-${p.verdict}`} />}
    >
      <p>
        {t(m.plotLine, {
          size: formatHectares(p.area_sqm),
          area: p.area_name ?? t(m.outsideAreas),
          agent: p.agent_name ?? t(m.anAdministrator),
          date: formatDateTime(p.captured_at),
          id: p.farm_id,
        })}
      </p>
      <ul>
        {p.reasons.map((r) => (
          <li key={`${r.code}-${r.layer_id ?? ''}`}>
            {currentIntl().formatMessage(m.reasonLine, { verdict: verdictLabel(r.level), message: reasonText(r), b: (chunks) => <strong>{chunks}</strong> })}
          </li>
        ))}
      </ul>
      <table className="dd-figures">
        <thead>
          <tr>
            <th>{t(m.referenceLayer)}</th>
            <th>{t(m.kind)}</th>
            <th>{t(m.overlap)}</th>
            <th>{t(m.shareOfPlot)}</th>
          </tr>
        </thead>
        <tbody>
          {p.figures.length === 0 ? (
            <tr>
              <td colSpan={4}>{t(m.notScreened)}</td>
            </tr>
          ) : (
            p.figures.map((f) => (
              <tr key={f.layer_id}>
                <td>{f.layer_name}</td>
                <td>{LAYER_KIND_LABEL[f.kind]}</td>
                <td>{formatNumber(Math.round(f.overlap_sqm))}</td>
                <td>{formatShare(f.share)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <p>{t(m.geolocation, { warnings: p.warnings.length === 0 ? t(m.noWarning) : p.warnings.map(warningLabel).join(', ') })}</p>
    </Card>
  );
}

function ReportBody({ r }: { r: Report }) {
  const features = useMemo<MapFeature[]>(
    () =>
      r.plots.map((p) => ({
        id: p.farm_id,
        name: p.farm_name,
        category: CATEGORY[p.verdict],
        rings: p.polygon.coordinates,
        properties: { verdict: verdictLabel(p.verdict) },
      })),
    [r],
  );
  const s = r.summary;
  const what =
    r.selection.kind === 'area'
      ? t(m.selectionArea, { name: r.selection.area_name ?? '' })
      : t(m.selectionFarms, { count: r.selection.requested, n: formatNumber(r.selection.requested) });
  return (
    <>
      <Card size="small" title={t(m.summary)}>
        <p data-testid="dd-summary">
          {currentIntl().formatMessage(m.summaryText, {
            plots: formatNumber(s.plots),
            area: formatHectares(s.area_sqm),
            low: formatNumber(s.low),
            review: formatNumber(s.review),
            high: formatNumber(s.high),
            warned: formatNumber(s.with_warnings),
            readyCount: formatNumber(s.ready),
            screened: formatNumber(s.screened),
            b: (chunks) => <strong>{chunks}</strong>,
            ready: (chunks) => <strong data-testid="dd-ready">{chunks}</strong>,
          })}
        </p>
        <p>{t(m.generated, { tenant: r.tenant_name, what, date: formatDateTime(r.generated_at) })}</p>
        <Typography.Title level={3} className="dd-subheading">
          {t(m.layersRead)}
        </Typography.Title>
        {r.layers.length === 0 ? (
          <p>{t(m.noLayerInUse)}</p>
        ) : (
          <ul>
            {r.layers.map((l) => (
              <li key={l.id}>
                {t(m.layerLine, {
                  name: l.name,
                  kind: LAYER_KIND_LABEL[l.kind],
                  owner: LAYER_OWNER_LABEL[l.owner],
                  date: l.reference_date,
                  version: String(l.version),
                  source: l.source,
                })}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card size="small" title={t(m.mapTitle)} extra={<span>{t(m.mapLegend)}</span>}>
        <div className="dd-map">
          <LazyFarmMap features={features} markers={false} categories={null} height="100%" ariaLabel={t(m.mapLabel)} testId="dd-map" printable />
        </div>
      </Card>
      {LEVELS.map((level) => {
        const plots = r.plots.filter((p) => p.verdict === level);
        if (plots.length === 0) return null;
        return (
          <section key={level} className="dd-group" data-testid={`dd-group-${level}`}>
            <Typography.Title level={2} className="dd-group-title">
              {t(m.groupTitle, { verdict: verdictLabel(level), count: plots.length, n: formatNumber(plots.length) })}
            </Typography.Title>
            <div className="stack gap-8">
              {plots.map((p) => (
                <PlotEvidence key={p.farm_id} p={p} />
              ))}
            </div>
          </section>
        );
      })}
    </>
  );
}

export function DueDiligenceReportScreen() {
  const [params] = useSearchParams();
  const choice = choiceOf(params);
  const report = useDueDiligence(choice);
  const r = report.data?.data;
  const problem = report.error instanceof ApiError ? report.error.message : t(m.loadReportFailed);
  return (
    <div className="dd-report stack-16" data-testid="dd-report">
      <div className="page-head">
        <Typography.Title level={1} className="page-title">
          {t(m.reportTitle)}
        </Typography.Title>
        <div className="grow" />
        <Link className="no-print" to={paths.tenant.reports}>
          {t(m.backToReports)}
        </Link>
        <Button className="no-print" type="primary" icon={<PrinterOutlined aria-hidden="true" />} disabled={!r} onClick={() => window.print()}>
          {t(m.print)}
        </Button>
      </div>
      {!choice ? (
        <Empty description={t(m.chooseArea)} />
      ) : report.isError ? (
        <Alert type="error" showIcon message={problem} action={<Button onClick={() => void report.refetch()}>{t(m.tryAgain)}</Button>} />
      ) : !r ? (
        <Spin tip={t(m.preparing)}>
          <div className="dd-loading" />
        </Spin>
      ) : r.plots.length === 0 ? (
        <Empty description={t(m.noPlots)} />
      ) : (
        <ReportBody r={r} />
      )}
    </div>
  );
}
