// /super-admin/reports (beyond the spec, which does not show it; see docs/decisions/0014-provider-console-screens.md): each tenant's mapping progress in
// a chosen year: farms mapped per month, agents active and area mapped, as a chart (the totals per month, or one tenant's
// months when a row is picked) and a table with each tenant's months, downloadable as CSV; below, each tenant's EUDR
// readiness (issue 29).
import { useMemo, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { DownloadOutlined } from '@ant-design/icons';
import type { ChartConfiguration } from 'chart.js';
import type { TenantProgress } from '@farmland/contracts';
import { LazyChart } from '../../../components/chart/lazy-chart';
import { CountBadge } from '../../../components/ui/count-badge';
import { currentYear, YearPicker } from '../../../components/ui/year-picker';
import { saveBlob } from '../../../lib/download';
import { formatHectares, formatNumber } from '../../../lib/formatters';
import { useTenantProgress } from '../api/get-tenant-progress';
import { progressCsv } from './progress-csv';
import { ReadinessTable } from './readiness-table';
import { currentIntl, currentLocale, t } from '../../../i18n';
import { reportsText as m } from '../reports.messages';

type Row = TenantProgress['results'][number];
type Month = Row['months'][number];

const monthLabel = (m: string) =>
  new Date(`${m}-01T00:00:00Z`).toLocaleDateString(currentLocale() === 'fr' ? 'fr-FR' : 'en-GB', { month: 'short', timeZone: 'UTC' });

function ProgressChart({ months, title }: { months: readonly Month[]; title: string }) {
  const config = useMemo<ChartConfiguration>(
    () => ({
      type: 'bar',
      data: {
        labels: months.map((mo) => monthLabel(mo.month)),
        datasets: [
          { type: 'bar', label: t(m.farmsMapped), data: months.map((mo) => mo.farms_mapped), backgroundColor: '#2b9348', yAxisID: 'y' },
          {
            type: 'line',
            label: t(m.agentsActive),
            data: months.map((mo) => mo.agents_active),
            borderColor: '#7b2cbf',
            backgroundColor: '#7b2cbf',
            yAxisID: 'y',
          },
        ],
      },
      options: { plugins: { legend: { position: 'bottom' } } },
    }),
    [months],
  );
  return <LazyChart config={config} height={280} ariaLabel={title} testId="reports-chart" />;
}

export function ReportsScreen() {
  const [year, setYear] = useState(currentYear);
  const [picked, setPicked] = useState<string | null>(null);
  const progress = useTenantProgress(year);
  const p = progress.data?.data;
  const rows = p?.results ?? [];
  const pickedRow = rows.find((r) => r.tenant_id === picked) ?? null;
  const chartMonths = pickedRow?.months ?? p?.totals.months ?? [];
  const chartTitle = pickedRow ? t(m.chartTitleTenant, { tenant: pickedRow.tenant_name, year: String(year) }) : t(m.chartTitleAll, { year: String(year) });

  const download = () => {
    if (!p) return;
    saveBlob(new Blob([progressCsv(p)], { type: 'text/csv;charset=utf-8' }), `tenant-progress-${year}.csv`);
  };

  return (
    <div className="stack-16" data-testid="reports">
      <div className="page-head">
        <Typography.Title level={1} className="page-title">
          {t(m.title)}
        </Typography.Title>
        <CountBadge count={p ? rows.length : undefined} label={t(m.tenantsBadge)} />
        <div className="grow" />
        <YearPicker value={year} onChange={(y) => setYear(y)} label={t(m.reportYear)} />
        <Button icon={<DownloadOutlined aria-hidden="true" />} disabled={!p || rows.length === 0} onClick={download}>
          {t(m.downloadCsv)}
        </Button>
      </div>
      {progress.isError && !p ? (
        <Alert type="error" showIcon message={t(m.loadFailed)} action={<Button onClick={() => void progress.refetch()}>{t(m.tryAgain)}</Button>} />
      ) : (
        <>
          <Card
            size="small"
            title={pickedRow ? pickedRow.tenant_name : t(m.allTenants)}
            extra={
              pickedRow && (
                <Button size="small" onClick={() => setPicked(null)}>
                  {t(m.showAll)}
                </Button>
              )
            }
          >
            {p && (
              <div className="inline gap-24 wrap align-stretch mb-8" data-testid="reports-totals">
                <span>
                  {currentIntl().formatMessage(m.totalFarms, {
                    n: formatNumber(pickedRow?.farms_mapped ?? p.totals.farms_mapped),
                    b: (chunks) => <strong data-testid="reports-total-farms">{chunks}</strong>,
                  })}
                </span>
                <span>
                  {currentIntl().formatMessage(m.totalArea, {
                    area: formatHectares(pickedRow?.area_sqm ?? p.totals.area_sqm),
                    b: (chunks) => <strong>{chunks}</strong>,
                  })}
                </span>
                <span>
                  {currentIntl().formatMessage(m.totalAgents, {
                    n: formatNumber(pickedRow?.agents_active ?? p.totals.agents_active),
                    year: String(year),
                    b: (chunks) => <strong>{chunks}</strong>,
                  })}
                </span>
              </div>
            )}
            <ProgressChart months={chartMonths} title={chartTitle} />
          </Card>
          <Card size="small" title={t(m.perTenant, { year: String(year) })}>
            <div className="scroll-x-plain">
              <Table<Row>
                size="middle"
                rowKey="tenant_id"
                loading={progress.isFetching && !p}
                dataSource={rows}
                pagination={{ pageSize: 20, hideOnSinglePage: true }}
                locale={{ emptyText: <Empty description={t(m.noTenants)} /> }}
                onRow={(r) => ({ onClick: () => setPicked(r.tenant_id), style: { cursor: 'pointer' } })}
                rowClassName={(r) => (r.tenant_id === picked ? 'ant-table-row-selected' : '')}
                expandable={{
                  columnTitle: <span className="visually-hidden">{t(m.months)}</span>,
                  expandedRowRender: (r) => (
                    <Table<Month>
                      size="small"
                      rowKey="month"
                      pagination={false}
                      dataSource={r.months}
                      columns={[
                        { title: t(m.month), render: (_: unknown, mo: Month) => t(m.monthYear, { month: monthLabel(mo.month), year: String(year) }) },
                        { title: t(m.farmsMapped), render: (_: unknown, mo: Month) => formatNumber(mo.farms_mapped) },
                        { title: t(m.areaMapped), render: (_: unknown, mo: Month) => formatHectares(mo.area_sqm) },
                        { title: t(m.agentsActive), render: (_: unknown, mo: Month) => formatNumber(mo.agents_active) },
                      ]}
                    />
                  ),
                }}
                columns={[
                  { title: t(m.tenant), dataIndex: 'tenant_name' },
                  {
                    title: t(m.license),
                    render: (_: unknown, r: Row) => (r.license_type ? <Tag>{r.license_type === 'Platform' ? t(m.typePlatform) : r.license_type}</Tag> : '--'),
                  },
                  {
                    title: t(m.farmsMapped),
                    render: (_: unknown, r: Row) => formatNumber(r.farms_mapped),
                    sorter: (a: Row, b: Row) => a.farms_mapped - b.farms_mapped,
                    defaultSortOrder: 'descend' as const,
                  },
                  { title: t(m.areaMapped), render: (_: unknown, r: Row) => formatHectares(r.area_sqm), sorter: (a: Row, b: Row) => a.area_sqm - b.area_sqm },
                  {
                    title: t(m.agentsActive),
                    render: (_: unknown, r: Row) => t(m.agentsOf, { active: formatNumber(r.agents_active), total: formatNumber(r.agents_total) }),
                  },
                  {
                    title: t(m.bestMonth),
                    render: (_: unknown, r: Row) => {
                      const best = r.months.reduce<Month | null>((b, mo) => (mo.farms_mapped > (b?.farms_mapped ?? 0) ? mo : b), null);
                      return best ? t(m.bestMonthValue, { month: monthLabel(best.month), n: formatNumber(best.farms_mapped) }) : '--';
                    },
                  },
                ]}
              />
            </div>
          </Card>
        </>
      )}
      <ReadinessTable />
    </div>
  );
}
