// /admin/reports (issue 29): the tenant's EUDR readiness. Cards of plots by verdict, a chart by verdict and by
// geolocation warning, the tables per operational area and per agent, the verdicts by capture month, and the plots
// needing action on the one list page (filters, csv export), each linked to its farm's drawer. "Due-diligence report"
// opens the printable report for an operational area.
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Select from 'antd/es/select';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { FileProtectOutlined } from '@ant-design/icons';
import type { ChartConfiguration } from 'chart.js';
import { EUDR_WARNINGS, type EudrPlot, type EudrReadinessSummary, type ReadinessCounts } from '@farmland/contracts';
import { LazyChart } from '../../../components/chart/lazy-chart';
import { FilterModal, type FilterField } from '../../../components/ui/filter-modal';
import { ListPage, type ListColumn } from '../../../components/ui/list-page';
import { StatCard } from '../../../components/ui/stat-card';
import { listQuery, useListState } from '../../../components/ui/use-list-state';
import { formatHectares, formatNumber } from '../../../lib/formatters';
import { paths } from '../../../lib/paths';
import { PLOTS_EXPORT_PATH, usePlotsNeedingAction } from '../api/get-plots-needing-action';
import { useReadinessSummary } from '../api/get-readiness-summary';
import { VerdictTag } from '../../../components/eudr/verdict-tag';
import { reasonText, VERDICT_COLORS, verdictLabel, warningLabel } from './verdict-label';
import { t } from '../../../i18n';
import { eudrReportsText as m } from '../eudr-reports.messages';
import './eudr-reports.css';

type Group = EudrReadinessSummary['by_area'][number];
const FILTERS = ['area_id', 'agent_id', 'verdict', 'warning'] as const;
const pct = (n: number, of: number) => (of > 0 ? `${Math.round((n / of) * 1000) / 10}%` : '–');

function VerdictChart({ s }: { s: EudrReadinessSummary }) {
  const config = useMemo<ChartConfiguration>(
    () => ({
      type: 'bar',
      data: {
        labels: [...(['low', 'review', 'high'] as const).map(verdictLabel), ...EUDR_WARNINGS.map(warningLabel)],
        datasets: [
          {
            label: t(m.plots),
            data: [s.low, s.review, s.high, ...EUDR_WARNINGS.map((w) => s.by_warning[w] ?? 0)],
            backgroundColor: [VERDICT_COLORS.low, VERDICT_COLORS.review, VERDICT_COLORS.high, ...EUDR_WARNINGS.map(() => '#7b2cbf')],
          },
        ],
      },
      options: { indexAxis: 'y', plugins: { legend: { display: false } } },
    }),
    [s],
  );
  return <LazyChart config={config} height={260} ariaLabel={t(m.verdictChartLabel)} testId="eudr-verdict-chart" />;
}

function TrendChart({ s }: { s: EudrReadinessSummary }) {
  const config = useMemo<ChartConfiguration>(
    () => ({
      type: 'bar',
      data: {
        labels: s.trend.map((t) => t.month),
        datasets: (['low', 'review', 'high'] as const).map((l) => ({
          label: verdictLabel(l),
          data: s.trend.map((t) => t[l]),
          backgroundColor: VERDICT_COLORS[l],
          stack: 'v',
        })),
      },
      options: { plugins: { legend: { position: 'bottom' } }, scales: { x: { stacked: true }, y: { stacked: true } } },
    }),
    [s],
  );
  return <LazyChart config={config} height={260} ariaLabel={t(m.trendChartLabel)} testId="eudr-trend-chart" />;
}

/** One table of counts per group; the group without an id (no area, no agent) is named in the page's language. */
function GroupTable({ rows, title, column, testId, noneName }: { rows: readonly Group[]; title: string; column: string; testId: string; noneName: string }) {
  const num = (k: keyof ReadinessCounts) => ({ key: k, dataIndex: k, align: 'right' as const, render: (v: number) => formatNumber(v) });
  return (
    <Card size="small" title={title} data-testid={testId}>
      <div className="scroll-x-plain">
        <Table<Group>
          size="small"
          rowKey={(r) => r.id ?? 'none'}
          dataSource={[...rows]}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty description={t(m.noPlotsYet)} /> }}
          columns={[
            { key: 'name', title: column, dataIndex: 'name', render: (name: string, r) => (r.id === null ? noneName : <span translate="no">{name}</span>) },
            { ...num('plots'), title: t(m.plots) },
            { ...num('low'), title: t(m.colLow) },
            { ...num('review'), title: t(m.colReview) },
            { ...num('high'), title: t(m.colHigh) },
            { ...num('with_warnings'), title: t(m.colWarnings) },
            { key: 'ready', title: t(m.colReady), align: 'right', render: (_v, r) => `${formatNumber(r.ready)} (${pct(r.ready, r.plots)})` },
          ]}
        />
      </div>
    </Card>
  );
}

