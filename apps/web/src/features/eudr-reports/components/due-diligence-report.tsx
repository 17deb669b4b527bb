// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
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
import { VERDICT_LABELS, WARNING_LABELS } from './verdict-label';
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
    <Card size="small" className="dd-plot" data-testid="dd-plot" title={`${p.farm_name} · ${p.farmer}`} extra={<VerdictTag level={p.verdict} testId={`verdict-${p.verdict}`} />}>
      <p>
        {formatHectares(p.area_sqm)} · {p.area_name ?? 'Outside operational areas'} · mapped by {p.agent_name ?? 'an administrator or an import'} on {formatDateTime(p.captured_at)} · farm id {p.farm_id}
      </p>
      <ul>
        {p.reasons.map((r) => (
          <li key={`${r.code}-${r.layer_id ?? ''}`}>
            <strong>{VERDICT_LABELS[r.level]}:</strong> {r.message}
          </li>
        ))}
      </ul>
      <table className="dd-figures">
        <thead>
          <tr>
            <th>Reference layer</th>
            <th>Kind</th>
            <th>Overlap (m²)</th>
            <th>Share of the plot</th>
          </tr>
        </thead>
        <tbody>
          {p.figures.length === 0 ? (
            <tr>
              <td colSpan={4}>Not screened against any layer yet</td>
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
      <p>Geolocation: {p.warnings.length === 0 ? 'no warning' : p.warnings.map((w) => WARNING_LABELS[w]).join(', ')}</p>
    </Card>
  );
}

function ReportBody({ r }: { r: Report }) {
  const features = useMemo<MapFeature[]>(
    () => r.plots.map((p) => ({ id: p.farm_id, name: p.farm_name, category: CATEGORY[p.verdict], rings: p.polygon.coordinates as MapFeature['rings'], properties: { verdict: VERDICT_LABELS[p.verdict] } })),
    [r],
  );
  const s = r.summary;
  const what = r.selection.kind === 'area' ? `Operational area ${r.selection.area_name ?? ''}` : `${formatNumber(r.selection.requested)} chosen farms`;
  return (
    <>
      <Card size="small" title="Summary">
        <p data-testid="dd-summary">
          <strong>{formatNumber(s.plots)}</strong> plots ({formatHectares(s.area_sqm)}): <strong>{formatNumber(s.low)}</strong> low risk, <strong>{formatNumber(s.review)}</strong> needing review,{' '}
          <strong>{formatNumber(s.high)}</strong> high risk; <strong>{formatNumber(s.with_warnings)}</strong> with a geolocation warning; <strong data-testid="dd-ready">{formatNumber(s.ready)}</strong> ready
          (low risk, no warning). {formatNumber(s.screened)} screened against every layer in use.
        </p>
        <p>
          {r.tenant_name} · {what} · generated {formatDateTime(r.generated_at)} · cut-off date 31 December 2020.
        </p>
        <Typography.Title level={3} style={{ fontSize: 14 }}>
          Reference layers read
        </Typography.Title>
        {r.layers.length === 0 ? (
          <p>No reference layer is in use: nothing shows these plots were not forest at the cut-off date.</p>
        ) : (
          <ul>
            {r.layers.map((l) => (
              <li key={l.id}>
                {l.name} ({LAYER_KIND_LABEL[l.kind]}, {LAYER_OWNER_LABEL[l.owner]} layer, reference date {l.reference_date}, version {l.version}): {l.source}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card size="small" title="Map of the plots" extra={<span>green low risk · orange needs review · red high risk</span>}>
        <div className="dd-map">
          <LazyFarmMap features={features} markers={false} categories={null} height="100%" ariaLabel="Map of the report's plots, coloured by verdict" testId="dd-map" printable />
        </div>
      </Card>
      {LEVELS.map((level) => {
        const plots = r.plots.filter((p) => p.verdict === level);
        if (plots.length === 0) return null;
        return (
          <section key={level} className="dd-group" data-testid={`dd-group-${level}`}>
            <Typography.Title level={2} style={{ fontSize: 18 }}>
              {VERDICT_LABELS[level]}: {formatNumber(plots.length)} plots
            </Typography.Title>
            <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
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
  const problem = report.error instanceof ApiError ? report.error.message : 'The report could not be loaded';
  return (
    <div className="dd-report" style={{ display: 'flex', flexDirection: 'column', gap: 16 }} data-testid="dd-report">
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
          EUDR Due-Diligence Report
        </Typography.Title>
        <div style={{ flex: 1 }} />
        <Link className="no-print" to={paths.tenant.reports}>
          Back to Reports
        </Link>
        <Button className="no-print" type="primary" icon={<PrinterOutlined aria-hidden="true" />} disabled={!r} onClick={() => window.print()}>
          Print or save as PDF
        </Button>
      </div>
      {!choice ? (
        <Empty description="Choose an operational area on Reports, or open this page with farm_ids." />
      ) : report.isError ? (
        <Alert type="error" showIcon message={problem} action={<Button onClick={() => void report.refetch()}>Try again</Button>} />
      ) : !r ? (
        <Spin tip="Preparing the report…">
          <div style={{ minHeight: 120 }} />
        </Spin>
      ) : r.plots.length === 0 ? (
        <Empty description="No plots in this selection" />
      ) : (
        <ReportBody r={r} />
      )}
    </div>
  );
}
