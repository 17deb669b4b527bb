-- Trigram search indexes (0014) without GIN's pending list (fastupdate = off): every insert and non-HOT update goes
-- straight into the index. With the pending list on, new entries wait in an unsorted list that every search reads in
-- full until VACUUM or autovacuum merges it; the embedded database (PGlite) runs no autovacuum, so after a bulk upload
-- and the farm-count updates of 0016 a farmer search read megabytes of pending entries: 210–320 ms instead of 17–28 ms
-- with 100,000 farmers (npm run bench:bulk; docs/decisions/0024-issue-15-after-the-merges-quiet-machine-figures-and-the.md). Writes pay a little more (measured there).
ALTER INDEX "users_full_name_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "users_email_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "users_phone_number_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "farmers_full_name_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "farmers_folio_id_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "farmers_phone_number_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "farmers_email_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "farms_name_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
-- What is already pending moves into the indexes now (a no-op on a fresh database).
SELECT gin_clean_pending_list(c.oid) FROM pg_class c
 WHERE c.relname IN ('users_full_name_trgm_idx', 'users_email_trgm_idx', 'users_phone_number_trgm_idx', 'farmers_full_name_trgm_idx',
                     'farmers_folio_id_trgm_idx', 'farmers_phone_number_trgm_idx', 'farmers_email_trgm_idx', 'farms_name_trgm_idx')
   AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace;
