-- Issue 15 §1: the lists' order (created_at DESC, id DESC) as one index walk, also where many rows share a created_at:
-- a bulk upload's (or an analysis's) rows all take their transaction's now(). On (tenant_id, created_at) alone, a page
-- of the newest had to read and sort every row of the newest timestamp (a 300,000-farmer bulk seed: 300k rows, 350 ms
-- per page). The agents list's per-agent totals (farms mapped, their area) read farms_mapped_by_idx alone (index-only,
-- tenant_id included for the row-level-security condition) instead of each farm's heap row.
DROP INDEX IF EXISTS "farmers_tenant_idx";
--> statement-breakpoint
CREATE INDEX "farmers_tenant_idx" ON "farmers" ("tenant_id", "created_at", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "farms_tenant_idx";
--> statement-breakpoint
CREATE INDEX "farms_tenant_idx" ON "farms" ("tenant_id", "created_at", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "farms_mapped_by_idx";
--> statement-breakpoint
CREATE INDEX "farms_mapped_by_idx" ON "farms" ("mapped_by") INCLUDE ("tenant_id", "area_sqm");
