ALTER TABLE `widget_leads` ADD `mail_outcome` text;--> statement-breakpoint
ALTER TABLE `widgets` ADD `daily_cap_cents` integer DEFAULT 200 NOT NULL;