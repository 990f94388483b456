ALTER TABLE `email_confirmations` ADD `kind` text DEFAULT 'signup' NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `password_reset_at` text;