// The frame of every sign-in screen: the promotional panel (docs/requirements.md §1) beside a centred card.
import type { ReactNode } from 'react';
import { BRAND_GREEN } from '../../app/theme';
import { t } from '../../i18n';
import { layoutText as m } from './layout.messages';

/** The English text (the browser tests look for it); the panel shows it in the page's language. */
export const PROMO_TEXT = m.promo.defaultMessage;

const styles = {
  root: { display: 'flex', flexWrap: 'wrap', minHeight: '100%' },
  promo: {
    flex: '1 1 380px',
    minHeight: 220,
    background: `linear-gradient(160deg, #0f3d1e 0%, ${BRAND_GREEN} 70%, #2f8f4e 100%)`,
    color: '#fff',
    display: 'flex',
    flexDirection: 'column',
    justifyContent: 'space-between',
    padding: '40px 48px',
    boxSizing: 'border-box',
  },
  brand: { display: 'flex', alignItems: 'center', gap: 10, fontSize: 20, fontWeight: 600 },
  promoText: { fontSize: 30, lineHeight: 1.3, fontWeight: 600, maxWidth: 480, margin: '32px 0' },
  main: { flex: '1 1 420px', display: 'grid', placeItems: 'center', padding: '40px 24px', boxSizing: 'border-box', background: '#fff' },
  card: { width: '100%', maxWidth: 400 },
} satisfies Record<string, React.CSSProperties>;

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
    <div style={styles.root}>
      <aside style={styles.promo} aria-label={t(m.aboutPlatform)}>
        <div style={styles.brand}>
          <LogoMark />
          <span>{t(m.brandConsole)}</span>
        </div>
        <p style={styles.promoText}>{t(m.promo)}</p>
        <small style={{ opacity: 0.9 }}>{t(m.promoSmall)}</small>
      </aside>
      <main style={styles.main}>
        <div style={styles.card}>{children}</div>
      </main>
    </div>
  );
}
