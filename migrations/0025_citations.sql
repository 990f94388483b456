CREATE TABLE `citation_checks` (
	`scan_id` text NOT NULL,
	`source` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`progress` text,
	`result` text,
	`reason` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`claimed_at` text,
	`finished_at` text,
	PRIMARY KEY(`scan_id`, `source`),
	FOREIGN KEY (`scan_id`) REFERENCES `citation_scans`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `citation_checks_status_idx` ON `citation_checks` (`status`,`claimed_at`);--> statement-breakpoint
CREATE TABLE `citation_scans` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`user_id` text NOT NULL,
	`prospect_id` text,
	`owner_key` text NOT NULL,
	`business` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`trigger` text DEFAULT 'manual' NOT NULL,
	`estimate_searches` integer NOT NULL,
	`estimate_micro` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`prospect_id`) REFERENCES `prospects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `citation_scans_owner_idx` ON `citation_scans` (`owner_key`,`created_at`);--> statement-breakpoint
CREATE INDEX `citation_scans_user_idx` ON `citation_scans` (`user_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `citation_tracking` (
	`owner_key` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`user_id` text NOT NULL,
	`prospect_id` text,
	`last_scan_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`prospect_id`) REFERENCES `prospects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `citation_tracking_due_idx` ON `citation_tracking` (`last_scan_at`);