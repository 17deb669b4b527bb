// The "enter the 6-digit code" step shared by the two-factor dialog and enrolment: the code, whether the last one was
// refused, its submission (a refused challenge sends the user back to the password step), and the form that shows it.
// A refused code is reported once, beside the code and in the server's words (issue 33: it was also a toast in other
// words); every other failure goes to the shared notifier.
import { useState } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import Input from 'antd/es/input';
import Typography from 'antd/es/typography';
import type { SessionResult } from '@farmland/contracts';
import { ApiError } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notifier';
import type { Envelope } from '../../../lib/contract-types';
import type { LoginChallenge } from '../api/login';
import { t } from '../../../i18n';
import { authText as m } from '../auth.messages';

export const CODE_LENGTH = 6;

type CodeBody = { mfa_token: string; user_token: string; code: string };

export function useCodeStep(
  confirm: UseMutationResult<Envelope<SessionResult>, Error, CodeBody>,
  challenge: LoginChallenge,
  onSignedIn: (result: SessionResult) => void,
  onExpired: () => void,
) {
  const [code, setCode] = useState('');
  /** Why the last code was refused (the server's message), or null. */
  const [wrong, setWrong] = useState<string | null>(null);
  const complete = /^\d{6}$/.test(code);

  const submit = () => {
    if (!complete) return;
    confirm.mutate(
      { mfa_token: challenge.mfa_token, user_token: challenge.user_token, code },
      {
        onSuccess: (res) => onSignedIn(res.data),
        onError: (err) => {
          setCode('');
          const refused = err instanceof ApiError && (err.code === 'invalid_mfa_code' || err.code === 'mfa_code_reused');
          setWrong(refused ? err.message : null);
          if (!refused) notifyError(err);
          if (err instanceof ApiError && err.code === 'invalid_mfa_token') onExpired();
        },
      },
    );
  };
  const change = (next: string) => {
    setWrong(null);
    setCode(next);
  };
  return { code, wrong, complete, submit, change, pending: confirm.isPending };
}

export type CodeStep = ReturnType<typeof useCodeStep>;

export function CodeStepForm({ step, helpId, autoFocus = false }: { step: CodeStep; helpId: string; autoFocus?: boolean }) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        step.submit();
      }}
    >
      <Typography.Paragraph id={helpId} className="mb-8">
        {t(m.enterCode)}
      </Typography.Paragraph>
      <div role="group" aria-label={t(m.codeGroup)} aria-describedby={helpId}>
        <Input.OTP
          length={CODE_LENGTH}
          value={step.code}
          autoFocus={autoFocus}
          status={step.wrong !== null ? 'error' : ''}
          formatter={(v) => v.replace(/\D/g, '')}
          onChange={step.change}
          onInput={(values) => step.change(values.join(''))}
        />
      </div>
      {step.wrong !== null && (
        <Typography.Text type="danger" role="alert" data-testid="code-refused" className="block mt-8">
          {t(m.codeRefused, { reason: step.wrong })}
        </Typography.Text>
      )}
      <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
    </form>
  );
}
