CREATE TABLE `report_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`report_id` text NOT NULL,
	`visit_id` text NOT NULL,
	`event` text NOT NULL,
	`section` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`report_id`) REFERENCES `seo_reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `report_events_visit_unique` ON `report_events` (`report_id`,`visit_id`,`event`,`section`);--> statement-breakpoint
CREATE INDEX `report_events_report_idx` ON `report_events` (`report_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `report_view_stats` (
	`report_id` text PRIMARY KEY NOT NULL,
	`opens` integer DEFAULT 0 NOT NULL,
	`first_opened_at` text,
	`last_opened_at` text,
	FOREIGN KEY (`report_id`) REFERENCES `seo_reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `report_view_stats_last_idx` ON `report_view_stats` (`last_opened_at`);