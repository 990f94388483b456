ALTER TABLE `review_settings` ADD `sync_claimed_at` text;--> statement-breakpoint
ALTER TABLE `review_settings` ADD `sync_requested_at` text;