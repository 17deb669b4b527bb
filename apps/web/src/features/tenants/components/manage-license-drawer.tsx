// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// Manage License (docs/requirements.md §2): a side drawer with the license's status and expiry, the company and the license details,
// and Revoke License / Re-issue License (SDK only) / Rotate key (the license list's flow: the new key shown once), each
// behind its confirmation.
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { KeyHint } from '../../../components/ui/copy-key';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { formatCurrency, formatDate } from '../../../lib/formatters';
import { useRotateKeyFlow } from '../../../components/ui/rotate-key-flow';
import { LICENSE_STATUS_COLOR, licenseStatus } from '../../../lib/license-status';
import type { Tenant } from '../api/tenant-types';
import type { TenantAction } from './tenant-confirm';

type Props = { tenant: Tenant | null; onClose: () => void; onAction: (action: TenantAction, tenant: Tenant) => void };

export function ManageLicenseDrawer({ tenant, onClose, onAction }: Props) {
  const l = tenant?.license ?? null;
  const status = l ? licenseStatus(l) : null;
  // After a rotation the drawer closes (as after Revoke or Re-issue) and the new key is shown once.
  const rotation = useRotateKeyFlow(onClose);
  return (
    <>
      <SideDrawer
        open={tenant !== null}
        title="Manage License"
        onClose={onClose}
        width={480}
        footer={
          tenant &&
          l && (
            <Space>
              <Button danger disabled={l.is_revoked} onClick={() => onAction('revoke', tenant)}>
                Revoke License
              </Button>
              {l.type === 'SDK' && <Button onClick={() => onAction('reissue', tenant)}>Re-issue License</Button>}
              {!l.is_revoked && <Button onClick={() => rotation.ask({ id: l.id, type: l.type, key: l.key, tenant_name: tenant.name })}>Rotate key</Button>}
            </Space>
          )
        }
      >
        {tenant && (
          <div data-testid="manage-license">
            {l && status ? (
              <div className="mb-16">
                <Tag color={LICENSE_STATUS_COLOR[status]} data-testid="manage-license-status">
                  {status}
                </Tag>
                <Typography.Text>Expires {formatDate(l.expiry_date)}</Typography.Text>
              </div>
            ) : (
              <Typography.Paragraph type="secondary">This tenant has no license.</Typography.Paragraph>
            )}
            <Descriptions
              title="Company"
              column={1}
              size="small"
              bordered
              items={[
                { key: 'name', label: 'Name', children: tenant.name },
                { key: 'email', label: 'Email', children: tenant.email ?? '--' },
                { key: 'phone', label: 'Phone number', children: tenant.phone_number ?? '--' },
                { key: 'address', label: 'Address', children: tenant.address ?? '--' },
                { key: 'city', label: 'City', children: tenant.city ?? '--' },
                { key: 'country', label: 'Country', children: tenant.country ?? '--' },
              ]}
            />
            {l && (
              <Descriptions
                title="License"
                style={{ marginTop: 16 }}
                column={1}
                size="small"
                bordered
                items={[
                  { key: 'type', label: 'Type', children: l.type },
                  { key: 'key', label: 'Key hint', children: <KeyHint value={l.key} /> },
                  { key: 'issued', label: 'Issued', children: formatDate(l.issued_date) },
                  { key: 'expiry', label: 'Expires', children: <span data-testid="manage-license-expiry">{formatDate(l.expiry_date)}</span> },
                  { key: 'price', label: 'Price', children: formatCurrency(l.price, l.currency) },
                ]}
              />
            )}
          </div>
        )}
      </SideDrawer>
      {rotation.element}
    </>
  );
}
