CREATE TABLE `grid_points` (
	`scan_id` text NOT NULL,
	`idx` integer NOT NULL,
	`row` integer NOT NULL,
	`col` integer NOT NULL,
	`lat` real NOT NULL,
	`lng` real NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`rank` integer,
	`top3` text,
	`reason` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`claimed_at` text,
	`finished_at` text,
	PRIMARY KEY(`scan_id`, `idx`),
	FOREIGN KEY (`scan_id`) REFERENCES `grid_scans`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `grid_points_status_idx` ON `grid_points` (`status`,`claimed_at`);--> statement-breakpoint
CREATE TABLE `grid_scans` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`user_id` text NOT NULL,
	`prospect_id` text,
	`business` text NOT NULL,
	`keyword` text NOT NULL,
	`size` integer NOT NULL,
	`radius_miles` real NOT NULL,
	`zoom` integer NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`estimate_searches` integer NOT NULL,
	`estimate_micro` integer NOT NULL,
	`share_token` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`prospect_id`) REFERENCES `prospects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `grid_scans_share_token_unique` ON `grid_scans` (`share_token`);--> statement-breakpoint
CREATE INDEX `grid_scans_user_idx` ON `grid_scans` (`user_id`,`kind`,`keyword`,`created_at`);--> statement-breakpoint
CREATE INDEX `grid_scans_prospect_idx` ON `grid_scans` (`prospect_id`,`keyword`,`created_at`);--> statement-breakpoint
CREATE TABLE `keyword_checks` (
	`id` text PRIMARY KEY NOT NULL,
	`keyword_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`map_status` text DEFAULT 'pending' NOT NULL,
	`map_rank` integer,
	`organic_status` text DEFAULT 'pending' NOT NULL,
	`organic_rank` integer,
	`reason` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`claimed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`checked_at` text,
	FOREIGN KEY (`keyword_id`) REFERENCES `tracked_keywords`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `keyword_checks_keyword_idx` ON `keyword_checks` (`keyword_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `keyword_checks_status_idx` ON `keyword_checks` (`status`,`claimed_at`);--> statement-breakpoint
CREATE TABLE `rank_alert_digests` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `rank_alerts` (
	`check_id` text PRIMARY KEY NOT NULL,
	`keyword_id` text NOT NULL,
	`user_id` text NOT NULL,
	`reasons` text NOT NULL,
	`from_rank` integer,
	`to_rank` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`mailed_at` text,
	FOREIGN KEY (`check_id`) REFERENCES `keyword_checks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`keyword_id`) REFERENCES `tracked_keywords`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rank_alerts_user_idx` ON `rank_alerts` (`user_id`,`mailed_at`);--> statement-breakpoint
CREATE TABLE `tracked_keywords` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`user_id` text NOT NULL,
	`prospect_id` text,
	`owner_key` text NOT NULL,
	`business` text NOT NULL,
	`website` text,
	`keyword` text NOT NULL,
	`frequency` text DEFAULT 'daily' NOT NULL,
	`paused` integer DEFAULT false NOT NULL,
	`last_check_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`prospect_id`) REFERENCES `prospects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tracked_keywords_owner_keyword_unique` ON `tracked_keywords` (`owner_key`,`keyword`);--> statement-breakpoint
CREATE INDEX `tracked_keywords_user_idx` ON `tracked_keywords` (`user_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE INDEX `tracked_keywords_due_idx` ON `tracked_keywords` (`paused`,`last_check_at`);