-- Issue 28 leftover: registries grouped before the overlap tolerance (0024) keep groups made without it. Each tenant
-- with farms is flagged here; the server re-groups flagged registries once, in the background after it starts, in
-- short batched transactions (modules/farms/farms.regroup.ts), and clears the flag. A tolerance change sets the flag
-- again until its re-grouping has finished, so one cut short by a stop is finished at the next start
-- (docs/decisions/0058-registry-regroup-in-batches.md).
ALTER TABLE "tenants" ADD COLUMN "overlap_regroup_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "tenants" t SET "overlap_regroup_pending" = true WHERE EXISTS (SELECT 1 FROM "farms" f WHERE f."tenant_id" = t."id");
