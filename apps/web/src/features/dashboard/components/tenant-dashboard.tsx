// /admin/dashboard (docs/requirements.md §2, §9): the license card (expiry month and year, registered date, Revoked > Expired > Active;
// 'All Licences' and 'View Invoices'), the counts, Most Mapped Area, the Total Mapped chart with 1Y / 6M / 30D / 7D and
// the change against the period before, the Overall Activity doughnut, Agent Ranking, and the agents card.
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MoreOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Dropdown from 'antd/es/dropdown';
import Empty from 'antd/es/empty';
import Modal from 'antd/es/modal';
import Row from 'antd/es/row';
import Segmented from 'antd/es/segmented';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import type { Agent, AgentRanking } from '@farmland/contracts';
import { LazyChart } from '../../../components/chart/lazy-chart';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { AgentProgressText } from '../../../components/ui/agent-progress';
import { StatCard } from '../../../components/ui/stat-card';
import { LandmapLegend } from '../../../components/map/landmap-legend';
import { LazyLandMap } from '../../../components/map/lazy-map';
import { CATEGORY_COLORS } from '../../../components/map/map-constants';
import { formatCompact, formatDate, formatHectares, formatNumber } from '../../../lib/formatters';
import { LICENSE_STATUS_COLOR, LICENSE_STATUS_LABEL, licenseStatus, type LicenseStatus } from '../../../lib/license-status';
import { notifySuccess } from '../../../lib/notifier';
import { useDeleteAgent } from '../../../lib/delete-agent';
import {
  RANKING_SIZE,
  useAgentRanking,
  useAnalyticsCounts,
  useDashboardAgents,
  useFarmsPerCountry,
  useFarmsPerState,
  useMappedCount,
  useStatesOf,
  useLicenses,
  type RangeKey,
} from '../api/get-dashboard';
import { paths } from '../../../lib/paths';
import { t } from '../../../i18n';
import { dashboardText as m } from '../dashboard.messages';
import { currentLocale } from '../../../i18n';
import { textMap } from '../../../lib/text-map';
import { Figure } from '../../../components/ui/layout';
import './dashboard.css';

const RANGES: readonly RangeKey[] = ['1Y', '6M', '30D', '7D'];
const RANGE_LABEL = textMap<RangeKey>({ '1Y': m.range1Y, '6M': m.range6M, '30D': m.range30D, '7D': m.range7D });
/** A cell of names (agents, areas): never translated. */
const dataCell = () => ({ translate: 'no' as const });

/** The invoice's row in English (tests compare with it); the modal shows it in the page's language. */
export const INVOICE = { period: m.annual.defaultMessage, item: m.sdkLicense.defaultMessage, amount: '220,000 NGN' } as const;
/** The invoice's issuer: a name and an address, the same in every language. */
const ISSUER = { name: 'Farmland Platform Ltd', address: '12 Ring Road, Ibadan, Oyo State, Nigeria' } as const;
const invoiceRow = () => ({ period: t(m.annual), item: t(m.sdkLicense), amount: currentLocale() === 'fr' ? '220 000 NGN' : INVOICE.amount });

const LICENSE_TYPE_LABEL: Record<string, string | undefined> = textMap({ Platform: m.typePlatform, SDK: m.typeSdk });
const typeLabel = (type: string) => LICENSE_TYPE_LABEL[type] ?? type;

function statusOf(l: { is_revoked: boolean; is_expired: boolean }): { label: LicenseStatus; color: string } {
  const label = licenseStatus(l);
  return { label, color: LICENSE_STATUS_COLOR[label] };
}

