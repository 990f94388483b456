CREATE TABLE `client_invites` (
	`prospect_id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`invited_by` text NOT NULL,
	`invited_at` text NOT NULL,
	`user_id` text,
	`accepted_at` text,
	FOREIGN KEY (`prospect_id`) REFERENCES `prospects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `client_invites_email_idx` ON `client_invites` (`email`);--> statement-breakpoint
CREATE TABLE `prospect_activity` (
	`id` text PRIMARY KEY NOT NULL,
	`prospect_id` text NOT NULL,
	`kind` text NOT NULL,
	`from_stage` text,
	`to_stage` text,
	`cause` text,
	`by` text,
	`dedupe_key` text NOT NULL,
	`at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`prospect_id`) REFERENCES `prospects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prospect_activity_dedupe_key_unique` ON `prospect_activity` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `prospect_activity_prospect_idx` ON `prospect_activity` (`prospect_id`,`at`);--> statement-breakpoint
CREATE TABLE `prospect_stages` (
	`prospect_id` text PRIMARY KEY NOT NULL,
	`stage` text DEFAULT 'new' NOT NULL,
	`moved_at` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`prospect_id`) REFERENCES `prospects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `prospect_stages_stage_idx` ON `prospect_stages` (`stage`,`moved_at`);