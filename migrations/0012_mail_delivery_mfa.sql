CREATE TABLE `mfa_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`factor_id` text NOT NULL,
	`session_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`verified_at` text,
	FOREIGN KEY (`factor_id`) REFERENCES `mfa_factors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mfa_challenges_factor_idx` ON `mfa_challenges` (`factor_id`);--> statement-breakpoint
CREATE TABLE `mfa_factors` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`friendly_name` text,
	`factor_type` text DEFAULT 'totp' NOT NULL,
	`status` text DEFAULT 'unverified' NOT NULL,
	`secret_ciphertext` text NOT NULL,
	`last_used_step` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mfa_factors_user_idx` ON `mfa_factors` (`user_id`);--> statement-breakpoint
ALTER TABLE `outbox` ADD `html` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `kind` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `status` text DEFAULT 'kept' NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox` ADD `last_error` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `provider_message_id` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `sent_at` text;--> statement-breakpoint
CREATE INDEX `outbox_status_idx` ON `outbox` (`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `auth_method` text DEFAULT 'password' NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `mfa_verified_at` text;