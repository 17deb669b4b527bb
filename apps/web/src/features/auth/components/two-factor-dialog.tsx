// The two-factor dialog of docs/requirements.md §2: a 6-digit code from the authenticator app, with Resend code, Cancel and Submit.
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import type { SessionResult } from '@farmland/contracts';
import { useLoginConfirm } from '../api/login-confirm';
import type { LoginChallenge } from '../api/login';
import { CodeStepForm, useCodeStep } from './code-step';
import { t } from '../../../i18n';
import { authText as m } from '../auth.messages';

type Props = {
  challenge: LoginChallenge;
  onSignedIn: (result: SessionResult) => void;
  onCancel: () => void;
  onResend: () => void;
  resending: boolean;
  /** The challenge is no longer usable (expired, or too many wrong codes): back to the password step. */
  onExpired: () => void;
};

export function TwoFactorDialog({ challenge, onSignedIn, onCancel, onResend, resending, onExpired }: Props) {
  const step = useCodeStep(useLoginConfirm(), challenge, onSignedIn, onExpired);

  return (
    <Modal
      open
      title={t(m.twoFactorTitle)}
      onCancel={onCancel}
      mask={{ closable: false }}
      footer={[
        <Button key="resend" type="link" onClick={onResend} loading={resending} className="float-start flush-inline">
          {t(m.resendCode)}
        </Button>,
        <Button key="cancel" onClick={onCancel}>
          {t(m.cancel)}
        </Button>,
        <Button key="submit" type="primary" onClick={step.submit} disabled={!step.complete} loading={step.pending}>
          {t(m.submit)}
        </Button>,
      ]}
    >
      <CodeStepForm step={step} helpId="two-factor-help" autoFocus />
    </Modal>
  );
}
