-- Issue 28, overlap tolerance: two plots overlap only when their intersection reaches both the tenant's minimum area
-- (m², geodesic) and the minimum share of the smaller plot; smaller pairs are slivers (digitising noise along shared
-- edges), shown but never grouped. Defaults 1 m² and 1 % (docs/decisions/0055-overlap-tolerance.md). An analysis keeps the
-- tolerance it ran with, as it keeps its minimum farm size. Every pair an analysis found (slivers included) is kept
-- with its measures: overlap area, each row's share, intersection over union.
ALTER TABLE "tenant_configurations" ADD COLUMN "overlap_min_area_sqm" double precision DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_configurations" ADD COLUMN "overlap_min_share" double precision DEFAULT 0.01 NOT NULL;--> statement-breakpoint
ALTER TABLE "custom_analyses" ADD COLUMN "overlap_min_area_sqm" double precision DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "custom_analyses" ADD COLUMN "overlap_min_share" double precision DEFAULT 0.01 NOT NULL;--> statement-breakpoint
CREATE TABLE "custom_analysis_overlaps" (
  "analysis_id" uuid NOT NULL,
  "tenant_id" uuid NOT NULL,
  "a" integer NOT NULL,
  "b" integer NOT NULL,
  "area_sqm" double precision NOT NULL,
  "share_a" double precision NOT NULL,
  "share_b" double precision NOT NULL,
  "iou" double precision NOT NULL,
  "is_sliver" boolean NOT NULL,
  CONSTRAINT "custom_analysis_overlaps_pk" PRIMARY KEY ("analysis_id", "a", "b"),
  CONSTRAINT "custom_analysis_overlaps_analysis_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."custom_analyses"("id") ON DELETE cascade,
  CONSTRAINT "custom_analysis_overlaps_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX "custom_analysis_overlaps_b_idx" ON "custom_analysis_overlaps" ("analysis_id", "b");--> statement-breakpoint
ALTER TABLE "custom_analysis_overlaps" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "custom_analysis_overlaps" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "custom_analysis_overlaps"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "custom_analysis_overlaps" TO farmland_app;
