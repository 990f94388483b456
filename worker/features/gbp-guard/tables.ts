// The guard on Google Business Profiles (issue 41): each watched location's snapshot, verification state and nightly
// check, and every change found to a guarded field (by Google, or by someone outside Porchlight) with what became of it.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../../platform/db/columns";
import { jobColumns } from "../../platform/jobs/columns";
import { userId } from "../../platform/auth/tables";
import { GUARDED_FIELDS } from "../../platform/providers/rules/gbp-location";
import { GUARD_CHANGE_SOURCES, GUARD_CHANGE_STATUSES, GUARD_CHECK_STATUSES } from "./rules/guard";

/**
 * A location the guard watches: one of a connected user's chosen locations. `night` is the UTC date whose check was
 * claimed (set by compare-and-set when queued), so a location is checked once a night however often the cron runs;
 * `status` moves queued → checking → checked | failed under the job engine's claim.
 */
export const gbpGuardLocations = sqliteTable(
  "gbp_guard_locations",
  {
    id: id(),
    userId: userId(),
    /** `accounts/{a}/locations/{l}` */
    locationName: text("location_name").notNull(),
    locationTitle: text("location_title").notNull().default(""),
    /** JSON GbpLocationFields: the owner's values at the last check, or as Porchlight last sent them. Null before the first. */
    snapshot: text("snapshot"),
    night: text("night"),
    ...jobColumns(GUARD_CHECK_STATUSES, "idle"),
    lastCheckedAt: text("last_checked_at"),
    /** Why the last check failed, in plain words: the location shows "could not be checked", never "no changes". */
    lastError: text("last_error"),
    /** Verifications API: null until first read. */
    hasVoiceOfMerchant: integer("has_voice_of_merchant", { mode: "boolean" }),
    voiceAction: text("voice_action"),
    voiceReason: text("voice_reason"),
    voiceChangedAt: text("voice_changed_at"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("gbp_guard_locations_unique").on(t.userId, t.locationName), index("gbp_guard_locations_night_idx").on(t.night), index("gbp_guard_locations_status_idx").on(t.status, t.claimedAt)],
);

/**
 * A change to one guarded field of a location. `source` google: Google's own edit (getGoogleUpdated's diffMask),
 * `before` the owner's value and `after` Google's; outside: the owner's value changed since the last snapshot by
 * someone else among the profile's managers, `before` the snapshot's value and `after` the new one. Accept keeps
 * `after` live, reject sends `before`; `accepting`/`rejecting` are the compare-and-set claims while Google is asked.
 * One unresolved change per location and field.
 */
export const gbpGuardChanges = sqliteTable(
  "gbp_guard_changes",
  {
    id: id(),
    userId: userId(),
    locationName: text("location_name").notNull(),
    field: text("field", { enum: GUARDED_FIELDS }).notNull(),
    source: text("source", { enum: GUARD_CHANGE_SOURCES }).notNull(),
    /** JSON GbpLocationFields holding only `field`. */
    before: text("before").notNull(),
    after: text("after").notNull(),
    status: text("status", { enum: GUARD_CHANGE_STATUSES }).notNull().default("open"),
    detectedAt: text("detected_at").notNull(),
    resolvedAt: text("resolved_at"),
    /** Who accepted or rejected it (a user id; the admin acting for a client). */
    resolvedBy: text("resolved_by"),
    /** Google's refusal of the last accept or reject, in plain words. */
    error: text("error"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("gbp_guard_changes_open_unique")
      .on(t.userId, t.locationName, t.field)
      .where(sql`status in ('open', 'accepting', 'rejecting')`),
    index("gbp_guard_changes_user_idx").on(t.userId, t.detectedAt),
  ],
);
