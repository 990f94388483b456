CREATE TABLE `ai_budgets` (
	`user_id` text PRIMARY KEY NOT NULL,
	`monthly_usd` real NOT NULL,
	`updated_by` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `ai_usage_daily` (
	`user_key` text NOT NULL,
	`day` text NOT NULL,
	`tool_name` text NOT NULL,
	`model` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`tokens` integer DEFAULT 0 NOT NULL,
	`cost` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_key`, `day`, `tool_name`, `model`)
);
--> statement-breakpoint
CREATE INDEX `ai_usage_daily_day_idx` ON `ai_usage_daily` (`day`);--> statement-breakpoint
CREATE TABLE `generated_posts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`image_prompt` text DEFAULT '' NOT NULL,
	`image` text DEFAULT '' NOT NULL,
	`post_type` text NOT NULL,
	`tone` text NOT NULL,
	`length` text NOT NULL,
	`request` text DEFAULT '' NOT NULL,
	`source` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `generated_posts_user_idx` ON `generated_posts` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `ai_usage_logs` ADD `tokens_estimated` integer DEFAULT false NOT NULL;