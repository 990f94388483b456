CREATE TABLE `billing_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`event_created` integer NOT NULL,
	`received_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `search_cache` (
	`key` text PRIMARY KEY NOT NULL,
	`keyword` text NOT NULL,
	`location` text NOT NULL,
	`results` text NOT NULL,
	`fetched_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `search_cache_fetched_idx` ON `search_cache` (`fetched_at`);--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `interval` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `state_event_created` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_stripe_subscription_unique` ON `subscriptions` (`stripe_subscription_id`);