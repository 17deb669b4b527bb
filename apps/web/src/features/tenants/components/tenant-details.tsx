// /super-admin/tenant/{uuid} (docs/requirements.md §2): the organisation, its admin and its license (with Manage License's actions), then
// the captures table (the tenant's farms with their mapping records) with Export table and a coordinates drawer that
// lists every point with its longitude and latitude. The empty list reads the spec's text. 'Agents' opens the tenant's
// agents drawer (?agents=1).
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useUrlParams } from '../../../lib/use-url-params';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Descriptions from 'antd/es/descriptions';
import Dropdown from 'antd/es/dropdown';
import Empty from 'antd/es/empty';
import Result from 'antd/es/result';
import Row from 'antd/es/row';
import Skeleton from 'antd/es/skeleton';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { ArrowLeftOutlined, CopyOutlined, DownOutlined } from '@ant-design/icons';
import type { Farm } from '@farmland/contracts';
import { KeyHint } from '../../../components/ui/copy-key';
import { CountBadge } from '../../../components/ui/count-badge';
import { ExportButton } from '../../../components/ui/export-button';
import { PAGE_SIZES } from '../../../components/ui/list-page';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { ApiError } from '../../../lib/api-client';
import { formatCurrency, formatDate, formatDuration, formatNumber, formatTime } from '../../../lib/formatters';
import { LICENSE_STATUS_COLOR, licenseStatus } from '../../../lib/license-status';
import { notifyError, notifySuccess } from '../../../lib/notifier';
import { useTenant } from '../api/get-tenant';
import { CAPTURES_PAGE_SIZE, useTenantCaptures } from '../api/get-tenant-captures';
import { ManageLicenseDrawer } from './manage-license-drawer';
import { TenantAgentsDrawer } from './tenant-agents-drawer';
import { actionLabel, availableActions, TenantConfirm, type PendingAction } from './tenant-confirm';
import { TenantWizard } from './tenant-wizard';
import { paths } from '../../../lib/paths';
import { t } from '../../../i18n';
import { tenantsText as m } from '../tenants.messages';
import { licenseStatusLabel, licenseTypeLabel, tenantStatusLabel } from './tenant-labels';

const CAPTURE_EXPORT_COLUMNS = ['name', 'farmer', 'mapped_by', 'time_taken_to_map', 'gps_device_id', 'location', 'region', 'coordinates', 'updated_at'];

function CoordinatesDrawer({ farm, onClose }: { farm: Farm | null; onClose: () => void }) {
  const points = farm?.mapping_record?.coordinate.length ? farm.mapping_record.coordinate : (farm?.coordinates ?? []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(points));
      notifySuccess(t(m.coordinatesCopied));
    } catch (err) {
      notifyError(err instanceof Error ? err : new Error(t(m.copyFailed)));
    }
  };
  return (
    <SideDrawer
      open={farm !== null}
      title={farm ? t(m.coordinatesOf, { name: farm.name }) : t(m.coordinates)}
      onClose={onClose}
      footer={
        <Button icon={<CopyOutlined aria-hidden="true" />} onClick={() => void copy()}>
          {t(m.copyCoordinates)}
        </Button>
      }
    >
      <Table
        size="small"
        pagination={false}
        rowKey={(p) => String(p.i)}
        dataSource={points.map(([lng, lat], i) => ({ i: i + 1, lng, lat }))}
        data-testid="coordinates-table"
        columns={[
          { title: t(m.point), dataIndex: 'i', width: 64 },
          { title: t(m.longitude), dataIndex: 'lng' },
          { title: t(m.latitude), dataIndex: 'lat' },
        ]}
      />
    </SideDrawer>
  );
}

