// Sign-in: email and password, then the two-factor code (or the enrolment: the key to add to an authenticator app and
// its first code). The console's own calls (features/auth/api). Only agents may use the field app.
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import type { SessionResult } from '@farmland/contracts';
import { login, type LoginChallenge } from '../../features/auth/api/login';
import { loginConfirm } from '../../features/auth/api/login-confirm';
import { setupMfa } from '../../features/auth/api/setup-mfa';
import { confirmMfa } from '../../features/auth/api/confirm-mfa';
import { ApiError, NetworkError } from '../../lib/api-client';
import { m } from '../messages';

type Step = { kind: 'password' } | { kind: 'code'; challenge: LoginChallenge } | { kind: 'enrol'; challenge: LoginChallenge; secret: string };

export function SignIn(props: { onSignedIn: (r: SessionResult) => void; notice?: string | null }) {
  const intl = useIntl();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const fail = (err: unknown) => {
    if (err instanceof NetworkError) setError(intl.formatMessage(m.signInOffline));
    else if (err instanceof ApiError) {
      const errors = err.body?.['errors'] as Record<string, string[]> | undefined;
      const first = errors ? Object.values(errors)[0]?.[0] : undefined;
      setError(first ?? err.message);
    } else setError(err instanceof Error ? err.message : String(err));
  };

  const finish = (r: SessionResult) => {
    if (!r.user.roles.includes('agent')) {
      setError(intl.formatMessage(m.notAgent));
      setStep({ kind: 'password' });
      return;
    }
    props.onSignedIn(r);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (step.kind === 'password') {
        const res = await login({ email, password });
        if (res.data.mfa_setup_required) {
          const setup = await setupMfa({ mfa_token: res.data.mfa_token, user_token: res.data.user_token });
          setStep({ kind: 'enrol', challenge: res.data, secret: setup.data.secret });
        } else setStep({ kind: 'code', challenge: res.data });
      } else if (step.kind === 'code') {
        const res = await loginConfirm({ mfa_token: step.challenge.mfa_token, user_token: step.challenge.user_token, code, device: true });
        finish(res.data);
      } else {
        const res = await confirmMfa({ mfa_token: step.challenge.mfa_token, user_token: step.challenge.user_token, code, device: true });
        finish(res.data);
      }
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="field-screen">
      <h1>{intl.formatMessage(m.signInTitle)}</h1>
      {props.notice && (
        <p className="field-alert field-alert-warn" role="alert">
          {props.notice}
        </p>
      )}
      <p>{intl.formatMessage(m.signInIntro)}</p>
      <form onSubmit={(e) => void submit(e)} className="field-form">
        {step.kind === 'password' ? (
          <>
            <label>
              {intl.formatMessage(m.email)}
              <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
            </label>
            <label>
              {intl.formatMessage(m.password)}
              <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
            </label>
          </>
        ) : (
          <>
            {step.kind === 'enrol' && (
              <>
                <p>{intl.formatMessage(m.enrolIntro)}</p>
                <p className="field-mono" data-testid="enrol-secret">
                  {intl.formatMessage(m.enrolKey, { secret: step.secret })}
                </p>
              </>
            )}
            <label>
              {intl.formatMessage(m.codeLabel)}
              <input
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="\d{6}"
                maxLength={6}
                required
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </label>
          </>
        )}
        {error && (
          <p className="field-alert field-alert-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="field-btn field-btn-primary" disabled={busy}>
          {busy ? intl.formatMessage(m.busy) : intl.formatMessage(step.kind === 'password' ? m.signInButton : m.confirmCode)}
        </button>
      </form>
    </main>
  );
}
