// Password hashing with argon2id (OWASP parameters: 19 MiB, 2 iterations).
import { hash, verify, type Algorithm } from '@node-rs/argon2';

// 2 is Algorithm.Argon2id (a const enum, which isolatedModules cannot read).
const options = { algorithm: 2 as Algorithm, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, options);

/** A fixed hash to verify against when the account does not exist, so timing does not reveal which emails exist. */
let dummy: Promise<string> | null = null;

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hashPassword('not-a-real-password');
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
