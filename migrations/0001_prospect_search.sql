-- Prospect search: an FTS5 trigram index over prospects.search_text, kept in step by triggers.
-- Hand-written: drizzle-kit does not model virtual tables or triggers, so schema.ts does not list it.
-- The index row's rowid is the prospect's rowid, so a delete or update finds its row by key.
-- Substring queries of 3+ characters use the index (MATCH on a quoted phrase); shorter ones fall
-- back to LIKE over prospects.search_text (see worker/db/prospects.ts).
-- prospects_name_lower_idx serves the import's duplicate lookup (names compared case-insensitively).
-- `wrangler d1 export` skips virtual tables: after importing a dump elsewhere, run the
-- INSERT INTO prospects_fts ... SELECT statement of this file again to fill the index.
CREATE VIRTUAL TABLE `prospects_fts` USING fts5(`search_text`, tokenize = 'trigram');
--> statement-breakpoint
CREATE TRIGGER `prospects_fts_insert` AFTER INSERT ON `prospects` BEGIN
  INSERT INTO `prospects_fts` (`rowid`, `search_text`) VALUES (new.`rowid`, new.`search_text`);
END;
--> statement-breakpoint
CREATE TRIGGER `prospects_fts_delete` AFTER DELETE ON `prospects` BEGIN
  DELETE FROM `prospects_fts` WHERE `rowid` = old.`rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `prospects_fts_update` AFTER UPDATE OF `search_text` ON `prospects` BEGIN
  DELETE FROM `prospects_fts` WHERE `rowid` = old.`rowid`;
  INSERT INTO `prospects_fts` (`rowid`, `search_text`) VALUES (new.`rowid`, new.`search_text`);
END;
--> statement-breakpoint
INSERT INTO `prospects_fts` (`rowid`, `search_text`) SELECT `rowid`, `search_text` FROM `prospects`;
--> statement-breakpoint
CREATE INDEX `prospects_name_lower_idx` ON `prospects` (lower(`name`));
