import { describe, expect, it } from 'vitest';
import { readLinkSecret } from './link-secret';

describe('readLinkSecret', () => {
  it('reads the secret from the fragment and leaves the address alone', () => {
    expect(readLinkSecret({ pathname: '/reset-password', search: '', hash: '#token=abc-_123' }, 'token')).toEqual({ value: 'abc-_123', rewrite: null });
  });

  it('reads an old link from the query and moves the secret to the fragment, keeping other parameters', () => {
    const key = 'eyJjaWQiOiIxIn0.sig+/=';
    const search = `?signed_key=${encodeURIComponent(key)}&lang=en`;
    const got = readLinkSecret({ pathname: '/onboarding', search, hash: '' }, 'signed_key');
    expect(got.value).toBe(key);
    expect(got.rewrite).toBe(`/onboarding?lang=en#signed_key=${encodeURIComponent(key).replace(/%20/g, '+')}`);
    // The rewritten address reads back the same secret, and no longer carries it in the query.
    const url = new URL(got.rewrite!, 'http://x');
    expect(url.searchParams.get('signed_key')).toBeNull();
    expect(readLinkSecret({ pathname: url.pathname, search: url.search, hash: url.hash }, 'signed_key')).toEqual({ value: key, rewrite: null });
  });

  it('answers null when the link has no secret', () => {
    expect(readLinkSecret({ pathname: '/', search: '?ec=105', hash: '' }, 'q')).toEqual({ value: null, rewrite: null });
  });
});
