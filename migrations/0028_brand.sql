CREATE TABLE `brand` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`logo_key` text,
	`logo_content_type` text,
	`logo_version` integer DEFAULT 0 NOT NULL,
	`accent_color` text,
	`website` text,
	`support_email` text,
	`support_phone` text,
	`mail_sender_name` text,
	`footer_line` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
