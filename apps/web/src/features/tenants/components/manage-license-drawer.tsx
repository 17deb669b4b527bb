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
import { t } from '../../../i18n';
import { tenantsText as m } from '../tenants.messages';
import { licenseStatusLabel, licenseTypeLabel } from './tenant-labels';

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
        title={t(m.manageLicense)}
        onClose={onClose}
        width={480}
        footer={
          tenant &&
          l && (
            <Space>
              <Button danger disabled={l.is_revoked} onClick={() => onAction('revoke', tenant)}>
                {t(m.revokeLicense)}
              </Button>
              {l.type === 'SDK' && <Button onClick={() => onAction('reissue', tenant)}>{t(m.reissueLicense)}</Button>}
              {!l.is_revoked && (
                <Button onClick={() => rotation.ask({ id: l.id, type: l.type, key: l.key, tenant_name: tenant.name })}>{t(m.rotateKey)}</Button>
              )}
            </Space>
          )
        }
      >
        {tenant && (
          <div data-testid="manage-license">
            {l && status ? (
              <div className="mb-16">
                <Tag color={LICENSE_STATUS_COLOR[status]} data-testid="manage-license-status">
                  {licenseStatusLabel(status)}
                </Tag>
                <Typography.Text>{t(m.expiresOn, { date: formatDate(l.expiry_date) })}</Typography.Text>
              </div>
            ) : (
              <Typography.Paragraph type="secondary">{t(m.noLicense)}</Typography.Paragraph>
            )}
            <Descriptions
              title={t(m.company)}
              column={1}
              size="small"
              bordered
              items={[
                { key: 'name', label: t(m.name), children: tenant.name },
                { key: 'email', label: t(m.email), children: tenant.email ?? '--' },
                { key: 'phone', label: t(m.phoneNumber), children: tenant.phone_number ?? '--' },
                { key: 'address', label: t(m.address), children: tenant.address ?? '--' },
                { key: 'city', label: t(m.city), children: tenant.city ?? '--' },
                { key: 'country', label: t(m.country), children: tenant.country ?? '--' },
              ]}
            />
            {l && (
              <Descriptions
                title={t(m.license)}
                className="mt-16"
                column={1}
                size="small"
                bordered
                items={[
                  { key: 'type', label: t(m.type), children: licenseTypeLabel(l.type) },
                  { key: 'key', label: t(m.keyHint), children: <KeyHint value={l.key} /> },
                  { key: 'issued', label: t(m.issued), children: formatDate(l.issued_date) },
                  { key: 'expiry', label: t(m.expires), children: <span data-testid="manage-license-expiry">{formatDate(l.expiry_date)}</span> },
                  { key: 'price', label: t(m.price), children: formatCurrency(l.price, l.currency) },
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
