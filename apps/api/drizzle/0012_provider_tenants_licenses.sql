-- Issue 11 (provider area). License keys are stored hashed (SHA-256, hex) with their first 10 characters as a hint:
-- the key is shown once, when it is issued (docs/decisions/0013-provider-area-api.md). Existing keys are hashed in place.
ALTER TABLE "licenses" ADD COLUMN "key_hash" text;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "key_hint" text;--> statement-breakpoint
UPDATE "licenses" SET "key_hash" = encode(sha256(convert_to("key", 'UTF8')), 'hex'), "key_hint" = left("key", 10);--> statement-breakpoint
ALTER TABLE "licenses" ALTER COLUMN "key_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ALTER COLUMN "key_hint" SET NOT NULL;--> statement-breakpoint
DROP INDEX "licenses_key_uq";--> statement-breakpoint
ALTER TABLE "licenses" DROP COLUMN "key";--> statement-breakpoint
CREATE UNIQUE INDEX "licenses_key_hash_uq" ON "licenses" USING btree ("key_hash");--> statement-breakpoint
-- The tenant's current license (the tenant gate and the tenants list read the latest issued).
DROP INDEX "licenses_tenant_idx";--> statement-breakpoint
CREATE INDEX "licenses_tenant_current_idx" ON "licenses" USING btree ("tenant_id","issued_date" DESC NULLS LAST,"created_at" DESC NULLS LAST);--> statement-breakpoint
-- Soft delete of tenants: hidden everywhere, users shut out by the tenant gate, the activity log kept.
ALTER TABLE "tenants" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "tenants_live_created_idx" ON "tenants" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_email_live_uq" ON "tenants" USING btree (lower("email")) WHERE deleted_at IS NULL AND email IS NOT NULL;
--> statement-breakpoint
-- The provider analytics by year over every tenant: an index-only scan of the year's farms, not a read of every geometry.
CREATE INDEX "farms_created_cover_idx" ON "farms" USING btree ("created_at","tenant_id","area_sqm","mapped_by","farmer_id");
