CREATE TABLE `widget_leads` (
	`id` text PRIMARY KEY NOT NULL,
	`widget_id` text NOT NULL,
	`prospect_id` text NOT NULL,
	`report_id` text NOT NULL,
	`audit_id` text,
	`status` text NOT NULL,
	`visitor_email` text NOT NULL,
	`address_key` text NOT NULL,
	`queued_for_allowance` integer DEFAULT false NOT NULL,
	`mailed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`widget_id`) REFERENCES `widgets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`prospect_id`) REFERENCES `prospects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `widget_leads_widget_idx` ON `widget_leads` (`widget_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `widget_leads_status_idx` ON `widget_leads` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `widget_leads_report_idx` ON `widget_leads` (`report_id`);--> statement-breakpoint
CREATE TABLE `widgets` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`accent` text NOT NULL,
	`logo_url` text,
	`ask_website` integer DEFAULT true NOT NULL,
	`ask_phone` integer DEFAULT false NOT NULL,
	`consent_text` text DEFAULT '' NOT NULL,
	`origins` text DEFAULT '[]' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `widgets_owner_idx` ON `widgets` (`owner_id`,`created_at`);