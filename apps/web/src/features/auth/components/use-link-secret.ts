// The secret of a mailed or printed link (reset token, invitation key, admin link id), read from the URL fragment, or
// from the query of a link sent before the fragment form (then the address is rewritten): lib/link-secret.ts.
import { useEffect, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { readLinkSecret } from '../../../lib/link-secret';

export function useLinkSecret(name: string): string | null {
  const location = useLocation();
  const navigate = useNavigate();
  const { value, rewrite } = useMemo(() => readLinkSecret(location, name), [location, name]);
  useEffect(() => {
    if (rewrite) void navigate(rewrite, { replace: true });
  }, [rewrite, navigate]);
  return value;
}
