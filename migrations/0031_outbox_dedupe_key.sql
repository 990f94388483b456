ALTER TABLE `outbox` ADD `dedupe_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_dedupe_key_idx` ON `outbox` (`dedupe_key`);