CREATE TABLE `review_history` (
	`id` text PRIMARY KEY NOT NULL,
	`review_id` text NOT NULL,
	`stars` integer NOT NULL,
	`comment` text,
	`update_time` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`review_id`) REFERENCES `reviews`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_history_version_unique` ON `review_history` (`review_id`,`update_time`);--> statement-breakpoint
CREATE TABLE `review_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`tone` text DEFAULT 'friendly' NOT NULL,
	`signature` text DEFAULT '' NOT NULL,
	`auto_publish` integer DEFAULT false NOT NULL,
	`auto_publish_delay_hours` integer DEFAULT 24 NOT NULL,
	`next_sync_at` text,
	`last_sync_at` text,
	`last_sync_error` text,
	`google_average` real,
	`google_total` integer,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `review_settings_due_idx` ON `review_settings` (`next_sync_at`);--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`location_name` text NOT NULL,
	`google_review_id` text NOT NULL,
	`google_name` text NOT NULL,
	`reviewer_name` text NOT NULL,
	`reviewer_photo_url` text,
	`reviewer_anonymous` integer DEFAULT false NOT NULL,
	`stars` integer NOT NULL,
	`comment` text,
	`create_time` text NOT NULL,
	`update_time` text NOT NULL,
	`reply_comment` text,
	`reply_update_time` text,
	`draft` text,
	`draft_source` text,
	`draft_notice` text,
	`reply_state` text DEFAULT 'none' NOT NULL,
	`pending_reply` text,
	`reply_error` text,
	`publish_attempts` integer DEFAULT 0 NOT NULL,
	`auto_publish_at` text,
	`deleted_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_user_google_unique` ON `reviews` (`user_id`,`google_review_id`);--> statement-breakpoint
CREATE INDEX `reviews_user_time_idx` ON `reviews` (`user_id`,`create_time`);--> statement-breakpoint
CREATE INDEX `reviews_state_idx` ON `reviews` (`reply_state`,`auto_publish_at`);