CREATE TABLE `client_report_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`recipients` text DEFAULT '[]' NOT NULL,
	`enabled_by` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `client_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`month` text NOT NULL,
	`trigger` text DEFAULT 'cron' NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`share_token` text NOT NULL,
	`claimed_at` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`payload` text,
	`summary_source` text,
	`summary_note` text,
	`pdf_key` text,
	`pdf_bytes` integer,
	`mail_when_ready` integer DEFAULT false NOT NULL,
	`mail_claimed_at` text,
	`sent_at` text,
	`sent_to` text,
	`first_opened_at` text,
	`last_opened_at` text,
	`views` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`built_at` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `client_reports_month_unique` ON `client_reports` (`user_id`,`month`);--> statement-breakpoint
CREATE UNIQUE INDEX `client_reports_token_unique` ON `client_reports` (`share_token`);--> statement-breakpoint
CREATE INDEX `client_reports_status_idx` ON `client_reports` (`status`,`claimed_at`);