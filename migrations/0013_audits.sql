CREATE TABLE `audit_steps` (
	`audit_id` text NOT NULL,
	`step` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`reason` text,
	`result` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`claimed_at` text,
	`finished_at` text,
	PRIMARY KEY(`audit_id`, `step`),
	FOREIGN KEY (`audit_id`) REFERENCES `audits`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `audits` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`prospect_id` text,
	`user_id` text,
	`subject` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`overall` integer,
	`listing_choice` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`prospect_id`) REFERENCES `prospects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `audits_prospect_idx` ON `audits` (`prospect_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `audits_user_idx` ON `audits` (`user_id`,`kind`,`created_at`);--> statement-breakpoint
ALTER TABLE `prospects` ADD `website` text;