// The frame of every sign-in screen: the promotional panel (docs/requirements.md §1) beside a centred card.
import type { ReactNode } from 'react';
import { BRAND_GREEN } from '../../app/theme';
import { t } from '../../i18n';
import { layoutText as m } from './layout.messages';
import './layouts.css';

/** The English text (the browser tests look for it); the panel shows it in the page's language. */
export const PROMO_TEXT = m.promo.defaultMessage;

export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="6" fill="#fff" />
      <path d="M6 22c6-1 10-5 12-12 1 6 4 10 8 12-7 1-13 1-20 0z" fill={BRAND_GREEN} />
    </svg>
  );
}

export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="auth-frame">
      <aside className="auth-promo" aria-label={t(m.aboutPlatform)}>
        <div className="auth-brand">
          <LogoMark />
          <span>{t(m.brandConsole)}</span>
        </div>
        <p className="auth-promo-text">{t(m.promo)}</p>
        <small className="auth-promo-small">{t(m.promoSmall)}</small>
      </aside>
      <main className="auth-main">
        <div className="auth-card">{children}</div>
      </main>
    </div>
  );
}
