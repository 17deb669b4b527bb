// The providers of the console: the texts (react-intl, in the page's language), Ant Design theme, TanStack Query, the router, the notifier host and the session restore.
import { useEffect, useState } from 'react';
import ConfigProvider from 'antd/es/config-provider';
import { RawIntlProvider } from 'react-intl';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, useNavigate } from 'react-router';
import { NotifierHost } from '../components/ui/notifier-host';
import { setSessionEndedHandler } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { restoreSession } from '../lib/session';
import { AppRoutes } from './router';
import { theme } from './theme';
import { paths } from '../lib/paths';
import { antdLocale, currentIntl } from '../i18n';

/** Lets non-React code (the API client) navigate inside the single-page app. */
function NavigationBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    setSessionEndedHandler(() => void navigate(paths.home, { replace: true }));
  }, [navigate]);
  return null;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  useEffect(() => {
    void restoreSession();
  }, []);
  return (
    <RawIntlProvider value={currentIntl()}>
      <ConfigProvider theme={theme} locale={antdLocale()}>
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            <NavigationBridge />
            <NotifierHost />
            <AppRoutes />
          </BrowserRouter>
        </QueryClientProvider>
      </ConfigProvider>
    </RawIntlProvider>
  );
}
