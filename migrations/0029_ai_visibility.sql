CREATE TABLE `ai_answers` (
	`id` text PRIMARY KEY NOT NULL,
	`scan_id` text NOT NULL,
	`question_id` text NOT NULL,
	`engine` text NOT NULL,
	`sample` integer NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`claimed_at` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`model` text,
	`r2_key` text,
	`named` text,
	`domains` text,
	`own_cited` integer DEFAULT false NOT NULL,
	`error` text,
	`asked_at` text,
	FOREIGN KEY (`scan_id`) REFERENCES `ai_scans`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ai_answers_scan_idx` ON `ai_answers` (`scan_id`,`status`);--> statement-breakpoint
CREATE INDEX `ai_answers_claim_idx` ON `ai_answers` (`status`,`claimed_at`);--> statement-breakpoint
CREATE TABLE `ai_questions` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_key` text NOT NULL,
	`kind` text NOT NULL,
	`user_id` text NOT NULL,
	`prospect_id` text,
	`text` text NOT NULL,
	`tracked` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`prospect_id`) REFERENCES `prospects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ai_questions_owner_idx` ON `ai_questions` (`owner_key`,`created_at`);--> statement-breakpoint
CREATE INDEX `ai_questions_tracked_idx` ON `ai_questions` (`tracked`,`owner_key`);--> statement-breakpoint
CREATE TABLE `ai_scans` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_key` text NOT NULL,
	`kind` text NOT NULL,
	`user_id` text NOT NULL,
	`prospect_id` text,
	`business` text NOT NULL,
	`competitors` text DEFAULT '[]' NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`trigger` text DEFAULT 'manual' NOT NULL,
	`week` text,
	`samples` integer NOT NULL,
	`engines` text NOT NULL,
	`questions` text NOT NULL,
	`total` integer NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`cost_micro` integer DEFAULT 0 NOT NULL,
	`summary` text,
	`actions` text,
	`actions_source` text,
	`finishing_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`prospect_id`) REFERENCES `prospects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ai_scans_owner_idx` ON `ai_scans` (`owner_key`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `ai_scans_week_unique` ON `ai_scans` (`owner_key`,`week`);--> statement-breakpoint
CREATE INDEX `ai_scans_status_idx` ON `ai_scans` (`status`,`created_at`);