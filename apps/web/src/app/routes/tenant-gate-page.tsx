// The full-page message for a tenant the API refuses (403 tenant_inactive, tenant_suspended, license_revoked,
// license_expired): what happened, whom to contact, and a way back to sign in.
import { useNavigate } from 'react-router';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { logout } from '../../lib/session';
import { setTenantGate, type TenantGateCode } from '../../lib/session-store';
import { paths } from '../../lib/paths';
import { t } from '../../i18n';
import { appText as m } from '../app.messages';
import { textMap } from '../../lib/text-map';

/** Read in the page's language when used (lib/text-map.ts). */
export const GATE_TITLES: Readonly<Record<TenantGateCode, string>> = textMap({
  tenant_inactive: m.gateInactive,
  tenant_suspended: m.gateSuspended,
  license_revoked: m.gateRevoked,
  license_expired: m.gateExpired,
});

export function TenantGatePage({ code, message }: { code: TenantGateCode; message: string }) {
  const navigate = useNavigate();
  const back = async () => {
    await logout();
    setTenantGate(null);
    void navigate(paths.login, { replace: true });
  };
  return (
    <main className="blank-page">
      <Result
        status="403"
        title={<h1 className="page-title">{GATE_TITLES[code]}</h1>}
        subTitle={message}
        extra={
          <Button type="primary" onClick={() => void back()}>
            {t(m.backToSignIn)}
          </Button>
        }
      />
    </main>
  );
}
