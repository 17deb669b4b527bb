-- Issue 31 (the field app). Three changes:
-- 1. idempotency_keys: the Idempotency-Key header's store (modules/idempotency). A row is a key claimed by one actor of
--    one tenant ('user:<id>' or 'license:<id>') for one request (method and path) and body (SHA-256 of its canonical
--    form). status and response stay null while the first request runs; a successful answer is kept for 24 hours, then
--    pruned. Tenant-scoped with row-level security as the other tenant tables (0002, 0007).
-- 2. sessions.device: a device session (the field app's sign-in with device: true; agents only) has its own lifetime
--    and idle limit (docs/decisions/0062-field-app-device-session.md).
-- 3. mapping_records.capture_note: why the agent saved a capture the device warned about (overlap, outside, small).
CREATE TABLE IF NOT EXISTS "idempotency_keys" (
  "tenant_id" uuid NOT NULL,
  "actor" text NOT NULL,
  "key" text NOT NULL,
  "request" text NOT NULL,
  "body_hash" text NOT NULL,
  "status" integer,
  "response" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "completed_at" timestamp with time zone,
  CONSTRAINT "idempotency_keys_pk" PRIMARY KEY ("tenant_id", "actor", "key"),
  CONSTRAINT "idempotency_keys_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "idempotency_keys" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "idempotency_keys" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "idempotency_keys"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "idempotency_keys" TO farmland_app;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN IF NOT EXISTS "device" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "mapping_records" ADD COLUMN IF NOT EXISTS "capture_note" text;
