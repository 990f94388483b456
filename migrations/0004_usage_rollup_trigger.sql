-- Hand-written: keeps ai_usage_daily in step with ai_usage_logs. Every inserted log row adds its call, tokens and
-- cost to its (user, day, tool, model) row; an INSERT OR IGNORE of a redelivered event inserts nothing, so it adds
-- nothing. Then the rows already logged are rolled up once.
CREATE TRIGGER `ai_usage_logs_rollup` AFTER INSERT ON `ai_usage_logs`
BEGIN
  INSERT INTO `ai_usage_daily` (`user_key`, `day`, `tool_name`, `model`, `count`, `tokens`, `cost`)
  VALUES (coalesce(NEW.`user_id`, ''), substr(NEW.`created_at`, 1, 10), NEW.`tool_name`, NEW.`model`, 1, NEW.`total_tokens`, NEW.`estimated_cost`)
  ON CONFLICT (`user_key`, `day`, `tool_name`, `model`) DO UPDATE SET
    `count` = `count` + 1,
    `tokens` = `tokens` + excluded.`tokens`,
    `cost` = `cost` + excluded.`cost`;
END;
--> statement-breakpoint
INSERT INTO `ai_usage_daily` (`user_key`, `day`, `tool_name`, `model`, `count`, `tokens`, `cost`)
SELECT coalesce(`user_id`, ''), substr(`created_at`, 1, 10), `tool_name`, `model`, count(*), sum(`total_tokens`), sum(`estimated_cost`)
FROM `ai_usage_logs`
GROUP BY 1, 2, 3, 4;