const monthYear = (iso: string) =>
  new Date(`${iso.slice(0, 10)}T00:00:00Z`).toLocaleDateString(currentLocale() === 'fr' ? 'fr-FR' : 'en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

function LicenseCard() {
  const licenses = useLicenses();
  const [modal, setModal] = useState<'licences' | 'invoice' | null>(null);
  const all = licenses.data?.data.results ?? [];
  const license = all[0] ?? null;
  const status = license ? statusOf(license) : null;
  return (
    <Card
      title={t(m.license)}
      data-testid="license-card"
      className="full-height"
      extra={
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'licences', label: t(m.allLicences) },
              { key: 'invoice', label: t(m.viewInvoices) },
            ],
            onClick: ({ key }) => setModal(key as 'licences' | 'invoice'),
          }}
        >
          <Button type="text" aria-label={t(m.licenseMenu)} icon={<MoreOutlined />} />
        </Dropdown>
      }
    >
      {licenses.isLoading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : licenses.isError ? (
        <Alert type="error" showIcon message={t(m.licenseFailed)} />
      ) : !license ? (
        <Empty description={t(m.noLicense)} />
      ) : (
        <div>
          <Figure size="md">{t(m.typeLicense, { type: typeLabel(license.type) })}</Figure>
          <div>{t(m.expires, { date: monthYear(license.expiry_date) })}</div>
          <div className="text-muted">{t(m.registered, { date: formatDate(license.issued_date) })}</div>
          <Tag color={status!.color} className="mt-8" data-testid="license-status">
            {LICENSE_STATUS_LABEL[status!.label]}
          </Tag>
        </div>
      )}
      <Modal open={modal === 'licences'} title={t(m.allLicences)} footer={null} onCancel={() => setModal(null)}>
        {license ? (
          <Table
            size="small"
            pagination={false}
            rowKey="id"
            dataSource={all}
            columns={[
              { title: t(m.key), render: (_: unknown, l: typeof license) => `${l.key}…` },
              { title: t(m.type), render: (_: unknown, l: typeof license) => typeLabel(l.type) },
              { title: t(m.issued), render: (_: unknown, l: typeof license) => formatDate(l.issued_date) },
              { title: t(m.expiresColumn), render: (_: unknown, l: typeof license) => formatDate(l.expiry_date) },
              { title: t(m.status), render: (_: unknown, l: typeof license) => LICENSE_STATUS_LABEL[statusOf(l).label] },
            ]}
          />
        ) : (
          <Empty description={t(m.noLicense)} />
        )}
      </Modal>
      <Modal open={modal === 'invoice'} title={t(m.invoice)} footer={null} onCancel={() => setModal(null)}>
        <p>
          <span translate="no">
            <strong>{ISSUER.name}</strong>
            <br />
            {ISSUER.address}
          </span>
        </p>
        <Table
          size="small"
          pagination={false}
          rowKey="item"
          dataSource={[invoiceRow()]}
          columns={[
            { title: t(m.period), dataIndex: 'period' },
            { title: t(m.item), dataIndex: 'item' },
            { title: t(m.amount), dataIndex: 'amount' },
          ]}
        />
        <p className="mt-12 text-muted">{t(m.invoicePlaceholder)}</p>
      </Modal>
    </Card>
  );
}

function MostMappedArea() {
  const states = useFarmsPerState();
  const list = useMemo(() => [...(states.data?.data ?? [])].sort((a, b) => b.total_farms - a.total_farms), [states.data]);
  const [picked, setPicked] = useState<string | null>(null);
  const shown = list.find((s) => s.code === picked) ?? list[0];
  return (
    <Card size="small" title={t(m.mostMappedArea)} className="full-height" data-testid="most-mapped-area">
      {states.isLoading ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : !shown ? (
        <Empty description={t(m.noFarmsYet)} image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <div className="inline gap-12">
          <span className="area-badge">{shown.code.slice(0, 2)}</span>
          <div className="grow">
            <div className="strong">{t(m.farmsCount, { count: formatNumber(shown.total_farms) })}</div>
            <Select
              size="small"
              className="full-width"
              aria-label={t(m.area)}
              value={shown.code}
              onChange={setPicked}
              options={list.map((s) => ({ value: s.code, label: `${s.name} (${formatNumber(s.total_farms)})` }))}
            />
          </div>
        </div>
      )}
    </Card>
  );
}

function TotalMapped() {
  const [range, setRange] = useState<RangeKey>('1Y');
  const series = useMappedCount(range);
  const d = series.data?.data;
  const config = useMemo(
    () => ({
      type: 'bar' as const,
      data: {
        // ISO periods: the chart wrapper names the months and days.
        labels: (d?.buckets ?? []).map((b) => b.period),
        datasets: [{ label: t(m.farmsMapped), data: (d?.buckets ?? []).map((b) => b.count), backgroundColor: '#2b9348' }],
      },
      options: { plugins: { legend: { display: false } } },
    }),
    [d],
  );
  return (
    <Card
      title={t(m.totalMapped)}
      data-testid="total-mapped"
      extra={
        <Segmented<RangeKey>
          options={RANGES.map((value) => ({ value, label: RANGE_LABEL[value] }))}
          value={range}
          onChange={setRange}
          aria-label={t(m.range)}
        />
      }
    >
      {series.isError ? (
        <Alert type="error" showIcon message={t(m.chartFailed)} action={<Button onClick={() => void series.refetch()}>{t(m.tryAgain)}</Button>} />
      ) : (
        <>
          <div className="inline align-baseline gap-12 mb-8">
            <Figure as="span" data-testid="total-mapped-count">
              {d ? formatNumber(d.total) : '…'}
            </Figure>
            {d && (
              <span data-testid="total-mapped-change" className={d.change_percent === null ? 'text-muted' : d.change_percent >= 0 ? 'text-ok' : 'text-bad'}>
                {d.change_percent === null
                  ? t(m.noFarmsBefore)
                  : t(m.changeBefore, {
                      change: `${d.change_percent >= 0 ? '+' : ''}${currentLocale() === 'fr' ? formatNumber(d.change_percent) : d.change_percent}`,
                    })}
              </span>
            )}
          </div>
          <LazyChart config={config} height={240} ariaLabel={t(m.farmsPerPeriod, { range: RANGE_LABEL[range] })} testId="total-mapped-chart" />
        </>
      )}
    </Card>
  );
}

