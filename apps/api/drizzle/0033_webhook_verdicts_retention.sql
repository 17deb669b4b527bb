-- Issue 32 follow-up (docs/decisions/0075-webhooks.md, "farm.verdict_changed" and "Retention"). A farm's EUDR verdict is
-- computed on read (its screening figures, the layers in use, the tenant's thresholds), so there is nothing stored to
-- compare with when a reference layer or a threshold changes. farm_verdicts keeps, per farm, the verdict last notified
-- (or first seen): a sweep recomputes the verdicts of a tenant's farms in batches, raises farm.verdict_changed where one
-- differs from the stored one, and stores the new one. farm_verdict_sweeps holds the sweeps asked for (one row per
-- tenant, coalescing requests; after_farm is the cursor of a sweep under way, reset by a newer request).
CREATE TABLE "farm_verdicts" (
  "farm_id" uuid PRIMARY KEY NOT NULL,
  "tenant_id" uuid NOT NULL,
  "verdict" text NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "farm_verdicts_verdict_check" CHECK ("verdict" IN ('low', 'review', 'high')),
  CONSTRAINT "farm_verdicts_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade,
  CONSTRAINT "farm_verdicts_farm_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX "farm_verdicts_tenant_idx" ON "farm_verdicts" ("tenant_id", "farm_id");
--> statement-breakpoint
CREATE TABLE "farm_verdict_sweeps" (
  "tenant_id" uuid PRIMARY KEY NOT NULL,
  "requested_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
  "after_farm" uuid,
  CONSTRAINT "farm_verdict_sweeps_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade
);
--> statement-breakpoint
-- A sweep walks one tenant's farms in id order, a batch per transaction.
CREATE INDEX IF NOT EXISTS "farms_tenant_id_idx" ON "farms" ("tenant_id", "id");
--> statement-breakpoint
ALTER TABLE "farm_verdicts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "farm_verdicts" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "farm_verdicts"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
ALTER TABLE "farm_verdict_sweeps" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "farm_verdict_sweeps" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "farm_verdict_sweeps"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "farm_verdicts", "farm_verdict_sweeps" TO farmland_app;
--> statement-breakpoint
-- Farms registered before this migration have no stored verdict: a first sweep of every tenant with farms records them
-- (without events: there is no earlier verdict to compare with).
INSERT INTO "farm_verdict_sweeps" ("tenant_id") SELECT DISTINCT "tenant_id" FROM "farms" ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Retention (WEBHOOK_DELIVERY_RETENTION_DAYS): finished deliveries by the time they finished, and events by age.
CREATE INDEX "webhook_deliveries_finished_idx" ON "webhook_deliveries" ((coalesce("last_attempt_at", "created_at"))) WHERE "status" IN ('succeeded', 'failed');
--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" ("created_at");
