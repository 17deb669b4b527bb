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
import { t } from '../../../i18n';
import { reportsText as m } from '../reports.messages';

type Row = TenantReadiness['results'][number];
const n = (k: keyof Row, title: string) => ({
  key: k,
  title,
  dataIndex: k,
  align: 'right' as const,
  sorter: (a: Row, b: Row) => Number(a[k]) - Number(b[k]),
  render: (v: number) => formatNumber(v),
});

export function ReadinessTable() {
  const readiness = useTenantReadiness();
  const rows = readiness.data?.data.results ?? [];
  return (
    <Card size="small" title={t(m.readinessTitle)} data-testid="readiness-table">
      {readiness.isError && !readiness.data ? (
        <Alert type="error" showIcon message={t(m.readinessLoadFailed)} action={<Button onClick={() => void readiness.refetch()}>{t(m.tryAgain)}</Button>} />
      ) : (
        <div className="scroll-x-plain">
          <Table<Row>
            size="middle"
            rowKey="tenant_id"
            loading={readiness.isFetching && !readiness.data}
            dataSource={rows}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            locale={{ emptyText: <Empty description={t(m.noTenants)} /> }}
            columns={[
              { key: 'tenant_name', title: t(m.tenant), dataIndex: 'tenant_name' },
              n('plots', t(m.plots)),
              n('screened', t(m.screened)),
              n('low', t(m.low)),
              n('review', t(m.review)),
              n('high', t(m.high)),
              n('with_warnings', t(m.warnings)),
              n('layers', t(m.layers)),
              {
                key: 'ready_share',
                title: t(m.ready),
                align: 'right',
                sorter: (a, b) => a.ready_share - b.ready_share,
                render: (_v, r) => (r.plots ? t(m.readyValue, { n: formatNumber(r.ready), share: formatNumber(Math.round(r.ready_share * 1000) / 10) }) : '–'),
              },
            ]}
          />
        </div>
      )}
    </Card>
  );
}
