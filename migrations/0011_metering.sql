CREATE TABLE `meter_counters` (
	`key` text PRIMARY KEY NOT NULL,
	`reserved_micro` integer DEFAULT 0 NOT NULL,
	`settled_micro` integer DEFAULT 0 NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `meter_counters_expires_idx` ON `meter_counters` (`expires_at`);--> statement-breakpoint
CREATE TABLE `meter_reservations` (
	`id` text PRIMARY KEY NOT NULL,
	`keys` text NOT NULL,
	`amount_micro` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `meter_reservations_created_idx` ON `meter_reservations` (`created_at`);