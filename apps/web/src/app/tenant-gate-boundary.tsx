// When the API refuses the tenant (inactive, suspended, license revoked or expired), the whole console gives way
// to one clear full-page message; signing out is the only action left.
import { lazy, Suspense, type ReactNode } from 'react';
import { useSession } from '../lib/session-store';
import { PageLoader } from '../components/ui/page-loader';

const TenantGatePage = lazy(async () => ({ default: (await import('./routes/tenant-gate-page')).TenantGatePage }));

export function TenantGateBoundary({ children }: { children: ReactNode }) {
  const { gate } = useSession();
  if (gate)
    return (
      <Suspense fallback={<PageLoader />}>
        <TenantGatePage code={gate.code} message={gate.message} />
      </Suspense>
    );
  return <>{children}</>;
}
