// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
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
import { ACTION_LABELS, availableActions, TenantConfirm, type PendingAction } from './tenant-confirm';
import { TenantWizard } from './tenant-wizard';
import { paths } from '../../../lib/paths';

export const CAPTURES_EMPTY_TITLE = 'This list is empty';
export const CAPTURES_EMPTY_TEXT = 'Coordinates taken by your agents will be displayed here';
export const COORDINATES_COPIED = 'Coordinates copied';
const CAPTURE_EXPORT_COLUMNS = ['name', 'farmer', 'mapped_by', 'time_taken_to_map', 'gps_device_id', 'location', 'region', 'coordinates', 'updated_at'];

function CoordinatesDrawer({ farm, onClose }: { farm: Farm | null; onClose: () => void }) {
  const points = farm?.mapping_record?.coordinate.length ? farm.mapping_record.coordinate : (farm?.coordinates ?? []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(points));
      notifySuccess(COORDINATES_COPIED);
    } catch (err) {
      notifyError(err instanceof Error ? err : new Error('The coordinates could not be copied'));
    }
  };
  return (
    <SideDrawer
      open={farm !== null}
      title={farm ? `Coordinates of ${farm.name}` : 'Coordinates'}
      onClose={onClose}
      footer={
        <Button icon={<CopyOutlined aria-hidden="true" />} onClick={() => void copy()}>
          Copy coordinates
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
          { title: 'Point', dataIndex: 'i', width: 64 },
          { title: 'Longitude', dataIndex: 'lng' },
          { title: 'Latitude', dataIndex: 'lat' },
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
        <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
          Captures <CountBadge count={captures.data?.data.count} label="captures" />
        </span>
      }
      extra={<ExportButton name="mappings" columns={CAPTURE_EXPORT_COLUMNS} filters={{ tenant_id: tenantId }} />}
      data-testid="tenant-captures"
    >
      {captures.isError && !captures.data ? (
        <Result status="warning" title="The captures could not be loaded." extra={<Button onClick={() => void captures.refetch()}>Try again</Button>} />
      ) : (
        <div className="scroll-x">
          <Table<Farm>
            size="middle"
            rowKey="id"
            loading={captures.isFetching && !captures.data}
            dataSource={rows}
            locale={{ emptyText: <Empty description={<><strong>{CAPTURES_EMPTY_TITLE}</strong><br />{CAPTURES_EMPTY_TEXT}</>} /> }}
            columns={[
              { title: 'Farm', dataIndex: 'name' },
              { title: 'Farmer', dataIndex: 'farmer' },
              { title: 'Mapped by', render: (_: unknown, r: Farm) => r.mapping_record?.mapped_by ?? r.mapped_by ?? '--' },
              { title: 'Time taken', render: (_: unknown, r: Farm) => formatDuration(r.mapping_record?.time_taken_to_map) },
              { title: 'GPS device', render: (_: unknown, r: Farm) => r.mapping_record?.gps_device_id ?? '--' },
              { title: 'Location', render: (_: unknown, r: Farm) => r.mapping_record?.location ?? r.location ?? '--' },
              { title: 'Region', render: (_: unknown, r: Farm) => r.mapping_record?.region ?? '--' },
              {
                title: 'Updated',
                render: (_: unknown, r: Farm) => (
                  <span className="nowrap">
                    {formatDate(r.updated_at)} {formatTime(r.updated_at)}
                  </span>
                ),
              },
              {
                title: <span className="visually-hidden">Actions</span>,
                render: (_: unknown, r: Farm) => (
                  <Button size="small" onClick={() => setOpen(r)}>
                    View coordinates
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
  const t = tenant.data?.data;
  const status = t?.license ? licenseStatus(t.license) : null;
  const actions = useMemo(() => (t ? availableActions(t) : []), [t]);

  const back = (
    <Link to={paths.provider.tenants}>
      <ArrowLeftOutlined aria-hidden="true" /> All Tenants
    </Link>
  );
  if (tenant.isLoading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (tenant.isError || !t) {
    const missing = tenant.error instanceof ApiError && tenant.error.status === 404;
    return (
      <Result
        status={missing ? '404' : 'warning'}
        title={missing ? 'This tenant does not exist.' : 'The tenant could not be loaded.'}
        extra={missing ? back : <Button onClick={() => void tenant.refetch()}>Try again</Button>}
      />
    );
  }

  return (
    <div className="stack-16" data-testid="tenant-details">
      {back}
      <div className="inline-12">
        <Typography.Title level={1} className="page-title">
          {t.name}
        </Typography.Title>
        <Tag color={t.status === 'Active' ? 'success' : t.status === 'Suspended' ? 'warning' : 'default'} data-testid="tenant-status">
          {t.status}
        </Tag>
        <div className="grow" />
        <Button onClick={() => setAgentsOpen(true)}>Agents ({formatNumber(t.number_of_agents)})</Button>
        <Button onClick={() => setEditing(true)}>Edit</Button>
        <Button onClick={() => setLicenseOpen(true)}>Manage License</Button>
        <Dropdown
          trigger={['click']}
          menu={{ items: actions.map((a) => ({ key: a, label: ACTION_LABELS[a] })), onClick: ({ key }) => setPending({ action: key as NonNullable<PendingAction>['action'], tenant: t }) }}
        >
          <Button>
            Actions <DownOutlined aria-hidden="true" />
          </Button>
        </Dropdown>
      </div>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          <Card title="Organization" size="small" className="full-height">
            <Descriptions
              column={1}
              size="small"
              items={[
                { key: 'email', label: 'Email', children: t.email ?? '--' },
                { key: 'phone', label: 'Phone', children: t.phone_number ?? '--' },
                { key: 'address', label: 'Address', children: t.address ?? '--' },
                { key: 'city', label: 'City', children: t.city ?? '--' },
                { key: 'country', label: 'Country', children: t.country ?? '--' },
                { key: 'agents', label: 'Agents', children: formatNumber(t.number_of_agents) },
                { key: 'registered', label: 'Registered', children: formatDate(t.registration_date) },
                ...(t.license?.type === 'SDK' ? [{ key: 'sync', label: 'Sync farm details', children: t.enable_farm_sync ? 'Yes' : 'No' }] : []),
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title="Admin" size="small" className="full-height">
            {t.admin ? (
              <Descriptions
                column={1}
                size="small"
                items={[
                  { key: 'name', label: 'Name', children: `${t.admin.first_name} ${t.admin.last_name}` },
                  { key: 'email', label: 'Email', children: t.admin.email },
                  { key: 'phone', label: 'Phone', children: t.admin.phone_number ?? '--' },
                ]}
              />
            ) : (
              <Empty description="No admin" image={Empty.PRESENTED_IMAGE_SIMPLE} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title="License" size="small" className="full-height">
            {t.license && status ? (
              <Descriptions
                column={1}
                size="small"
                items={[
                  { key: 'type', label: 'Type', children: t.license.type },
                  { key: 'status', label: 'Status', children: <Tag color={LICENSE_STATUS_COLOR[status]}>{status}</Tag> },
                  { key: 'key', label: 'Key hint', children: <KeyHint value={t.license.key} /> },
                  { key: 'issued', label: 'Issued', children: formatDate(t.license.issued_date) },
                  { key: 'expiry', label: 'Expires', children: <span data-testid="tenant-license-expiry">{formatDate(t.license.expiry_date)}</span> },
                  { key: 'price', label: 'Price', children: formatCurrency(t.license.price, t.license.currency) },
                ]}
              />
            ) : (
              <Alert type="warning" showIcon message="This tenant has no license." />
            )}
          </Card>
        </Col>
      </Row>
      <Captures tenantId={t.id} />
      <TenantAgentsDrawer tenantId={t.id} tenantName={t.name} open={agentsOpen} onClose={() => setAgentsOpen(false)} />
      <TenantWizard open={editing} tenantId={t.id} onClose={() => setEditing(false)} />
      <ManageLicenseDrawer
        tenant={licenseOpen ? t : null}
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
