// i18n: pending (texts not yet in the catalogue: docs/decisions/console-languages.md)
// The full-page message for a tenant the API refuses (403 tenant_inactive, tenant_suspended, license_revoked,
// license_expired): what happened, whom to contact, and a way back to sign in.
import { useNavigate } from 'react-router';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { logout } from '../../lib/session';
import { setTenantGate, type TenantGateCode } from '../../lib/session-store';
import { paths } from '../../lib/paths';

export const GATE_TITLES: Record<TenantGateCode, string> = {
  tenant_inactive: 'Your organisation is inactive',
  tenant_suspended: 'Your organisation is suspended',
  license_revoked: "Your organisation's license has been revoked",
  license_expired: "Your organisation's license has expired",
};

export function TenantGatePage({ code, message }: { code: TenantGateCode; message: string }) {
  const navigate = useNavigate();
  const back = async () => {
    await logout();
    setTenantGate(null);
    navigate(paths.login, { replace: true });
  };
  return (
    <main style={{ minHeight: '100%', display: 'grid', placeItems: 'center', background: '#fff' }}>
      <Result
        status="403"
        title={<h1 className="page-title">{GATE_TITLES[code]}</h1>}
        subTitle={message}
        extra={
          <Button type="primary" onClick={() => void back()}>
            Back to sign in
          </Button>
        }
      />
    </main>
  );
}
