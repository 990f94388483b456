CREATE TABLE `chat_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`report_id` text NOT NULL,
	`visitor_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`last_message_at` text NOT NULL,
	`message_count` integer DEFAULT 0 NOT NULL,
	`answer_count` integer DEFAULT 0 NOT NULL,
	`lead_asked_at` text,
	`lead_name` text,
	`lead_phone` text,
	`lead_email` text,
	FOREIGN KEY (`report_id`) REFERENCES `seo_reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_sessions_report_visitor_unique` ON `chat_sessions` (`report_id`,`visitor_id`);--> statement-breakpoint
CREATE INDEX `chat_sessions_report_last_idx` ON `chat_sessions` (`report_id`,`last_message_at`);--> statement-breakpoint
ALTER TABLE `chat_messages` ADD `session_id` text;--> statement-breakpoint
CREATE INDEX `chat_messages_session_idx` ON `chat_messages` (`session_id`,`created_at`);