CREATE TABLE `content_items` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`tool` text NOT NULL,
	`title` text NOT NULL,
	`input` text DEFAULT '{}' NOT NULL,
	`result` text NOT NULL,
	`source` text NOT NULL,
	`notice` text,
	`notes` text DEFAULT '[]' NOT NULL,
	`feed_token_hash` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `content_items_user_tool_idx` ON `content_items` (`user_id`,`tool`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `content_items_feed_token_unique` ON `content_items` (`feed_token_hash`);