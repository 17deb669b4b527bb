-- Issue 29, plot risk: the tenant's thresholds of the decision tree (docs/decisions/0072-eudr-plot-risk.md), with its safe
-- defaults: an overlap under 10 m² is none; forest in 2020 over 1 % of the plot → review; any tree-cover loss after
-- 2020 or protected area (over 0 %) → high.
ALTER TABLE "tenant_configurations" ADD COLUMN "eudr_min_overlap_sqm" double precision DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_configurations" ADD COLUMN "eudr_forest_review_share" double precision DEFAULT 0.01 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_configurations" ADD COLUMN "eudr_loss_high_share" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_configurations" ADD COLUMN "eudr_protected_high_share" double precision DEFAULT 0 NOT NULL;