function OverallActivity({ mapped, unmapped }: { mapped: number | undefined; unmapped: number | undefined }) {
  const config = useMemo(
    () => ({
      type: 'doughnut' as const,
      data: {
        labels: [t(m.mappedLegend), t(m.unmappedLegend)],
        datasets: [{ data: [mapped ?? 0, unmapped ?? 0], backgroundColor: [CATEGORY_COLORS.overlap, '#d9d9d9'] }],
      },
      options: { plugins: { legend: { position: 'bottom' as const } } },
    }),
    [mapped, unmapped],
  );
  return (
    <Card title={t(m.overallActivity)} className="full-height" data-testid="overall-activity">
      {mapped === undefined ? (
        <Skeleton active />
      ) : mapped + (unmapped ?? 0) === 0 ? (
        <Empty description={t(m.noFarmersYet)} />
      ) : (
        <LazyChart config={config} height={220} ariaLabel={t(m.withAndWithout)} />
      )}
      <div className="text-muted small mt-8">
        {t(m.countedInFarmers, { mapped: mapped === undefined ? '…' : formatNumber(mapped), unmapped: unmapped === undefined ? '…' : formatNumber(unmapped) })}
      </div>
    </Card>
  );
}

type Ranked = AgentRanking['results'][number];

function AgentRankingCard() {
  const ranking = useAgentRanking();
  const d = ranking.data?.data;
  return (
    <Card
      title={t(m.agentRanking)}
      className="full-height"
      data-testid="agent-ranking"
      extra={d && <span className="text-muted">{t(m.topOf, { shown: Math.min(RANKING_SIZE, d.total_agents), total: formatNumber(d.total_agents) })}</span>}
    >
      {ranking.isError ? (
        <Alert type="error" showIcon message={t(m.rankingFailed)} action={<Button onClick={() => void ranking.refetch()}>{t(m.tryAgain)}</Button>} />
      ) : (
        <Table<Ranked>
          size="small"
          loading={ranking.isLoading}
          pagination={false}
          rowKey="id"
          dataSource={d?.results ?? []}
          locale={{ emptyText: t(m.noAgentsYet) }}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: t(m.rank), dataIndex: 'rank', width: 56 },
            { title: t(m.agent), dataIndex: 'agent_name', onCell: dataCell },
            { title: t(m.operationalArea), render: (_: unknown, a: Ranked) => a.operational_area ?? '--', onCell: dataCell },
            { title: t(m.mappedFarms), render: (_: unknown, a: Ranked) => formatNumber(a.mapped_farms_count) },
            { title: t(m.area), render: (_: unknown, a: Ranked) => formatHectares(a.total_mapped_area, 4) },
            {
              title: t(m.progress),
              render: (_: unknown, a: Ranked) => <AgentProgressText progress={a.progress} mapped={a.mapped_farms_count} farmers={a.farmers_count} />,
            },
          ]}
        />
      )}
    </Card>
  );
}

