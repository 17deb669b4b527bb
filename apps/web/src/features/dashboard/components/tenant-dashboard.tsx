// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
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
import { LICENSE_STATUS_COLOR, licenseStatus, type LicenseStatus } from '../../../lib/license-status';
import { notifySuccess } from '../../../lib/notifier';
import { useDeleteAgent } from '../../../lib/delete-agent';
import { RANKING_SIZE, useAgentRanking, useAnalyticsCounts, useDashboardAgents, useFarmsPerCountry, useFarmsPerState, useMappedCount, useStatesOf, useLicenses, type RangeKey } from '../api/get-dashboard';
import { paths } from '../../../lib/paths';

export const INVOICE = { period: 'Annual', item: 'SDK License', amount: '220,000 NGN' } as const;

function statusOf(l: { is_revoked: boolean; is_expired: boolean }): { label: LicenseStatus; color: string } {
  const label = licenseStatus(l);
  return { label, color: LICENSE_STATUS_COLOR[label] };
}

const monthYear = (iso: string) => new Date(`${iso.slice(0, 10)}T00:00:00Z`).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

function LicenseCard() {
  const licenses = useLicenses();
  const [modal, setModal] = useState<'licences' | 'invoice' | null>(null);
  const all = licenses.data?.data.results ?? [];
  const license = all[0] ?? null;
  const status = license ? statusOf(license) : null;
  return (
    <Card
      title="License"
      data-testid="license-card"
      style={{ height: '100%' }}
      extra={
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'licences', label: 'All Licences' },
              { key: 'invoice', label: 'View Invoices' },
            ],
            onClick: ({ key }) => setModal(key as 'licences' | 'invoice'),
          }}
        >
          <Button type="text" aria-label="License menu" icon={<MoreOutlined />} />
        </Dropdown>
      }
    >
      {licenses.isLoading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : licenses.isError ? (
        <Alert type="error" showIcon message="The license could not be loaded" />
      ) : !license ? (
        <Empty description="No license" />
      ) : (
        <div>
          <div style={{ fontSize: 18, fontWeight: 600 }}>{license.type} License</div>
          <div>Expires {monthYear(license.expiry_date)}</div>
          <div className="text-muted">Registered {formatDate(license.issued_date)}</div>
          <Tag color={status!.color} className="mt-8" data-testid="license-status">
            {status!.label}
          </Tag>
        </div>
      )}
      <Modal open={modal === 'licences'} title="All Licences" footer={null} onCancel={() => setModal(null)}>
        {license ? (
          <Table
            size="small"
            pagination={false}
            rowKey="id"
            dataSource={all}
            columns={[
              { title: 'Key', render: (_: unknown, l: typeof license) => `${l.key}…` },
              { title: 'Type', dataIndex: 'type' },
              { title: 'Issued', render: (_: unknown, l: typeof license) => formatDate(l.issued_date) },
              { title: 'Expires', render: (_: unknown, l: typeof license) => formatDate(l.expiry_date) },
              { title: 'Status', render: (_: unknown, l: typeof license) => statusOf(l).label },
            ]}
          />
        ) : (
          <Empty description="No license" />
        )}
      </Modal>
      <Modal open={modal === 'invoice'} title="Invoice" footer={null} onCancel={() => setModal(null)}>
        <p>
          <strong>Farmland Platform Ltd</strong>
          <br />
          12 Ring Road, Ibadan, Oyo State, Nigeria
        </p>
        <Table
          size="small"
          pagination={false}
          rowKey="item"
          dataSource={[INVOICE]}
          columns={[
            { title: 'Period', dataIndex: 'period' },
            { title: 'Item', dataIndex: 'item' },
            { title: 'Amount', dataIndex: 'amount' },
          ]}
        />
        <p style={{ marginTop: 12, color: 'rgba(0,0,0,0.62)' }}>This invoice is a placeholder: billing is not connected yet.</p>
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
    <Card size="small" title="Most Mapped Area" className="full-height" data-testid="most-mapped-area">
      {states.isLoading ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : !shown ? (
        <Empty description="No farms mapped yet" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
          <span style={{ display: 'inline-grid', placeItems: 'center', width: 40, height: 40, borderRadius: 20, background: '#e7f3ec', color: '#1f6f3f', fontWeight: 700 }}>{shown.code.slice(0, 2)}</span>
          <div className="grow">
            <div className="strong">{formatNumber(shown.total_farms)} farms</div>
            <Select
              size="small"
              style={{ width: '100%' }}
              aria-label="Area"
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
        datasets: [{ label: 'Farms mapped', data: (d?.buckets ?? []).map((b) => b.count), backgroundColor: '#2b9348' }],
      },
      options: { plugins: { legend: { display: false } } },
    }),
    [d],
  );
  return (
    <Card
      title="Total Mapped"
      data-testid="total-mapped"
      extra={<Segmented<RangeKey> options={['1Y', '6M', '30D', '7D']} value={range} onChange={setRange} aria-label="Range" />}
    >
      {series.isError ? (
        <Alert type="error" showIcon message="The chart could not be loaded" action={<Button onClick={() => void series.refetch()}>Try again</Button>} />
      ) : (
        <>
          <div style={{ display: 'flex', gap: 12, alignItems: 'baseline', marginBottom: 8 }}>
            <span style={{ fontSize: 24, fontWeight: 600 }} data-testid="total-mapped-count">
              {d ? formatNumber(d.total) : '…'}
            </span>
            {d && (
              <span data-testid="total-mapped-change" style={{ color: d.change_percent === null ? 'rgba(0,0,0,0.62)' : d.change_percent >= 0 ? '#2b9348' : '#d62828' }}>
                {d.change_percent === null ? 'no farms in the period before' : `${d.change_percent >= 0 ? '+' : ''}${d.change_percent}% on the period before`}
              </span>
            )}
          </div>
          <LazyChart config={config} height={240} ariaLabel={`Farms mapped per period, ${range}`} testId="total-mapped-chart" />
        </>
      )}
    </Card>
  );
}

