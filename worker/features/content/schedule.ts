// The GMB Post Scheduler's posts as the /api/schedule routes change them: placed at a time from now on, at one of the
// locations the user chose on the Integrations page (none: a reminder when due), and changed only before they go.
import type { Db } from "../../platform/db/client";
import { ErrorCode, type FieldErrors } from "../../platform/errors";
import { findConnection, findScheduledPost, insertScheduledPost, parseLocations, updateScheduledPost, type ScheduledPostRow } from "../integrations";
import { editableState, scheduleTimeProblem, type SchedulePatch, type ScheduleRequest, type ScheduleState } from "./rules/gbp-schedule";

export const SCHEDULED_POST_NOT_FOUND = "Scheduled post not found";
const GONE_TO_GOOGLE = "This post has already gone to Google, so it can no longer be changed.";
const PICK_LOCATION = "Pick one of the locations you chose on the Integrations page";

type ScheduleRefusal = { status: 400 | 404 | 409; code: string; message: string; fields?: FieldErrors };
type Scheduled = { ok: true; row: ScheduledPostRow } | { ok: false; refusal: ScheduleRefusal };

const refusal = (status: ScheduleRefusal["status"], code: string, message: string, fields?: FieldErrors) => ({ ok: false as const, refusal: { status, code, message, fields } });
const timeRefusal = (problem: string) => refusal(400, ErrorCode.validation, `scheduledAt: ${problem}`, { scheduledAt: [problem] });
const LOCATION_REFUSAL = refusal(400, ErrorCode.validation, `locationName: ${PICK_LOCATION}`, { locationName: [PICK_LOCATION] });
const GONE_REFUSAL = refusal(409, ErrorCode.conflict, GONE_TO_GOOGLE);

/** The location must be one the user chose on the Integrations page; null places a reminder. */
async function resolveLocation(db: Db, userId: string, name: string | null | undefined) {
  if (!name) return { ok: true as const, name: null, title: null };
  const row = await findConnection(db, userId);
  const chosen = row ? parseLocations(row.chosenLocations).find((l) => l.name === name) : undefined;
  if (!chosen) return { ok: false as const };
  return { ok: true as const, name: chosen.name, title: chosen.title };
}

/** A new scheduled post. */
export async function schedulePost(db: Db, userId: string, req: ScheduleRequest): Promise<Scheduled> {
  const problem = scheduleTimeProblem(req.scheduledAt);
  if (problem) return timeRefusal(problem);
  const location = await resolveLocation(db, userId, req.locationName);
  if (!location.ok) return LOCATION_REFUSAL;
  const row = await insertScheduledPost(db, {
    userId,
    post: req.post,
    scheduledAt: new Date(req.scheduledAt).toISOString(),
    timezone: req.timezone,
    locationName: location.name,
    locationTitle: location.title,
    contentId: req.contentId ?? null,
  });
  return { ok: true, row };
}

/** A post moved or edited, while it has not gone to Google. */
export async function reschedulePost(db: Db, userId: string, id: string, patch: SchedulePatch): Promise<Scheduled> {
  const existing = await findScheduledPost(db, id, userId);
  if (!existing) return refusal(404, ErrorCode.notFound, SCHEDULED_POST_NOT_FOUND);
  if (!editableState(existing.state as ScheduleState)) return GONE_REFUSAL;
  const problem = patch.scheduledAt ? scheduleTimeProblem(patch.scheduledAt) : null;
  if (problem) return timeRefusal(problem);
  const location = patch.locationName !== undefined ? await resolveLocation(db, userId, patch.locationName) : undefined;
  if (location && !location.ok) return LOCATION_REFUSAL;
  const row = await updateScheduledPost(db, id, userId, {
    post: patch.post,
    scheduledAt: patch.scheduledAt ? new Date(patch.scheduledAt).toISOString() : undefined,
    timezone: patch.timezone,
    ...(location ? { locationName: location.name, locationTitle: location.title } : {}),
  });
  return row ? { ok: true, row } : GONE_REFUSAL;
}
