// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
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

type Row = TenantProgress['results'][number];
type Month = Row['months'][number];

const monthLabel = (m: string) => new Date(`${m}-01T00:00:00Z`).toLocaleDateString('en-GB', { month: 'short', timeZone: 'UTC' });

function ProgressChart({ months, title }: { months: readonly Month[]; title: string }) {
  const config = useMemo<ChartConfiguration>(
    () => ({
      type: 'bar',
      data: {
        labels: months.map((m) => monthLabel(m.month)),
        datasets: [
          { type: 'bar', label: 'Farms mapped', data: months.map((m) => m.farms_mapped), backgroundColor: '#2b9348', yAxisID: 'y' },
          { type: 'line', label: 'Agents active', data: months.map((m) => m.agents_active), borderColor: '#7b2cbf', backgroundColor: '#7b2cbf', yAxisID: 'y' },
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
  const chartTitle = pickedRow ? `${pickedRow.tenant_name}: farms mapped and agents active per month, ${year}` : `All tenants: farms mapped and agents active per month, ${year}`;

  const download = () => {
    if (!p) return;
    saveBlob(new Blob([progressCsv(p)], { type: 'text/csv;charset=utf-8' }), `tenant-progress-${year}.csv`);
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }} data-testid="reports">
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
          Mapping Progress
        </Typography.Title>
        <CountBadge count={p ? rows.length : undefined} label="tenants" />
        <div style={{ flex: 1 }} />
        <YearPicker value={year} onChange={(y) => setYear(y)} label="Report year" />
        <Button icon={<DownloadOutlined aria-hidden="true" />} disabled={!p || rows.length === 0} onClick={download}>
          Download CSV
        </Button>
      </div>
      {progress.isError && !p ? (
        <Alert type="error" showIcon message="The report could not be loaded" action={<Button onClick={() => void progress.refetch()}>Try again</Button>} />
      ) : (
        <>
          <Card
            size="small"
            title={pickedRow ? pickedRow.tenant_name : 'All tenants'}
            extra={
              pickedRow && (
                <Button size="small" onClick={() => setPicked(null)}>
                  Show all tenants
                </Button>
              )
            }
          >
            {p && (
              <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', marginBottom: 8 }} data-testid="reports-totals">
                <span>
                  <strong data-testid="reports-total-farms">{formatNumber(pickedRow?.farms_mapped ?? p.totals.farms_mapped)}</strong> farms mapped
                </span>
                <span>
                  <strong>{formatHectares(pickedRow?.area_sqm ?? p.totals.area_sqm)}</strong> mapped
                </span>
                <span>
                  <strong>{formatNumber(pickedRow?.agents_active ?? p.totals.agents_active)}</strong> agents active in {year}
                </span>
              </div>
            )}
            <ProgressChart months={chartMonths} title={chartTitle} />
          </Card>
          <Card size="small" title={`Per tenant, ${year}`}>
            <div style={{ overflowX: 'auto' }}>
              <Table<Row>
                size="middle"
                rowKey="tenant_id"
                loading={progress.isFetching && !p}
                dataSource={rows}
                pagination={{ pageSize: 20, hideOnSinglePage: true }}
                locale={{ emptyText: <Empty description="No tenants yet" /> }}
                onRow={(r) => ({ onClick: () => setPicked(r.tenant_id), style: { cursor: 'pointer' } })}
                rowClassName={(r) => (r.tenant_id === picked ? 'ant-table-row-selected' : '')}
                expandable={{
                  columnTitle: <span className="visually-hidden">Months</span>,
                  expandedRowRender: (r) => (
                    <Table<Month>
                      size="small"
                      rowKey="month"
                      pagination={false}
                      dataSource={r.months}
                      columns={[
                        { title: 'Month', render: (_: unknown, m: Month) => `${monthLabel(m.month)} ${year}` },
                        { title: 'Farms mapped', render: (_: unknown, m: Month) => formatNumber(m.farms_mapped) },
                        { title: 'Area mapped', render: (_: unknown, m: Month) => formatHectares(m.area_sqm) },
                        { title: 'Agents active', render: (_: unknown, m: Month) => formatNumber(m.agents_active) },
                      ]}
                    />
                  ),
                }}
                columns={[
                  { title: 'Tenant', dataIndex: 'tenant_name' },
                  { title: 'License', render: (_: unknown, r: Row) => (r.license_type ? <Tag>{r.license_type}</Tag> : '--') },
                  { title: 'Farms mapped', render: (_: unknown, r: Row) => formatNumber(r.farms_mapped), sorter: (a: Row, b: Row) => a.farms_mapped - b.farms_mapped, defaultSortOrder: 'descend' as const },
                  { title: 'Area mapped', render: (_: unknown, r: Row) => formatHectares(r.area_sqm), sorter: (a: Row, b: Row) => a.area_sqm - b.area_sqm },
                  { title: 'Agents active', render: (_: unknown, r: Row) => `${formatNumber(r.agents_active)} of ${formatNumber(r.agents_total)}` },
                  {
                    title: 'Best month',
                    render: (_: unknown, r: Row) => {
                      const best = r.months.reduce<Month | null>((b, m) => (m.farms_mapped > (b?.farms_mapped ?? 0) ? m : b), null);
                      return best ? `${monthLabel(best.month)} (${formatNumber(best.farms_mapped)})` : '--';
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
