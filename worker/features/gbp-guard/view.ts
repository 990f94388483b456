// The guard's screen for one business: its watched locations (checked when, verified or not) and the changes found,
// each side in words, with the risks of each decision worked out before the person clicks.
import type { Db } from "../../platform/db/client";
import type { GbpLocationFields } from "../../platform/providers/rules/gbp-location";
import { findConnection } from "../integrations";
import { getProfile } from "../../platform/auth/users";
import { changesOf, watchedLocations, type GuardChangeRow, type GuardLocationRow } from "./queries";
import { decisionRisks } from "./decide";
import { fieldText } from "./rules/fields";
import {
  GUARD_SOURCE_TEXT,
  GUARD_STATUS_TEXT,
  GUARD_WORDING,
  GUARDED_FIELD_LABELS,
  voiceText,
  type GuardChangeView,
  type GuardLocationView,
  type GuardResponse,
} from "./rules/guard";
import type { VoiceOfMerchantAction } from "../../platform/providers/rules/gbp-location";

const UNRESOLVED = new Set(["open", "accepting", "rejecting"]);

export async function changeView(db: Db, c: GuardChangeRow, titles: Map<string, string>): Promise<GuardChangeView> {
  const before = JSON.parse(c.before) as GbpLocationFields;
  const after = JSON.parse(c.after) as GbpLocationFields;
  const open = c.status === "open";
  return {
    id: c.id,
    locationName: c.locationName,
    locationTitle: titles.get(c.locationName) ?? "",
    field: c.field,
    label: GUARDED_FIELD_LABELS[c.field],
    source: c.source,
    sourceText: GUARD_SOURCE_TEXT[c.source],
    beforeText: fieldText(c.field, before),
    afterText: fieldText(c.field, after),
    status: c.status,
    statusText: GUARD_STATUS_TEXT[c.status],
    detectedAt: c.detectedAt,
    resolvedAt: c.resolvedAt,
    error: c.error,
    rejectRisks: open ? await decisionRisks(db, c, "reject") : [],
    acceptRisks: open ? await decisionRisks(db, c, "accept") : [],
  };
}

function locationView(l: GuardLocationRow): GuardLocationView {
  const action = (l.voiceAction as VoiceOfMerchantAction | null) ?? null;
  const checkText =
    l.status === "failed"
      ? (l.lastError ?? GUARD_WORDING.couldNotCheck)
      : l.lastCheckedAt
        ? GUARD_WORDING.noChanges
        : l.status === "queued" || l.status === "checking"
          ? GUARD_WORDING.checkQueued
          : GUARD_WORDING.neverChecked;
  return {
    locationName: l.locationName,
    title: l.locationTitle,
    status: l.status,
    lastCheckedAt: l.lastCheckedAt,
    checkText,
    verified: l.hasVoiceOfMerchant,
    voiceAction: action,
    voiceText: action ? voiceText(action, l.voiceReason) : null,
  };
}

export async function guardView(db: Db, userId: string): Promise<GuardResponse> {
  const [connection, locations, changes, profile] = await Promise.all([findConnection(db, userId), watchedLocations(db, userId), changesOf(db, userId), getProfile(db, userId)]);
  const titles = new Map(locations.map((l) => [l.locationName, l.locationTitle]));
  const views = await Promise.all(changes.map((c) => changeView(db, c, titles)));
  const connectionState = !connection ? "none" : connection.status === "needs_reconnect" ? "needs_reconnect" : "connected";
  const open = views.filter((v) => UNRESOLVED.has(v.status));
  const locationViews = locations.map(locationView);
  for (const l of locationViews) {
    if (l.status === "checked" && open.some((c) => c.locationName === l.locationName)) l.checkText = `${open.filter((c) => c.locationName === l.locationName).length} change(s) to decide`;
  }
  return {
    connection: connectionState,
    business: { userId, name: profile?.companyName || profile?.email || "" },
    locations: locationViews,
    open,
    recent: views.filter((v) => !UNRESOLVED.has(v.status)).slice(0, 20),
    notice: connectionState === "none" ? GUARD_WORDING.notConnected : null,
  };
}
