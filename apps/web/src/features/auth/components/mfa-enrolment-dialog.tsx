// Two-factor enrolment for a user who has none yet: a QR code of the otpauth URI, the secret as text for manual
// entry, then the first 6-digit code to confirm. Loaded only when needed (it carries the QR renderer).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import QRCode from 'antd/es/qr-code';
import Skeleton from 'antd/es/skeleton';
import Typography from 'antd/es/typography';
import type { SessionResult } from '@farmland/contracts';
import { ApiError } from '../../../lib/api-client';
import { useConfirmMfa } from '../api/confirm-mfa';
import type { LoginChallenge } from '../api/login';
import { setupMfa } from '../api/setup-mfa';
import { CODE_LENGTH } from './two-factor-dialog';

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
    queryKey: ['auth', 'mfa-setup', challenge.user_token],
    queryFn: () => setupMfa({ mfa_token: challenge.mfa_token, user_token: challenge.user_token }),
    staleTime: Infinity,
    retry: false,
  });
  const [code, setCode] = useState('');
  const [wrong, setWrong] = useState(false);
  const confirm = useConfirmMfa();
  const complete = /^\d{6}$/.test(code);
  const secret = setup.data?.data.secret;

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
      title="Set up two-factor authentication"
      onCancel={onCancel}
      mask={{ closable: false }}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          Cancel
        </Button>,
        <Button key="submit" type="primary" onClick={submit} disabled={!complete || !secret} loading={confirm.isPending}>
          Submit
        </Button>,
      ]}
    >
      <Typography.Paragraph>
        Your account needs two-factor authentication. Scan this QR code with an authenticator app (for example Google Authenticator, Microsoft
        Authenticator or Authy), then enter the 6-digit code it shows.
      </Typography.Paragraph>
      {setup.isPending && <Skeleton.Node active style={{ width: 180, height: 180 }} />}
      {setup.isError && (
        <Typography.Paragraph type="danger" role="alert">
          Two-factor setup could not start.{' '}
          <Button type="link" onClick={onExpired} style={{ padding: 0 }}>
            Sign in again
          </Button>
        </Typography.Paragraph>
      )}
      {setup.data && (
        <div style={{ display: 'flex', gap: 16, alignItems: 'center', flexWrap: 'wrap', marginBottom: 16 }}>
          <div role="img" aria-label="QR code for your authenticator app">
            <QRCode value={setup.data.data.otpauth_url} size={180} type="canvas" bordered />
          </div>
          <div style={{ flex: '1 1 160px', minWidth: 0 }}>
            <Typography.Text strong>Can't scan it?</Typography.Text>
            <Typography.Paragraph style={{ marginBottom: 4 }}>Enter this key in the app:</Typography.Paragraph>
            <Typography.Text code copyable={{ text: setup.data.data.secret }} data-testid="mfa-secret" style={{ whiteSpace: 'normal', lineHeight: 1.9 }}>
              {groupSecret(setup.data.data.secret)}
            </Typography.Text>
            <Typography.Paragraph type="secondary" style={{ marginTop: 4, marginBottom: 0 }}>
              Account: {setup.data.data.account}
            </Typography.Paragraph>
          </div>
        </div>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Typography.Paragraph id="enrol-code-help" style={{ marginBottom: 8 }}>
          Enter the 6-digit code from your authenticator app.
        </Typography.Paragraph>
        <div role="group" aria-label="6-digit code" aria-describedby="enrol-code-help">
          <Input.OTP
            length={CODE_LENGTH}
            value={code}
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
