// The agency's brand (one row).
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { updatedAt } from "../db/columns";

/** The agency's brand (issue 30): one row per deployment (id "agency"); absent until an admin saves the Brand page. */
export const brand = sqliteTable("brand", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  logoKey: text("logo_key"),
  logoContentType: text("logo_content_type"),
  /** Bumped on every logo upload: the logo's URL carries it (`/api/brand/logo?v=`), so caches never serve an old one. */
  logoVersion: integer("logo_version").notNull().default(0),
  accentColor: text("accent_color"),
  website: text("website"),
  supportEmail: text("support_email"),
  supportPhone: text("support_phone"),
  mailSenderName: text("mail_sender_name"),
  footerLine: text("footer_line"),
  updatedAt: updatedAt(),
});
