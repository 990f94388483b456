CREATE TABLE `audit_chat_blocks` (
	`audit_id` text PRIMARY KEY NOT NULL,
	`audit_finished_at` text NOT NULL,
	`block` text NOT NULL,
	FOREIGN KEY (`audit_id`) REFERENCES `audits`(`id`) ON UPDATE no action ON DELETE cascade
);
