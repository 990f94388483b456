-- Hand-written (issue 10): keeps report_view_stats in step with report_events. A repeated beacon of one
-- visit is ignored by the unique index and so never reaches this trigger: opens counts visits.
CREATE TRIGGER `report_events_opened_stats` AFTER INSERT ON `report_events`
WHEN NEW.`event` = 'opened'
BEGIN
  INSERT INTO `report_view_stats` (`report_id`, `opens`, `first_opened_at`, `last_opened_at`)
  VALUES (NEW.`report_id`, 1, NEW.`created_at`, NEW.`created_at`)
  ON CONFLICT (`report_id`) DO UPDATE SET
    `opens` = `opens` + 1,
    `last_opened_at` = max(coalesce(`last_opened_at`, ''), NEW.`created_at`);
END;
