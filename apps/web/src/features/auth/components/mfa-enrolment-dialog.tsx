// Two-factor enrolment for a user who has none yet: a QR code of the otpauth URI, the secret as text for manual
// entry, then the first 6-digit code to confirm. Loaded only when needed (it carries the QR renderer).
import { useQuery } from '@tanstack/react-query';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import QRCode from 'antd/es/qr-code';
import Skeleton from 'antd/es/skeleton';
import Typography from 'antd/es/typography';
import type { SessionResult } from '@farmland/contracts';
import { useConfirmMfa } from '../api/confirm-mfa';
import type { LoginChallenge } from '../api/login';
import { setupMfa } from '../api/setup-mfa';
import { CodeStepForm, useCodeStep } from './code-step';
import { queryKeys } from '../../../lib/query-keys';
import { t } from '../../../i18n';
import { authText as m } from '../auth.messages';
import { Inline } from '../../../components/ui/layout';
import './auth.css';

type Props = {
  challenge: LoginChallenge;
  onSignedIn: (result: SessionResult) => void;
  onCancel: () => void;
  onExpired: () => void;
};

/** "ABCDEFGH…" → "ABCD EFGH …": easier to type into an authenticator by hand. */
const groupSecret = (s: string) => s.replace(/(.{4})/g, '$1 ').trim();

export function MfaEnrolmentDialog({ challenge, onSignedIn, onCancel, onExpired }: Props) {
  const setup = useQuery({
    queryKey: queryKeys.auth.mfaSetup(challenge.user_token),
    queryFn: () => setupMfa({ mfa_token: challenge.mfa_token, user_token: challenge.user_token }),
    staleTime: Infinity,
    retry: false,
  });
  const step = useCodeStep(useConfirmMfa(), challenge, onSignedIn, onExpired);
  const secret = setup.data?.data.secret;

  return (
    <Modal
      open
      title={t(m.setUpTwoFactor)}
      onCancel={onCancel}
      mask={{ closable: false }}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {t(m.cancel)}
        </Button>,
        <Button key="submit" type="primary" onClick={step.submit} disabled={!step.complete || !secret} loading={step.pending}>
          {t(m.submit)}
        </Button>,
      ]}
    >
      <Typography.Paragraph>{t(m.enrolIntro)}</Typography.Paragraph>
      {setup.isPending && <Skeleton.Node active classNames={{ content: 'qr-placeholder' }} />}
      {setup.isError && (
        <Typography.Paragraph type="danger" role="alert">
          {t(m.setupFailed)}{' '}
          <Button type="link" onClick={onExpired} className="flush">
            {t(m.signInAgain)}
          </Button>
        </Typography.Paragraph>
      )}
      {setup.data && (
        <Inline gap={16} wrap className="mb-16">
          <div role="img" aria-label={t(m.qrLabel)}>
            <QRCode value={setup.data.data.otpauth_url} size={180} type="canvas" bordered />
          </div>
          <div className="mfa-key">
            <Typography.Text strong>{t(m.cantScan)}</Typography.Text>
            <Typography.Paragraph className="mb-4">{t(m.enterKey)}</Typography.Paragraph>
            <Typography.Text code copyable={{ text: setup.data.data.secret }} data-testid="mfa-secret" className="mfa-secret">
              {groupSecret(setup.data.data.secret)}
            </Typography.Text>
            <Typography.Paragraph type="secondary" className="mt-4 mb-0">
              {t(m.account, { account: setup.data.data.account })}
            </Typography.Paragraph>
          </div>
        </Inline>
      )}
      <CodeStepForm step={step} helpId="enrol-code-help" />
    </Modal>
  );
}
