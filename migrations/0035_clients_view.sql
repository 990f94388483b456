CREATE TABLE `agency_view_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`hidden_columns` text DEFAULT '[]' NOT NULL,
	`views` text DEFAULT '[]' NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `client_summaries` (
	`user_id` text PRIMARY KEY NOT NULL,
	`manager_id` text,
	`reviews` text,
	`rank` text,
	`citations` text,
	`ai` text,
	`posts` text,
	`report` text,
	`usage` text,
	`health` integer DEFAULT 0 NOT NULL,
	`health_score` integer DEFAULT 0 NOT NULL,
	`health_reasons` text DEFAULT '[]' NOT NULL,
	`refreshed_at` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`manager_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `client_summaries_health_idx` ON `client_summaries` (`health_score`);--> statement-breakpoint
CREATE INDEX `client_summaries_manager_idx` ON `client_summaries` (`manager_id`);