// The two-factor dialog of spec §2: a 6-digit code from the authenticator app, with Resend code, Cancel and Submit.
import { useState } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import type { SessionResult } from '@farmland/contracts';
import { ApiError } from '../../../lib/api-client';
import { useLoginConfirm } from '../api/login-confirm';
import type { LoginChallenge } from '../api/login';

export const CODE_LENGTH = 6;

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
  const [code, setCode] = useState('');
  const [wrong, setWrong] = useState(false);
  const confirm = useLoginConfirm();
  const complete = /^\d{6}$/.test(code);

  const submit = () => {
    if (!complete) return;
    confirm.mutate(
      { mfa_token: challenge.mfa_token, user_token: challenge.user_token, code },
      {
        onSuccess: (res) => onSignedIn(res.data),
        onError: (err) => {
          setCode('');
          setWrong(true);
          if (err instanceof ApiError && err.code === 'invalid_mfa_token') onExpired();
        },
      },
    );
  };

  return (
    <Modal
      open
      title="Two-factor authentication"
      onCancel={onCancel}
      mask={{ closable: false }}
      footer={[
        <Button key="resend" type="link" onClick={onResend} loading={resending} style={{ float: 'left', paddingInline: 0 }}>
          Resend code
        </Button>,
        <Button key="cancel" onClick={onCancel}>
          Cancel
        </Button>,
        <Button key="submit" type="primary" onClick={submit} disabled={!complete} loading={confirm.isPending}>
          Submit
        </Button>,
      ]}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Typography.Paragraph id="two-factor-help">Enter the 6-digit code from your authenticator app.</Typography.Paragraph>
        <div role="group" aria-label="6-digit code" aria-describedby="two-factor-help">
          <Input.OTP
            length={CODE_LENGTH}
            value={code}
            autoFocus
            status={wrong ? 'error' : ''}
            formatter={(v) => v.replace(/\D/g, '')}
            onChange={(v) => {
              setWrong(false);
              setCode(v);
            }}
            onInput={(values) => {
              setWrong(false);
              setCode(values.join(''));
            }}
          />
        </div>
        {wrong && (
          <Typography.Text type="danger" role="alert" style={{ display: 'block', marginTop: 8 }}>
            That code was not accepted. Enter the current code from your authenticator app.
          </Typography.Text>
        )}
        <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
      </form>
    </Modal>
  );
}
