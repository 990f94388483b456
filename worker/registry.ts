// The registry: every capability, one line each. The app mounts their routes in this order, the cron runs their
// sweeps, and their reactions to events (worker/platform/events.ts) are wired here, so no capability imports another
// to tell it something happened.
import type { Capability } from "./platform/capability";
import { react, type EventName, type Reaction } from "./platform/events";
import { capability as health } from "./features/health/capability";
import { capability as profile } from "./features/profile/capability";
import { capability as setup } from "./features/setup/capability";
import { capability as accounts } from "./features/accounts/capability";
import { capability as prospects } from "./features/prospects/capability";
import { capability as reports } from "./features/reports/capability";
import { capability as files } from "./features/files/capability";
import { capability as content } from "./features/content/capability";
import { capability as usage } from "./features/usage/capability";
import { capability as chat } from "./features/chat/capability";
import { capability as tools } from "./features/tools/capability";
import { capability as billing } from "./features/billing/capability";
import { capability as aiVisibility } from "./features/ai-visibility/capability";
import { capability as integrations } from "./features/integrations/capability";
import { capability as audits } from "./features/audits/capability";
import { capability as rank } from "./features/rank/capability";
import { capability as citations } from "./features/citations/capability";
import { capability as reviews } from "./features/reviews/capability";
import { capability as widgets } from "./features/widgets/capability";
import { capability as notifications } from "./features/notifications/capability";
import { capability as reviewRequests } from "./features/review-requests/capability";
import { capability as brand } from "./features/brand/capability";
import { capability as clientReports } from "./features/client-reports/capability";
import { capability as gbpGuard } from "./features/gbp-guard/capability";
import { capability as commandCenter } from "./features/command-center/capability";
import { capability as pipeline } from "./features/pipeline/capability";

/**
 * The order is the routes' order where two capabilities share a path prefix: setup's /api/admin/outbox and
 * /api/admin/setup before accounts' /api/admin (whose requireAdmin covers /api/admin/*), reports' /api/shared/reports
 * before AI Visibility's shared answers under it.
 */
export const capabilities = [
  health,
  profile,
  setup,
  accounts,
  prospects,
  reports,
  files,
  content,
  usage,
  chat,
  tools,
  billing,
  aiVisibility,
  integrations,
  audits,
  rank,
  citations,
  reviews,
  widgets,
  notifications,
  reviewRequests,
  brand,
  clientReports,
  gbpGuard,
  commandCenter,
  pipeline,
] as const;

for (const { on } of capabilities as readonly Capability[]) {
  for (const [name, reaction] of Object.entries(on ?? {})) react(name as EventName, reaction as Reaction<EventName>);
}
