DROP INDEX "custom_analysis_rows_cat_idx";--> statement-breakpoint
CREATE INDEX "custom_analysis_rows_overlap_idx" ON "custom_analysis_rows" USING btree ("analysis_id","overlapping_id","row_number") WHERE "custom_analysis_rows"."is_overlapping";--> statement-breakpoint
CREATE INDEX "custom_analysis_rows_unrecognized_idx" ON "custom_analysis_rows" USING btree ("analysis_id","row_number") WHERE "custom_analysis_rows"."is_unrecognized";--> statement-breakpoint
CREATE INDEX "custom_analysis_rows_geom_idx" ON "custom_analysis_rows" USING gist ("geom") WHERE "custom_analysis_rows"."geom" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "custom_analysis_rows_cat_idx" ON "custom_analysis_rows" USING btree ("analysis_id","category","row_number");