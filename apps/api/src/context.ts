// What every service call receives: the process-wide dependencies and the request's actor and origin.
import type { FastifyBaseLogger } from 'fastify';
import type { PlatformName } from '@farmland/contracts';
import type { Config } from './config.js';
import type { Database, Db, PendingCheck, Scope } from './db/client.js';
import type { Keys } from './lib/crypto.js';
import type { Actor, LicenseActor, Who } from './lib/policy.js';
import type { Storage } from './lib/storage.js';

export type Deps = {
  config: Config;
  database: Database;
  db: Db;
  keys: Keys;
  storage: Storage;
  log: FastifyBaseLogger;
};

export type { Actor, LicenseActor } from './lib/policy.js';

export type Ctx = {
  actor: Actor | null;
  /** Set instead of actor when a capture route was called with a valid SDK license key (X-License-Key). */
  license?: LicenseActor | null;
  platform: PlatformName;
  ip: string;
  /** Country for the activity log: the x-country header when a client sends it, else the actor's tenant country. */
  country: string | null;
  requestId: string;
  /**
   * The session check not yet run (plugins/auth.ts, routes with `sessionWithRead`): it rides on the request's first
   * scoped read (db/client.ts scopedReader), and an onSend hook runs it alone when no read took it. Until it has run,
   * actor holds the access token's claims (name and email empty).
   */
  pending?: PendingCheck | null;
};

/** 'sdk_license' in a role list admits a tenant's SDK license key (X-License-Key header) as well as the listed roles' sessions. */
export type AccessRole = Who;

/** Route access, declared on every route and enforced by plugins/auth.ts before the handler runs. */
export type Access = 'public' | 'authenticated' | readonly AccessRole[];

/** The row-level-security scope for an actor: provider staff see every tenant, everyone else only their own. */
export function scopeOf(actor: Actor): Scope {
  if (actor.role === 'super_admin') return { kind: 'provider' };
  if (!actor.tenantId) throw new Error('A tenant user without a tenant');
  return { kind: 'tenant', tenantId: actor.tenantId };
}

export function requireActor(ctx: Ctx): Actor {
  if (!ctx.actor) throw new Error('This service call needs an authenticated actor');
  return ctx.actor;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * A read-only route whose first database access is a scoped read (db/client.ts scopedReader with the request's ctx):
     * the session check goes to the database with that read, in one round trip, instead of before the handler.
     */
    sessionWithRead?: boolean;
    /** The policy action whose rule gave this route its access (lib/policy.ts gate): `<module>.<action>`. */
    action?: string;
  }
  interface FastifyRequest {
    ctx: Ctx;
  }
  interface FastifyInstance {
    deps: Deps;
    routeTable: Array<{ method: string; url: string; access: Access | undefined; action?: string | undefined }>;
  }
}
