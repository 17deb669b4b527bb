-- Issue 9: agents' totals (farmers_count, mapped_farms_count, total_mapped_area) read farmers by created_by and farms by
-- mapped_by; without these, every agent row of the list scans the tenant's farmers and farms.
CREATE INDEX "farmers_created_by_idx" ON "farmers" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "farms_mapped_by_idx" ON "farms" USING btree ("mapped_by");