function OverallActivity({ mapped, unmapped }: { mapped: number | undefined; unmapped: number | undefined }) {
  const config = useMemo(
    () => ({
      type: 'doughnut' as const,
      data: { labels: ['Mapped farms: farmers with a mapped farm', 'Unmapped farms: farmers with none'], datasets: [{ data: [mapped ?? 0, unmapped ?? 0], backgroundColor: [CATEGORY_COLORS.overlap, '#d9d9d9'] }] },
      options: { plugins: { legend: { position: 'bottom' as const } } },
    }),
    [mapped, unmapped],
  );
  return (
    <Card title="Overall Activity" className="full-height" data-testid="overall-activity">
      {mapped === undefined ? <Skeleton active /> : mapped + (unmapped ?? 0) === 0 ? <Empty description="No farmers yet" /> : <LazyChart config={config} height={220} ariaLabel="Farmers with and without a mapped farm" />}
      <div style={{ color: 'rgba(0,0,0,0.62)', fontSize: 12, marginTop: 8 }}>
        Counted in farmers: {mapped === undefined ? '…' : formatNumber(mapped)} with at least one mapped farm, {unmapped === undefined ? '…' : formatNumber(unmapped)} with none.
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
      title="Agent Ranking"
      style={{ height: '100%' }}
      data-testid="agent-ranking"
      extra={d && <span className="text-muted">{`Top ${Math.min(RANKING_SIZE, d.total_agents)} of ${formatNumber(d.total_agents)} agents`}</span>}
    >
      {ranking.isError ? (
        <Alert type="error" showIcon message="The ranking could not be loaded" action={<Button onClick={() => void ranking.refetch()}>Try again</Button>} />
      ) : (
        <Table<Ranked>
          size="small"
          loading={ranking.isLoading}
          pagination={false}
          rowKey="id"
          dataSource={d?.results ?? []}
          locale={{ emptyText: 'No agents yet' }}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: 'Rank', dataIndex: 'rank', width: 56 },
            { title: 'Agent', dataIndex: 'agent_name' },
            { title: 'Operational area', render: (_: unknown, a: Ranked) => a.operational_area ?? '--' },
            { title: 'Mapped farms', render: (_: unknown, a: Ranked) => formatNumber(a.mapped_farms_count) },
            { title: 'Area', render: (_: unknown, a: Ranked) => formatHectares(a.total_mapped_area, 4) },
            { title: 'Progress', render: (_: unknown, a: Ranked) => <AgentProgressText progress={a.progress} mapped={a.mapped_farms_count} farmers={a.farmers_count} /> },
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
      title={`Agents${count === undefined ? '' : ` (${formatNumber(count)})`}`}
      style={{ height: '100%' }}
      data-testid="agents-card"
      extra={
        <Button type="primary" size="small" onClick={() => navigate(paths.tenant.agents({ new: true }))}>
          Add New
        </Button>
      }
      actions={[
        <Link key="all" to={paths.tenant.agents()}>
          See all
        </Link>,
      ]}
    >
      {loading ? (
        <Skeleton active />
      ) : agents.length === 0 ? (
        <Empty description="No agents yet" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {agents.slice(0, 5).map((a) => (
            <li key={a.id} style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', padding: '6px 0' }}>
              <span>
                {a.agent_name} {a.is_suspended && <Tag>Suspended</Tag>}
              </span>
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    { key: 'edit', label: 'Edit Agent' },
                    { key: 'delete', label: 'Delete Agent', danger: true },
                  ],
                  onClick: ({ key }) => (key === 'edit' ? navigate(paths.tenant.agents({ edit: a.id })) : setPending(a)),
                }}
              >
                <Button type="text" size="small" aria-label={`Actions for ${a.agent_name}`} icon={<MoreOutlined />} />
              </Dropdown>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={pending !== null}
        title="Delete agent"
        confirmLabel="Delete"
        danger
        loading={remove.isPending}
        onCancel={() => setPending(null)}
        onConfirm={() =>
          pending &&
          remove.mutate(pending.id, {
            onSuccess: () => notifySuccess('Agent deleted successfully'),
            onSettled: () => setPending(null),
          })
        }
      >
        Are you sure you want to delete {pending?.agent_name}? This action cannot be undone.
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
    () => (regional.data ?? []).filter((p) => p.latitude !== null && p.longitude !== null).map((p) => ({ name: p.name, lng: p.longitude!, lat: p.latitude!, total: p.total_farms })),
    [regional.data],
  );
  const failed = mode === 'GLOBAL MAP' ? global.isError : regional.isError;
  return (
    <Card
      title="Global Landmap"
      data-testid="global-landmap"
      extra={<Segmented options={['GLOBAL MAP', 'REGIONAL MAP']} value={mode} onChange={(v) => setMode(v as typeof mode)} aria-label="Landmap" />}
    >
      {failed ? (
        <Alert type="error" showIcon message="The landmap could not be loaded" />
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
      {counts.isError && <Alert type="error" showIcon message="The dashboard counts could not be loaded" action={<Button onClick={() => void counts.refetch()}>Try again</Button>} />}
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          <LicenseCard />
        </Col>
        <Col xs={24} lg={16}>
          <Row gutter={[16, 16]}>
            <Col xs={12} md={6}>
              <StatCard title="Agents" value={c?.agents} testId="count-agents" />
            </Col>
            <Col xs={12} md={6}>
              <StatCard title="Registered Farmers" value={c?.farmers} testId="count-farmers" />
            </Col>
            <Col xs={12} md={6}>
              <StatCard title="Operational Areas" value={c?.operational_areas} testId="count-areas" />
            </Col>
            <Col xs={12} md={6}>
              <StatCard title="No of GPS Devices" value={c?.gps_devices} testId="count-gps" />
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
      <div className="text-muted small">Farm totals: {c ? formatCompact(c.farms) : '…'} farms mapped in all.</div>
    </div>
  );
}
