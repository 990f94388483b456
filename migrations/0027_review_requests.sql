CREATE TABLE `review_links` (
	`slug` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_links_user_unique` ON `review_links` (`user_id`);--> statement-breakpoint
CREATE TABLE `review_opt_outs` (
	`scope` text NOT NULL,
	`address` text NOT NULL,
	`via` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`scope`, `address`)
);
--> statement-breakpoint
CREATE INDEX `review_opt_outs_address_idx` ON `review_opt_outs` (`address`);--> statement-breakpoint
CREATE TABLE `review_request_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`delay_minutes` integer DEFAULT 120 NOT NULL,
	`email_subject` text,
	`email_template` text,
	`sms_template` text,
	`quiet_start` text DEFAULT '20:00' NOT NULL,
	`quiet_end` text DEFAULT '08:00' NOT NULL,
	`sms_enabled` integer DEFAULT true NOT NULL,
	`place_id` text,
	`hook_token_hash` text,
	`hook_token_created_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_request_settings_hook_unique` ON `review_request_settings` (`hook_token_hash`);--> statement-breakpoint
CREATE TABLE `review_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`customer_name` text NOT NULL,
	`email` text,
	`phone` text,
	`channel` text NOT NULL,
	`source` text NOT NULL,
	`external_job_id` text,
	`token` text NOT NULL,
	`status` text DEFAULT 'scheduled' NOT NULL,
	`due_at` text NOT NULL,
	`enqueued_at` text,
	`claimed_at` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`sent_at` text,
	`delivered_at` text,
	`opened_at` text,
	`clicks` integer DEFAULT 0 NOT NULL,
	`reminder_due_at` text,
	`reminder_sent_at` text,
	`provider_message_id` text,
	`last_error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_requests_token_unique` ON `review_requests` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `review_requests_job_unique` ON `review_requests` (`user_id`,`external_job_id`);--> statement-breakpoint
CREATE INDEX `review_requests_user_idx` ON `review_requests` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `review_requests_email_idx` ON `review_requests` (`user_id`,`email`,`created_at`);--> statement-breakpoint
CREATE INDEX `review_requests_phone_idx` ON `review_requests` (`user_id`,`phone`,`created_at`);--> statement-breakpoint
CREATE INDEX `review_requests_due_idx` ON `review_requests` (`status`,`due_at`);--> statement-breakpoint
CREATE INDEX `review_requests_reminder_idx` ON `review_requests` (`reminder_due_at`);--> statement-breakpoint
CREATE INDEX `review_requests_provider_idx` ON `review_requests` (`provider_message_id`);