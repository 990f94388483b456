-- A shared report shows its prospect's name, company, area, keyword, tag and description; the shared
-- endpoint's cache key and ETag are the report's `version`. Editing any of those fields therefore
-- bumps the version of the prospect's report, whichever code path makes the edit.
-- Hand-written: drizzle-kit does not model triggers, so schema.ts does not list it.
CREATE TRIGGER `seo_reports_version_on_prospect_edit`
AFTER UPDATE OF `name`, `company_name`, `area`, `keyword`, `tag`, `description` ON `prospects`
WHEN old.`name` IS NOT new.`name`
  OR old.`company_name` IS NOT new.`company_name`
  OR old.`area` IS NOT new.`area`
  OR old.`keyword` IS NOT new.`keyword`
  OR old.`tag` IS NOT new.`tag`
  OR old.`description` IS NOT new.`description`
BEGIN
  UPDATE `seo_reports` SET `version` = `version` + 1 WHERE `prospect_id` = new.`id`;
END;
