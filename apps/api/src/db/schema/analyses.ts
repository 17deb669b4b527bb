// Custom analyses: an analysis, its chosen areas, its staged and classified rows, and the overlapping pairs of its rows.
import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { geometry, id, createdAt } from './columns.js';
import { tenants, users, files, operationalAreas } from './core.js';

// ---------- custom analyses ----------
export const customAnalyses = pgTable(
  'custom_analyses',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    sourceFileId: uuid('source_file_id').references(() => files.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['queued', 'processing', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    progress: integer('progress').notNull().default(0),
    minimumFarmSize: doublePrecision('minimum_farm_size').notNull(),
    requireFarmRecognition: boolean('require_farm_recognition').notNull().default(true),
    recognitionThreshold: doublePrecision('recognition_threshold').notNull().default(0.5),
    // The overlap tolerance the analysis runs with (the tenant's at upload; drizzle/0024).
    overlapMinAreaSqm: doublePrecision('overlap_min_area_sqm').notNull().default(1),
    overlapMinShare: doublePrecision('overlap_min_share').notNull().default(0.01),
    totalUploadedDataCount: integer('total_uploaded_data_count').notNull().default(0),
    totalArea: doublePrecision('total_area').notNull().default(0),
    withinCount: integer('within_count').notNull().default(0),
    outsideCount: integer('outside_count').notNull().default(0),
    overlappingCount: integer('overlapping_count').notNull().default(0),
    unrecognizedCount: integer('unrecognized_count').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    // Rows with at least one warning (issue 28: a repaired ring, a point, coarse coordinates; drizzle/0023).
    warningCount: integer('warning_count').notNull().default(0),
    failureReason: text('failure_reason'),
    // Crash recovery (drizzle/0009): each run claims the analysis (attempts + 1) and beats every few seconds; a run whose
    // heartbeat stopped ended its process (crashes + 1): it is requeued, or failed at the second. phase: the step running.
    attempts: integer('attempts').notNull().default(0),
    crashes: integer('crashes').notNull().default(0),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    runId: uuid('run_id'),
    phase: text('phase'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    // A follow-up's parent (drizzle/0015): a composite foreign key (tenant_id, parent_analysis_id) → (tenant_id, id),
    // ON DELETE SET NULL (parent_analysis_id), written in the migration (drizzle's builder cannot say the column list).
    parentAnalysisId: uuid('parent_analysis_id'),
  },
  (t) => [
    index('custom_analyses_tenant_idx').on(t.tenantId, t.createdAt),
    unique('custom_analyses_tenant_id_id_uq').on(t.tenantId, t.id),
    index('custom_analyses_parent_idx')
      .on(t.tenantId, t.parentAnalysisId)
      .where(sql`${t.parentAnalysisId} IS NOT NULL`),
  ],
);

/** Every overlapping pair of rows an analysis found (a < b), slivers included, with its measures (drizzle/0024). */
export const customAnalysisOverlaps = pgTable(
  'custom_analysis_overlaps',
  {
    analysisId: uuid('analysis_id')
      .notNull()
      .references(() => customAnalyses.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    a: integer('a').notNull(),
    b: integer('b').notNull(),
    areaSqm: doublePrecision('area_sqm').notNull(),
    shareA: doublePrecision('share_a').notNull(),
    shareB: doublePrecision('share_b').notNull(),
    iou: doublePrecision('iou').notNull(),
    isSliver: boolean('is_sliver').notNull(),
  },
  (t) => [primaryKey({ columns: [t.analysisId, t.a, t.b] }), index('custom_analysis_overlaps_b_idx').on(t.analysisId, t.b)],
);

export const customAnalysisAreas = pgTable(
  'custom_analysis_areas',
  {
    analysisId: uuid('analysis_id')
      .notNull()
      .references(() => customAnalyses.id, { onDelete: 'cascade' }),
    operationalAreaId: uuid('operational_area_id')
      .notNull()
      .references(() => operationalAreas.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.analysisId, t.operationalAreaId] })],
);

export const customAnalysisRows = pgTable(
  'custom_analysis_rows',
  {
    // Its analysis is enforced by statement-level triggers (drizzle/0008), not a foreign key: same check, lock and
    // cascade, once per statement instead of once per row.
    analysisId: uuid('analysis_id').notNull(),
    rowNumber: integer('row_number').notNull(),
    // No foreign key to tenants: the analysis's key already cascades from the tenant (tenants → custom_analyses → rows),
    // and a second RI trigger per inserted row cost ~11 µs on PGlite (1.1 s per 100k rows). See drizzle/0006.
    tenantId: uuid('tenant_id').notNull(),
    farmName: text('farm_name'),
    geom: geometry('geom', 'Geometry'),
    areaSqm: doublePrecision('area_sqm'),
    rowData: jsonb('row_data').notNull(),
    errors: jsonb('errors'),
    // The row's warning codes (analysisRowWarningCode); empty for a clean row (drizzle/0023).
    warnings: text('warnings')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    category: text('category', { enum: ['within', 'outside', 'error'] }).notNull(),
    operationalAreaId: uuid('operational_area_id'),
    coveredFraction: doublePrecision('covered_fraction'),
    isOverlapping: boolean('is_overlapping').notNull().default(false),
    overlappingId: integer('overlapping_id'),
    // Rows in the same overlap group (stored with the group, so that a result page never counts a group per row).
    groupSize: integer('group_size'),
    isUnrecognized: boolean('is_unrecognized').notNull().default(false),
    // The first row of the upload with the very same polygon (exact duplicates never enter the overlap probe index).
    dupOf: integer('dup_of'),
  },
  (t) => [
    primaryKey({ columns: [t.analysisId, t.rowNumber] }),
    index('custom_analysis_rows_cat_idx').on(t.analysisId, t.category, t.rowNumber),
    index('custom_analysis_rows_overlap_idx')
      .on(t.analysisId, t.overlappingId, t.rowNumber)
      .where(sql`${t.isOverlapping}`),
    index('custom_analysis_rows_unrecognized_idx')
      .on(t.analysisId, t.rowNumber)
      .where(sql`${t.isUnrecognized}`),
    // The overlap self-join of one upload probes this index; rows without a valid polygon carry no geometry.
    // Duplicates stay out of it, so a file repeating one polygon 75,000 times probes one entry, not 75,000 (drizzle/0009).
    index('custom_analysis_rows_geom_idx')
      .using('gist', t.geom)
      .where(sql`${t.geom} IS NOT NULL AND ${t.dupOf} IS NULL`),
  ],
);
