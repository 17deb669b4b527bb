// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The provider's Reports: each tenant's EUDR readiness (issue 29): plots, screened against every layer in use, by
// verdict, with a geolocation warning, and the share ready for a due-diligence statement (low risk, no warning).
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Table from 'antd/es/table';
import type { TenantReadiness } from '@farmland/contracts';
import { formatNumber } from '../../../lib/formatters';
import { useTenantReadiness } from '../api/get-tenant-readiness';

type Row = TenantReadiness['results'][number];
const n = (k: keyof Row, title: string) => ({ key: k, title, dataIndex: k, align: 'right' as const, sorter: (a: Row, b: Row) => Number(a[k]) - Number(b[k]), render: (v: number) => formatNumber(v) });

export function ReadinessTable() {
  const readiness = useTenantReadiness();
  const rows = readiness.data?.data.results ?? [];
  return (
    <Card size="small" title="EUDR readiness per tenant" data-testid="readiness-table">
      {readiness.isError && !readiness.data ? (
        <Alert type="error" showIcon message="The readiness could not be loaded" action={<Button onClick={() => void readiness.refetch()}>Try again</Button>} />
      ) : (
        <div style={{ overflowX: 'auto' }}>
          <Table<Row>
            size="middle"
            rowKey="tenant_id"
            loading={readiness.isFetching && !readiness.data}
            dataSource={rows}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            locale={{ emptyText: <Empty description="No tenants yet" /> }}
            columns={[
              { key: 'tenant_name', title: 'Tenant', dataIndex: 'tenant_name' },
              n('plots', 'Plots'),
              n('screened', 'Screened'),
              n('low', 'Low'),
              n('review', 'Review'),
              n('high', 'High'),
              n('with_warnings', 'Warnings'),
              n('layers', 'Layers'),
              { key: 'ready_share', title: 'Ready', align: 'right', sorter: (a, b) => a.ready_share - b.ready_share, render: (_v, r) => (r.plots ? `${formatNumber(r.ready)} (${Math.round(r.ready_share * 1000) / 10}%)` : '–') },
            ]}
          />
        </div>
      )}
    </Card>
  );
}