export function EudrReportsScreen() {
  const navigate = useNavigate();
  const summary = useReadinessSummary();
  const s = summary.data?.data;
  const state = useListState({ defaultPageSize: 10, filters: FILTERS });
  const { page, pageSize, filters, search } = state;
  const query = listQuery(search, filters);
  const plots = usePlotsNeedingAction({ page, page_size: pageSize, ...query });
  const [filterOpen, setFilterOpen] = useState(false);
  const [reportArea, setReportArea] = useState<string | undefined>(undefined);
  const areas = (s?.by_area ?? []).filter((a) => a.id !== null);

  const filterFields = useMemo<FilterField[]>(
    () => [
      {
        kind: 'select',
        name: 'area_id',
        label: t(m.operationalArea),
        options: (s?.by_area ?? []).filter((a) => a.id).map((a) => ({ label: a.name, value: a.id! })),
      },
      { kind: 'select', name: 'agent_id', label: t(m.agent), options: (s?.by_agent ?? []).filter((a) => a.id).map((a) => ({ label: a.name, value: a.id! })) },
      {
        kind: 'select',
        name: 'verdict',
        label: t(m.verdict),
        options: (['review', 'high', 'low'] as const).map((l) => ({ label: verdictLabel(l), value: l })),
      },
      { kind: 'select', name: 'warning', label: t(m.geolocationWarning), options: EUDR_WARNINGS.map((w) => ({ label: warningLabel(w), value: w })) },
    ],
    [s],
  );

  const columns: ListColumn<EudrPlot>[] = [
    {
      key: 'farm_name',
      title: t(m.farm),
      alwaysVisible: true,
      render: (p) => <Link to={paths.tenant.farmers({ farmer: p.farmer_id, farm: p.farm_id })}>{p.farm_name}</Link>,
    },
    { key: 'farmer', title: t(m.farmer), render: (p) => p.farmer },
    { key: 'area_name', title: t(m.operationalArea), render: (p) => p.area_name ?? '–' },
    { key: 'agent_name', title: t(m.agent), render: (p) => p.agent_name ?? '–' },
    { key: 'area_sqm', title: t(m.size), render: (p) => formatHectares(p.area_sqm) },
    { key: 'verdict', title: t(m.verdict), render: (p) => <VerdictTag level={p.verdict} testId={`verdict-${p.verdict}`} /> },
    {
      key: 'reasons',
      title: t(m.reasons),
      render: (p) =>
        p.reasons
          .filter((r) => r.level !== 'low')
          .map(reasonText)
          .join('; ') || '–',
    },
    { key: 'warnings', title: t(m.warnings), render: (p) => p.warnings.map(warningLabel).join(', ') || '–' },
  ];

  if (summary.isError && !s) {
    return <Alert type="error" showIcon message={t(m.loadFailed)} action={<Button onClick={() => void summary.refetch()}>{t(m.tryAgain)}</Button>} />;
  }

  return (
    <div className="stack-16" data-testid="eudr-reports">
      <div className="page-head">
        <Typography.Title level={1} className="page-title">
          {t(m.title)}
        </Typography.Title>
        <div className="grow" />
        <Select
          aria-label={t(m.ddAreaLabel)}
          placeholder={t(m.ddAreaPlaceholder)}
          className="eudr-area-select"
          value={reportArea}
          onChange={(v: string) => setReportArea(v)}
          options={areas.map((a) => ({ label: `${a.name} (${formatNumber(a.plots)})`, value: a.id! }))}
          data-testid="dd-area"
        />
        <Button
          type="primary"
          icon={<FileProtectOutlined aria-hidden="true" />}
          disabled={!reportArea}
          onClick={() => reportArea && void navigate(paths.tenant.dueDiligence({ area_id: reportArea }))}
        >
          {t(m.ddButton)}
        </Button>
      </div>
      {s && s.layers === 0 && <Alert type="warning" showIcon message={t(m.noLayer)} />}
      <div className="stat-grid">
        <StatCard title={t(m.plots)} value={s?.plots} testId="eudr-plots" />
        <StatCard title={t(m.ready)} value={s?.ready} testId="eudr-ready" note={t(m.readyNote)} />
        <StatCard title={t(m.lowRisk)} value={s?.low} testId="eudr-low" />
        <StatCard title={t(m.needsReview)} value={s?.review} testId="eudr-review" />
        <StatCard title={t(m.highRisk)} value={s?.high} testId="eudr-high" />
        <StatCard title={t(m.withWarnings)} value={s?.with_warnings} testId="eudr-warnings" />
      </div>
      {s && s.plots === 0 ? (
        <Card size="small">
          <Empty description={t(m.noFarms)} />
        </Card>
      ) : (
        <div className="card-grid">
          <Card size="small" title={t(m.byVerdictTitle)}>
            {s ? <VerdictChart s={s} /> : null}
          </Card>
          <Card size="small" title={t(m.byMonthTitle)}>
            {s ? <TrendChart s={s} /> : null}
          </Card>
        </div>
      )}
      <div className="card-grid">
        <GroupTable rows={s?.by_area ?? []} title={t(m.perArea)} column={t(m.colOperationalArea)} testId="eudr-by-area" noneName={t(m.outsideAreas)} />
        <GroupTable rows={s?.by_agent ?? []} title={t(m.perAgent)} column={t(m.colAgent)} testId="eudr-by-agent" noneName={t(m.notMappedByAgent)} />
      </div>
      <ListPage<EudrPlot>
        title={t(m.needingAction)}
        headingLevel={2}
        count={plots.data?.data}
        rows={plots.data?.data.results ?? []}
        rowKey={(p) => p.farm_id}
        columns={columns}
        loading={plots.isFetching && !plots.data}
        error={plots.isError}
        onRetry={() => void plots.refetch()}
        {...state.listProps}
        searchPlaceholder={t(m.searchPlaceholder)}
        onOpenFilter={() => setFilterOpen(true)}
        exportName="eudr-plots-needing-action"
        exportPath={PLOTS_EXPORT_PATH}
        exportFilters={query}
        emptyText={t(m.noneNeedAction)}
        storageKey="eudr-plots"
      />
      <FilterModal open={filterOpen} fields={filterFields} value={filters} onApply={state.setFilters} onClose={() => setFilterOpen(false)} />
    </div>
  );
}
