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
import { currentIntl, currentLocale, t } from '../../../i18n';
import { providerDashboardText as m } from '../provider-dashboard.messages';
import { Figure } from '../../../components/ui/layout';

type RankRow = MappingRanking['results'][number];

/** A month's short name: the API's (English) label, or in French the month (YYYY-MM) named in French. */
const monthLabel = (mo: { month: string; label: string }) =>
  currentLocale() === 'fr' && /^\d{4}-\d{2}$/.test(mo.month)
    ? new Date(`${mo.month}-01T00:00:00Z`).toLocaleDateString('fr-FR', { month: 'short', timeZone: 'UTC' })
    : mo.label;

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
          message={t(m.countsFailed)}
          action={
            <Button
              onClick={() => {
                void status.refetch();
                void licenses.refetch();
              }}
            >
              {t(m.tryAgain)}
            </Button>
          }
        />
      )}
      <Row gutter={[16, 16]} data-testid="provider-counts">
        <Col xs={12} md={6} xl={3}>
          <Count name="tenants-count" title={t(m.tenants)} />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title={t(m.activeTenants)} value={s?.active} testId="count-tenants-active" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title={t(m.suspendedTenants)} value={s?.suspended} testId="count-tenants-suspended" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title={t(m.inactiveTenants)} value={s?.inactive} testId="count-tenants-inactive" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title={t(m.licenses)} value={l?.total} testId="count-licenses" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title={t(m.activeLicenses)} value={l?.active} testId="count-licenses-active" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title={t(m.expiredLicenses)} value={l?.expired} testId="count-licenses-expired" />
        </Col>
        <Col xs={12} md={6} xl={3}>
          <StatCard title={t(m.revokedLicenses)} value={l?.revoked} testId="count-licenses-revoked" />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Count name="agents-count" title={t(m.agents)} />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Count name="farms-count" title={t(m.farms)} />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Count name="operational-areas-count" title={t(m.operationalAreas)} />
        </Col>
        <Col xs={12} md={12} xl={6}>
          <Count name="mapped-farms-count" title={t(m.mappedFarms)} note={t(m.mappedFarmsNote)} />
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Count name="unmapped-farms-count" title={t(m.unmappedFarms)} note={t(m.unmappedFarmsNote)} />
        </Col>
      </Row>
    </>
  );
}

function MappingChart({ year }: { year: number }) {
  const data = useMappingData(year);
  const tenants = useTenantsDashboardCount(year);
  const d = data.data?.data;
  const tc = tenants.data?.data;
  const config = useMemo<ChartConfiguration>(
    () => ({
      type: 'bar',
      data: {
        labels: (d?.months ?? []).map(monthLabel),
        datasets: [
          { type: 'bar' as const, label: t(m.farmsMapped), data: (d?.months ?? []).map((mo) => mo.count), backgroundColor: '#2b9348' },
          {
            type: 'line' as const,
            label: t(m.tenantsRegistered),
            data: (tc?.months ?? []).map((mo) => mo.count),
            borderColor: '#7b2cbf',
            backgroundColor: '#7b2cbf',
          },
        ],
      },
      options: { plugins: { legend: { position: 'bottom' as const } } },
    }),
    [d, tc],
  );
  return (
    <Card title={t(m.mappingData)} data-testid="mapping-data">
      {data.isError ? (
        <Alert type="error" showIcon message={t(m.mappingFailed)} action={<Button onClick={() => void data.refetch()}>{t(m.tryAgain)}</Button>} />
      ) : (
        <>
          <div className="inline align-stretch gap-24 wrap mb-8">
            <span>
              {currentIntl().formatMessage(m.farmsMappedIn, {
                count: d?.total ?? 0,
                n: d ? formatNumber(d.total) : '…',
                year: String(year),
                big: (chunks) => (
                  <Figure as="span" data-testid="mapping-data-total">
                    {chunks}
                  </Figure>
                ),
              })}
            </span>
            <span className="text-muted">{t(m.areaMapped, { area: d ? formatHectares(d.total_area_sqm) : '…' })}</span>
            <span className="text-muted" data-testid="tenants-registered">
              {tc
                ? t(m.tenantsRegisteredIn, {
                    count: tc.new_tenants,
                    n: formatNumber(tc.new_tenants),
                    year: String(year),
                    total: formatNumber(tc.total_tenants),
                  })
                : ''}
            </span>
          </div>
          <LazyChart config={config} height={280} ariaLabel={t(m.chartLabel, { year: String(year) })} testId="mapping-data-chart" />
        </>
      )}
    </Card>
  );
}

function Ranking({ year }: { year: number }) {
  const ranking = useMappingRanking(year);
  return (
    <Card title={t(m.ranking)} data-testid="tenant-ranking">
      {ranking.isError ? (
        <Alert type="error" showIcon message={t(m.rankingFailed)} action={<Button onClick={() => void ranking.refetch()}>{t(m.tryAgain)}</Button>} />
      ) : (
        <Table<RankRow>
          size="small"
          rowKey="tenant_id"
          loading={ranking.isFetching && !ranking.data}
          dataSource={ranking.data?.data.results ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty description={t(m.noFarmsIn, { year: String(year) })} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
          columns={[
            { title: '#', dataIndex: 'rank', width: 48 },
            { title: t(m.tenant), render: (_: unknown, r: RankRow) => <Link to={paths.provider.tenant(r.tenant_id)}>{r.tenant_name}</Link> },
            { title: t(m.farmsMapped), render: (_: unknown, r: RankRow) => formatNumber(r.mapped_farms) },
            { title: t(m.area), render: (_: unknown, r: RankRow) => formatHectares(r.area_sqm) },
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
      <div className="inline justify-end gap-8">
        <span id="dashboard-year">{t(m.year)}</span>
        <YearPicker value={year} onChange={setYear} label={t(m.dashboardYear)} />
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
