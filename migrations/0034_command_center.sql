CREATE TABLE `attention_items` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`data` text DEFAULT '{}' NOT NULL,
	`happened_at` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`snoozed_until` text,
	`done_by` text,
	`done_at` text,
	`closed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attention_items_unique` ON `attention_items` (`user_id`,`kind`,`subject`);--> statement-breakpoint
CREATE INDEX `attention_items_status_idx` ON `attention_items` (`status`,`happened_at`);--> statement-breakpoint
CREATE INDEX `attention_items_user_idx` ON `attention_items` (`user_id`,`status`);--> statement-breakpoint
CREATE TABLE `gbp_guard_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`location_name` text NOT NULL,
	`field` text NOT NULL,
	`source` text NOT NULL,
	`before` text NOT NULL,
	`after` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`detected_at` text NOT NULL,
	`resolved_at` text,
	`resolved_by` text,
	`error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gbp_guard_changes_open_unique` ON `gbp_guard_changes` (`user_id`,`location_name`,`field`) WHERE status in ('open', 'accepting', 'rejecting');--> statement-breakpoint
CREATE INDEX `gbp_guard_changes_user_idx` ON `gbp_guard_changes` (`user_id`,`detected_at`);--> statement-breakpoint
CREATE TABLE `gbp_guard_locations` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`location_name` text NOT NULL,
	`location_title` text DEFAULT '' NOT NULL,
	`snapshot` text,
	`night` text,
	`status` text DEFAULT 'idle' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`claimed_at` text,
	`last_checked_at` text,
	`last_error` text,
	`has_voice_of_merchant` integer,
	`voice_action` text,
	`voice_reason` text,
	`voice_changed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gbp_guard_locations_unique` ON `gbp_guard_locations` (`user_id`,`location_name`);--> statement-breakpoint
CREATE INDEX `gbp_guard_locations_night_idx` ON `gbp_guard_locations` (`night`);--> statement-breakpoint
CREATE INDEX `gbp_guard_locations_status_idx` ON `gbp_guard_locations` (`status`,`claimed_at`);--> statement-breakpoint
CREATE INDEX `reviews_low_unanswered_idx` ON `reviews` (`create_time`) WHERE stars <= 3 and reply_comment is null and deleted_at is null;