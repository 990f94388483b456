// A scheduled post's state as a badge: Scheduled, Google is reviewing, Live, Rejected, Failed, Due — copy and post it.
import { SCHEDULE_STATE_LABELS, type ScheduleState } from "../../../worker/features/content/rules/gbp-schedule";
import { Badge, type BadgeTone } from "../../design/badge";

const STATE_TONES: Record<ScheduleState, BadgeTone> = {
  scheduled: "view",
  publishing: "soon",
  processing: "soon",
  live: "success",
  rejected: "danger",
  failed: "danger",
  reminded: "warning",
};

export function ScheduleStateBadge({ state }: { state: ScheduleState }) {
  return <Badge tone={STATE_TONES[state]}>{SCHEDULE_STATE_LABELS[state]}</Badge>;
}