function Captures({ tenantId }: { tenantId: string }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(CAPTURES_PAGE_SIZE);
  const [open, setOpen] = useState<Farm | null>(null);
  const captures = useTenantCaptures({ tenant_id: tenantId, page, page_size: pageSize });
  const rows = captures.data?.data.results ?? [];
  return (
    <Card
      title={
        <span className="inline-flex gap-8">
          {t(m.captures)} <CountBadge count={captures.data?.data.count} label={t(m.capturesLabel)} />
        </span>
      }
      extra={<ExportButton name="mappings" columns={CAPTURE_EXPORT_COLUMNS} filters={{ tenant_id: tenantId }} />}
      data-testid="tenant-captures"
    >
      {captures.isError && !captures.data ? (
        <Result status="warning" title={t(m.capturesLoadFailed)} extra={<Button onClick={() => void captures.refetch()}>{t(m.tryAgain)}</Button>} />
      ) : (
        <div className="scroll-x">
          <Table<Farm>
            size="middle"
            rowKey="id"
            loading={captures.isFetching && !captures.data}
            dataSource={rows}
            locale={{
              emptyText: (
                <Empty
                  description={
                    <>
                      <strong>{t(m.capturesEmptyTitle)}</strong>
                      <br />
                      {t(m.capturesEmptyText)}
                    </>
                  }
                />
              ),
            }}
            columns={[
              { title: t(m.farm), dataIndex: 'name' },
              { title: t(m.farmer), dataIndex: 'farmer' },
              { title: t(m.mappedBy), render: (_: unknown, r: Farm) => r.mapping_record?.mapped_by ?? r.mapped_by ?? '--' },
              { title: t(m.timeTaken), render: (_: unknown, r: Farm) => formatDuration(r.mapping_record?.time_taken_to_map) },
              { title: t(m.gpsDevice), render: (_: unknown, r: Farm) => r.mapping_record?.gps_device_id ?? '--' },
              { title: t(m.location), render: (_: unknown, r: Farm) => r.mapping_record?.location ?? r.location ?? '--' },
              { title: t(m.region), render: (_: unknown, r: Farm) => r.mapping_record?.region ?? '--' },
              {
                title: t(m.updated),
                render: (_: unknown, r: Farm) => (
                  <span className="nowrap">
                    {formatDate(r.updated_at)} {formatTime(r.updated_at)}
                  </span>
                ),
              },
              {
                title: <span className="visually-hidden">{t(m.actions)}</span>,
                render: (_: unknown, r: Farm) => (
                  <Button size="small" onClick={() => setOpen(r)}>
                    {t(m.viewCoordinates)}
                  </Button>
                ),
              },
            ]}
            pagination={{
              current: page,
              pageSize,
              total: captures.data?.data.count ?? 0,
              pageSizeOptions: PAGE_SIZES.map(String),
              showSizeChanger: true,
              onChange: (p, s) => {
                setPage(s !== pageSize ? 1 : p);
                setPageSize(s);
              },
            }}
          />
        </div>
      )}
      <CoordinatesDrawer farm={open} onClose={() => setOpen(null)} />
    </Card>
  );
}

