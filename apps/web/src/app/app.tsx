// The providers of the console: Ant Design theme, TanStack Query, the router, the notifier host and the session restore.
import { useEffect, useState } from 'react';
import ConfigProvider from 'antd/es/config-provider';
import enGB from 'antd/es/locale/en_GB';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, useNavigate } from 'react-router';
import { NotifierHost } from '../components/ui/notifier-host';
import { setSessionEndedHandler } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { restoreSession } from '../lib/session';
import { AppRoutes } from './router';
import { theme } from './theme';
import { paths } from '../lib/paths';

/** Lets non-React code (the API client) navigate inside the single-page app. */
function NavigationBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    setSessionEndedHandler(() => navigate(paths.home, { replace: true }));
  }, [navigate]);
  return null;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  useEffect(() => {
    void restoreSession();
  }, []);
  return (
    <ConfigProvider theme={theme} locale={enGB}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <NavigationBridge />
          <NotifierHost />
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </ConfigProvider>
  );
}
