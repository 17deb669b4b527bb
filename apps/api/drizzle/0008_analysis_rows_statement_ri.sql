-- custom_analysis_rows → custom_analyses, checked once per statement instead of once per row. The foreign key ran an RI
-- query with a row lock for every inserted row (~3 µs on PostgreSQL, ~10 µs on PGlite: up to a second per 100k-row
-- analysis). These triggers keep the same guarantees at statement level:
--  * insert/update: every analysis_id written must exist; its analysis row is locked FOR KEY SHARE (as the foreign key
--    does), so a concurrent delete of the analysis waits for the writing transaction, and a writer that comes after the
--    delete finds no analysis and fails (23503, as a foreign-key violation would);
--  * delete of an analysis: its rows are deleted with it (ON DELETE CASCADE). The service removes rows in bounded
--    statements first, so this only catches what a concurrent writer committed meanwhile.
ALTER TABLE "custom_analysis_rows" DROP CONSTRAINT "custom_analysis_rows_analysis_id_custom_analyses_id_fk";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION custom_analysis_rows_check_parent() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  wanted int;
  locked int;
BEGIN
  SELECT count(DISTINCT analysis_id) INTO wanted FROM written_rows;
  IF wanted = 0 THEN
    RETURN NULL;
  END IF;
  SELECT count(*) INTO locked FROM (
    SELECT 1 FROM custom_analyses a WHERE a.id IN (SELECT DISTINCT analysis_id FROM written_rows) FOR KEY SHARE OF a
  ) l;
  IF locked < wanted THEN
    RAISE EXCEPTION 'insert or update on table "custom_analysis_rows" refers to an analysis that does not exist'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'custom_analysis_rows', CONSTRAINT = 'custom_analysis_rows_analysis_id_fk';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER custom_analysis_rows_parent_on_insert AFTER INSERT ON "custom_analysis_rows"
  REFERENCING NEW TABLE AS written_rows FOR EACH STATEMENT EXECUTE FUNCTION custom_analysis_rows_check_parent();
--> statement-breakpoint
CREATE TRIGGER custom_analysis_rows_parent_on_update AFTER UPDATE ON "custom_analysis_rows"
  REFERENCING NEW TABLE AS written_rows FOR EACH STATEMENT EXECUTE FUNCTION custom_analysis_rows_check_parent();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION custom_analyses_delete_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM custom_analysis_rows r WHERE r.analysis_id IN (SELECT id FROM deleted_analyses);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER custom_analyses_delete_rows AFTER DELETE ON "custom_analyses"
  REFERENCING OLD TABLE AS deleted_analyses FOR EACH STATEMENT EXECUTE FUNCTION custom_analyses_delete_rows();
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION custom_analysis_rows_check_parent() TO farmland_app;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION custom_analyses_delete_rows() TO farmland_app;
