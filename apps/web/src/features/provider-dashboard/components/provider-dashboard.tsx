// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// /super-admin/dashboard (docs/requirements.md §2, §7): the counts over every tenant (tenants and their statuses, licenses, agents,
// farms, operational areas, mapped and unmapped farms), the farms mapped per month of a chosen year with the tenants
// registered that year, and the tenants ranked by farms mapped in the year.
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Empty from 'antd/es/empty';
import Row from 'antd/es/row';
import Table from 'antd/es/table';
import type { ChartConfiguration } from 'chart.js';
import type { MappingRanking } from '@farmland/contracts';
import { LazyChart } from '../../../components/chart/lazy-chart';
import { StatCard } from '../../../components/ui/stat-card';
import { currentYear, YearPicker } from '../../../components/ui/year-picker';
import { formatHectares, formatNumber } from '../../../lib/formatters';
import { useCount, type CountName } from '../api/get-count';
import { useLicensesCount } from '../api/get-licenses-count';
import { useMappingData } from '../api/get-mapping-data';
import { useMappingRanking } from '../api/get-mapping-ranking';
import { useTenantsDashboardCount } from '../api/get-tenants-dashboard-count';
import { useTenantsStatusCount } from '../api/get-tenants-status-count';
import { paths } from '../../../lib/paths';

type RankRow = MappingRanking['results'][number];

function Count({ name, title, note }: { name: CountName; title: string; note?: string }) {
  const q = useCount(name);
  return <StatCard title={title} value={q.isError ? undefined : q.data?.data.count} testId={`count-${name}`} {...(note ? { note } : {})} />;
}

function Counts() {
  const status = useTenantsStatusCount();
  const licenses = useLicensesCount();
  const s = status.data?.data;
  const l = licenses.data?.data;
  const failed = status.isError || licenses.isError;
  return (
    <>
      {failed && (
        <Alert
          type="error"
          showIcon
          message="Some counts could not be loaded"
          action={
            <Button
              onClick={() => {
                void status.refetch();
                void licenses.refetch();
              }}
            >
              Try again
            </Button>
          }
        />
      )}
      <Row gutter={[16, 16]} data-testid="provider-counts">
        <Col xs={12} md={6} xl={3}>
          <Count name="tenants-count" title="Tenants" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title="Active tenants" value={s?.active} testId="count-tenants-active" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title="Suspended tenants" value={s?.suspended} testId="count-tenants-suspended" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title="Inactive tenants" value={s?.inactive} testId="count-tenants-inactive" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title="Licenses" value={l?.total} testId="count-licenses" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title="Active licenses" value={l?.active} testId="count-licenses-active" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title="Expired licenses" value={l?.expired} testId="count-licenses-expired" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title="Revoked licenses" value={l?.revoked} testId="count-licenses-revoked" />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Count name="agents-count" title="Agents" />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Count name="farms-count" title="Farms" />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Count name="operational-areas-count" title="Operational Areas" />
        </Col>
        <Col xs={12} md={12} xl={6}>
          <Count name="mapped-farms-count" title="Mapped farms" note="Farmers with at least one mapped farm" />
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Count name="unmapped-farms-count" title="Unmapped farms" note="Farmers with no mapped farm yet" />
        </Col>
      </Row>
    </>
  );
}

function MappingChart({ year }: { year: number }) {
  const data = useMappingData(year);
  const tenants = useTenantsDashboardCount(year);
  const d = data.data?.data;
  const t = tenants.data?.data;
  const config = useMemo<ChartConfiguration>(
    () => ({
      type: 'bar',
      data: {
        labels: (d?.months ?? []).map((m) => m.label),
        datasets: [
          { type: 'bar' as const, label: 'Farms mapped', data: (d?.months ?? []).map((m) => m.count), backgroundColor: '#2b9348' },
          { type: 'line' as const, label: 'Tenants registered', data: (t?.months ?? []).map((m) => m.count), borderColor: '#7b2cbf', backgroundColor: '#7b2cbf' },
        ],
      },
      options: { plugins: { legend: { position: 'bottom' as const } } },
    }),
    [d, t],
  );
  return (
    <Card title="Mapping Data" data-testid="mapping-data">
      {data.isError ? (
        <Alert type="error" showIcon message="The mapping data could not be loaded" action={<Button onClick={() => void data.refetch()}>Try again</Button>} />
      ) : (
        <>
          <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', marginBottom: 8 }}>
            <span>
              <span style={{ fontSize: 24, fontWeight: 600 }} data-testid="mapping-data-total">
                {d ? formatNumber(d.total) : '…'}
              </span>{' '}
              farms mapped in {year}
            </span>
            <span className="text-muted">{d ? formatHectares(d.total_area_sqm) : '…'} mapped</span>
            <span className="text-muted" data-testid="tenants-registered">
              {t ? `${formatNumber(t.new_tenants)} tenants registered in ${year}, ${formatNumber(t.total_tenants)} at its end` : ''}
            </span>
          </div>
          <LazyChart config={config} height={280} ariaLabel={`Farms mapped per month in ${year}`} testId="mapping-data-chart" />
        </>
      )}
    </Card>
  );
}

function Ranking({ year }: { year: number }) {
  const ranking = useMappingRanking(year);
  return (
    <Card title="Tenant Ranking" data-testid="tenant-ranking">
      {ranking.isError ? (
        <Alert type="error" showIcon message="The ranking could not be loaded" action={<Button onClick={() => void ranking.refetch()}>Try again</Button>} />
      ) : (
        <Table<RankRow>
          size="small"
          rowKey="tenant_id"
          loading={ranking.isFetching && !ranking.data}
          dataSource={ranking.data?.data.results ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty description={`No farms mapped in ${year}`} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
          columns={[
            { title: '#', dataIndex: 'rank', width: 48 },
            { title: 'Tenant', render: (_: unknown, r: RankRow) => <Link to={paths.provider.tenant(r.tenant_id)}>{r.tenant_name}</Link> },
            { title: 'Farms mapped', render: (_: unknown, r: RankRow) => formatNumber(r.mapped_farms) },
            { title: 'Area', render: (_: unknown, r: RankRow) => formatHectares(r.area_sqm) },
          ]}
        />
      )}
    </Card>
  );
}

export function ProviderDashboard() {
  const [year, setYear] = useState(currentYear);
  return (
    <div className="stack-16" data-testid="provider-dashboard">
      <Counts />
      <div style={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 8 }}>
        <span id="dashboard-year">Year</span>
        <YearPicker value={year} onChange={setYear} label="Dashboard year" />
      </div>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={15}>
          <MappingChart year={year} />
        </Col>
        <Col xs={24} xl={9}>
          <Ranking year={year} />
        </Col>
      </Row>
    </div>
  );
}