function AgentsCard({ agents, count, loading }: { agents: Agent[]; count: number | undefined; loading: boolean }) {
  const navigate = useNavigate();
  const remove = useDeleteAgent();
  const [pending, setPending] = useState<Agent | null>(null);
  return (
    <Card
      title={count === undefined ? t(m.agents) : t(m.agentsCount, { count: formatNumber(count) })}
      className="full-height"
      data-testid="agents-card"
      extra={
        <Button type="primary" size="small" onClick={() => void navigate(paths.tenant.agents({ new: true }))}>
          {t(m.addNew)}
        </Button>
      }
      actions={[
        <Link key="all" to={paths.tenant.agents()}>
          {t(m.seeAll)}
        </Link>,
      ]}
    >
      {loading ? (
        <Skeleton active />
      ) : agents.length === 0 ? (
        <Empty description={t(m.noAgentsYet)} image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <ul className="bare-list">
          {agents.slice(0, 5).map((a) => (
            <li key={a.id} className="agent-row">
              <span>
                <span translate="no">{a.agent_name}</span> {a.is_suspended && <Tag>{t(m.suspended)}</Tag>}
              </span>
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    { key: 'edit', label: t(m.editAgent) },
                    { key: 'delete', label: t(m.deleteAgent), danger: true },
                  ],
                  onClick: ({ key }) => (key === 'edit' ? void navigate(paths.tenant.agents({ edit: a.id })) : setPending(a)),
                }}
              >
                <Button type="text" size="small" aria-label={t(m.actionsFor, { name: a.agent_name })} icon={<MoreOutlined />} />
              </Dropdown>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={t(m.deleteAgentTitle)}
        confirmLabel={t(m.delete)}
        danger
        loading={remove.isPending}
        onCancel={() => setPending(null)}
        onConfirm={() =>
          pending &&
          remove.mutate(pending.id, {
            onSuccess: () => notifySuccess(m.agentDeleted),
            onSettled: () => setPending(null),
          })
        }
      >
        {t(m.deleteConfirm, { name: pending?.agent_name ?? '' })}
      </ConfirmDialog>
    </Card>
  );
}

/** Global Landmap: GLOBAL MAP colours countries by mapped farms; REGIONAL MAP (Nigeria by default) sizes states. */
function GlobalLandmap() {
  const [mode, setMode] = useState<'GLOBAL MAP' | 'REGIONAL MAP'>('GLOBAL MAP');
  const global = useFarmsPerCountry(mode === 'GLOBAL MAP');
  const regional = useStatesOf('NG', 'Nigeria', mode === 'REGIONAL MAP');
  const countries = useMemo(() => (global.data?.data ?? []).map((c) => ({ name: c.name, total: c.total_farms })), [global.data]);
  const places = useMemo(
    () =>
      (regional.data ?? [])
        .filter((p) => p.latitude !== null && p.longitude !== null)
        .map((p) => ({ name: p.name, lng: p.longitude!, lat: p.latitude!, total: p.total_farms })),
    [regional.data],
  );
  const failed = mode === 'GLOBAL MAP' ? global.isError : regional.isError;
  return (
    <Card
      title={t(m.globalLandmap)}
      data-testid="global-landmap"
      extra={
        <Segmented
          options={[
            { value: 'GLOBAL MAP', label: t(m.globalMap) },
            { value: 'REGIONAL MAP', label: t(m.regionalMap) },
          ]}
          value={mode}
          onChange={(v) => setMode(v as typeof mode)}
          aria-label={t(m.landmap)}
        />
      }
    >
      {failed ? (
        <Alert type="error" showIcon message={t(m.landmapFailed)} />
      ) : (
        <LazyLandMap mode={mode === 'GLOBAL MAP' ? 'global' : 'regional'} countries={countries} places={places} height={340} testId="landmap" />
      )}
      <LandmapLegend mode={mode === 'GLOBAL MAP' ? 'global' : 'regional'} max={Math.max(0, ...places.map((p) => p.total))} />
    </Card>
  );
}

export function TenantDashboard() {
  const counts = useAnalyticsCounts();
  const agents = useDashboardAgents();
  const c = counts.data?.data;
  const list = agents.data?.data.results ?? [];
  return (
    <div className="stack-16" data-testid="tenant-dashboard">
      {counts.isError && (
        <Alert type="error" showIcon message={t(m.countsFailed)} action={<Button onClick={() => void counts.refetch()}>{t(m.tryAgain)}</Button>} />
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          <LicenseCard />
        </Col>
        <Col xs={24} lg={16}>
          <Row gutter={[16, 16]}>
            <Col xs={12} md={6}>
              <StatCard title={t(m.agents)} value={c?.agents} testId="count-agents" />
            </Col>
            <Col xs={12} md={6}>
              <StatCard title={t(m.registeredFarmers)} value={c?.farmers} testId="count-farmers" />
            </Col>
            <Col xs={12} md={6}>
              <StatCard title={t(m.operationalAreas)} value={c?.operational_areas} testId="count-areas" />
            </Col>
            <Col xs={12} md={6}>
              <StatCard title={t(m.gpsDevices)} value={c?.gps_devices} testId="count-gps" />
            </Col>
            <Col span={24}>
              <MostMappedArea />
            </Col>
          </Row>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <TotalMapped />
        </Col>
        <Col xs={24} lg={8}>
          <OverallActivity mapped={c?.mapped_farmers} unmapped={c?.unmapped_farmers} />
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <AgentRankingCard />
        </Col>
        <Col xs={24} lg={8}>
          <AgentsCard agents={list} count={agents.data?.data.count} loading={agents.isLoading} />
        </Col>
      </Row>
      <GlobalLandmap />
      <div className="text-muted small">{t(m.farmTotals, { count: c ? formatCompact(c.farms) : '…' })}</div>
    </div>
  );
}
