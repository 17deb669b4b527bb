// License activation keys: generated here, stored as a SHA-256 hash with a 10-character hint, shown in full once.
// A key is 32 random bytes (base64url) after a type prefix, so an unsalted hash cannot be reversed by guessing.
import { randomToken, sha256 } from './crypto.js';

export type LicenseTypeName = 'Platform' | 'SDK';

export const KEY_HINT_LENGTH = 10;

/** A new activation key: SDK-… or PLT-… followed by 43 random characters. */
export function newLicenseKey(type: LicenseTypeName): string {
  return `${type === 'SDK' ? 'SDK' : 'PLT'}-${randomToken(32)}`;
}

/** What is stored of a key: its hash (for lookup) and its hint (for lists). */
export function licenseKeyColumns(key: string): { keyHash: string; keyHint: string } {
  return { keyHash: sha256(key), keyHint: key.slice(0, KEY_HINT_LENGTH) };
}
