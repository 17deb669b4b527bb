// Password hashing with argon2id (OWASP parameters: 19 MiB, 2 iterations).
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { problems } from './problems.js';

// 2 is Algorithm.Argon2id (a const enum, which isolatedModules cannot read).
const options = { algorithm: 2 as Algorithm, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, options);

let common: Promise<Set<string>> | null = null;

/**
 * Whether a new password is one of the ~49,000 most common ones (zxcvbn-ts's common list), compared without case.
 * The list loads on first use (a few MB), not at start.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  common ??= import('@zxcvbn-ts/language-common').then((m) => new Set(m.dictionary['passwords-common'].map((p) => p.toLowerCase())));
  return (await common).has(password.toLowerCase());
}

/** Refuses a common password with a 400 naming the field. */
export async function assertUncommonPassword(field: string, password: string): Promise<void> {
  if (await isCommonPassword(password)) throw problems.field(field, 'This password is one of the most common ones and easy to guess; choose another');
}

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
