CREATE TABLE `client_report_recipients` (
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`added_by` text NOT NULL,
	`confirm_token` text,
	`unsubscribe_token` text NOT NULL,
	`confirmed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`user_id`, `email`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `client_report_recipients_confirm_idx` ON `client_report_recipients` (`confirm_token`);--> statement-breakpoint
CREATE UNIQUE INDEX `client_report_recipients_unsubscribe_idx` ON `client_report_recipients` (`unsubscribe_token`);--> statement-breakpoint
ALTER TABLE `outbox` ADD `headers` text;