export function TenantDetails() {
  const { uuid } = useParams();
  const [params, setParams] = useUrlParams();
  const id = uuid ?? params.get('id') ?? '';
  const agentsOpen = params.get('agents') === '1';
  const setAgentsOpen = (on: boolean) => {
    setParams(
      (cur) => {
        const next = new URLSearchParams(cur);
        if (on) next.set('agents', '1');
        else {
          // Closing the drawer forgets its list's search and page (agents_search, agents_page...).
          next.delete('agents');
          for (const key of [...next.keys()]) if (key.startsWith('agents_')) next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  };
  const tenant = useTenant(id);
  const [pending, setPending] = useState<PendingAction>(null);
  const [licenseOpen, setLicenseOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const tn = tenant.data?.data;
  const status = tn?.license ? licenseStatus(tn.license) : null;
  const actions = useMemo(() => (tn ? availableActions(tn) : []), [tn]);

  const back = (
    <Link to={paths.provider.tenants}>
      <ArrowLeftOutlined aria-hidden="true" /> {t(m.allTenants)}
    </Link>
  );
  if (tenant.isLoading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (tenant.isError || !tn) {
    const missing = tenant.error instanceof ApiError && tenant.error.status === 404;
    return (
      <Result
        status={missing ? '404' : 'warning'}
        title={missing ? t(m.notFound) : t(m.loadFailed)}
        extra={missing ? back : <Button onClick={() => void tenant.refetch()}>{t(m.tryAgain)}</Button>}
      />
    );
  }

  return (
    <div className="stack-16" data-testid="tenant-details">
      {back}
      <div className="inline-12">
        <Typography.Title level={1} className="page-title">
          {tn.name}
        </Typography.Title>
        <Tag color={tn.status === 'Active' ? 'success' : tn.status === 'Suspended' ? 'warning' : 'default'} data-testid="tenant-status">
          {tenantStatusLabel(tn.status)}
        </Tag>
        <div className="grow" />
        <Button onClick={() => setAgentsOpen(true)}>{t(m.agentsCount, { count: formatNumber(tn.number_of_agents) })}</Button>
        <Button onClick={() => setEditing(true)}>{t(m.edit)}</Button>
        <Button onClick={() => setLicenseOpen(true)}>{t(m.manageLicense)}</Button>
        <Dropdown
          trigger={['click']}
          menu={{
            items: actions.map((a) => ({ key: a, label: actionLabel(a) })),
            onClick: ({ key }) => setPending({ action: key as NonNullable<PendingAction>['action'], tenant: tn }),
          }}
        >
          <Button>
            {t(m.actions)} <DownOutlined aria-hidden="true" />
          </Button>
        </Dropdown>
      </div>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          <Card title={t(m.organization)} size="small" className="full-height">
            <Descriptions
              column={1}
              size="small"
              items={[
                { key: 'email', label: t(m.email), children: tn.email ?? '--' },
                { key: 'phone', label: t(m.phone), children: tn.phone_number ?? '--' },
                { key: 'address', label: t(m.address), children: tn.address ?? '--' },
                { key: 'city', label: t(m.city), children: tn.city ?? '--' },
                { key: 'country', label: t(m.country), children: tn.country ?? '--' },
                { key: 'agents', label: t(m.agents), children: formatNumber(tn.number_of_agents) },
                { key: 'registered', label: t(m.registered), children: formatDate(tn.registration_date) },
                ...(tn.license?.type === 'SDK' ? [{ key: 'sync', label: t(m.syncFarmDetails), children: tn.enable_farm_sync ? t(m.yes) : t(m.no) }] : []),
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title={t(m.admin)} size="small" className="full-height">
            {tn.admin ? (
              <Descriptions
                column={1}
                size="small"
                items={[
                  { key: 'name', label: t(m.name), children: `${tn.admin.first_name} ${tn.admin.last_name}` },
                  { key: 'email', label: t(m.email), children: tn.admin.email },
                  { key: 'phone', label: t(m.phone), children: tn.admin.phone_number ?? '--' },
                ]}
              />
            ) : (
              <Empty description={t(m.noAdmin)} image={Empty.PRESENTED_IMAGE_SIMPLE} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title={t(m.license)} size="small" className="full-height">
            {tn.license && status ? (
              <Descriptions
                column={1}
                size="small"
                items={[
                  { key: 'type', label: t(m.type), children: licenseTypeLabel(tn.license.type) },
                  { key: 'status', label: t(m.status), children: <Tag color={LICENSE_STATUS_COLOR[status]}>{licenseStatusLabel(status)}</Tag> },
                  { key: 'key', label: t(m.keyHint), children: <KeyHint value={tn.license.key} /> },
                  { key: 'issued', label: t(m.issued), children: formatDate(tn.license.issued_date) },
                  { key: 'expiry', label: t(m.expires), children: <span data-testid="tenant-license-expiry">{formatDate(tn.license.expiry_date)}</span> },
                  { key: 'price', label: t(m.price), children: formatCurrency(tn.license.price, tn.license.currency) },
                ]}
              />
            ) : (
              <Alert type="warning" showIcon message={t(m.noLicense)} />
            )}
          </Card>
        </Col>
      </Row>
      <Captures tenantId={tn.id} />
      <TenantAgentsDrawer tenantId={tn.id} tenantName={tn.name} open={agentsOpen} onClose={() => setAgentsOpen(false)} />
      <TenantWizard open={editing} tenantId={tn.id} onClose={() => setEditing(false)} />
      <ManageLicenseDrawer
        tenant={licenseOpen ? tn : null}
        onClose={() => setLicenseOpen(false)}
        onAction={(action, tenant) => {
          setLicenseOpen(false);
          setPending({ action, tenant });
        }}
      />
      <TenantConfirm pending={pending} onDone={() => setPending(null)} />
    </div>
  );
}
