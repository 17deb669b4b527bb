// Renders one console route at an address, with the providers the app gives it (theme, queries, router), and exposes
// the current address so a test can assert that the screen's state round-trips through it.
import { useEffect, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import ConfigProvider from 'antd/es/config-provider';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { theme } from '../app/theme';
import { TenantGateBoundary } from '../app/tenant-gate-boundary';
import { createQueryClient } from '../lib/query-client';

export type RenderedRoute = ReturnType<typeof render> & { location: () => URL };

export function renderRoute(path: string, element: ReactNode, at: string): RenderedRoute {
  const current = { href: at };
  function Probe() {
    const loc = useLocation();
    useEffect(() => {
      current.href = `${loc.pathname}${loc.search}`;
    }, [loc]);
    return null;
  }
  const client = createQueryClient();
  const result = render(
    <ConfigProvider theme={theme}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[at]}>
          <Probe />
          <TenantGateBoundary>
            <Routes>
              <Route path={path} element={element} />
            </Routes>
          </TenantGateBoundary>
        </MemoryRouter>
      </QueryClientProvider>
    </ConfigProvider>,
  );
  return Object.assign(result, { location: () => new URL(current.href, 'http://localhost') });
}
