// The field app's entry (field.html, served at /field/): react-intl with the English catalogue, the service worker
// that keeps the app shell for offline starts, and the app.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { FieldApp } from './app';
import { englishMessages } from './messages';
import './field.css';

/** The field app's base path; the service worker's scope. */
export const FIELD_BASE = '/field/';

function Root() {
  const [updateReady, setUpdateReady] = useState(false);
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    navigator.serviceWorker
      .register(`${FIELD_BASE}sw.js`, { scope: FIELD_BASE })
      .then((reg) => {
        reg.addEventListener('updatefound', () => {
          const next = reg.installing;
          next?.addEventListener('statechange', () => {
            // A new shell is cached while an older one controls the page: offer a reload.
            if (next.state === 'installed' && navigator.serviceWorker.controller) setUpdateReady(true);
          });
        });
      })
      .catch(() => {
        // No service worker (private mode, http): the app still works while online.
      });
  }, []);
  // English only for now: the catalogue's own texts. A translation passes its messages here.
  return (
    <IntlProvider locale={navigator.language || 'en'} defaultLocale="en" messages={englishMessages} onError={() => undefined}>
      <FieldApp updateReady={updateReady} />
    </IntlProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
