// The admin report view's small timeline of the shared link (issue 10): first opened, sections read, chat started.
import { useQuery } from "@tanstack/react-query";
import { openedLabel, timeAgo, type ReportTimelineEntry } from "../../../worker/features/reports/rules/event-names";
import { formatLongUsDate } from "../../../worker/features/reports/rules/format";
import { reportViewsQuery } from "./views-queries";
import { RetryAlert } from "../../design/alert";
import { EyeIcon } from "../../design/icons";
import "./report-admin.css";

const SECTION_NAMES: Record<string, string> = {
  "seo-potential": "SEO Potential",
  "google-ads": "Google Ads",
  "meta-tags": "Meta Tags",
  "business-description": "Business Description",
  "gmb-articles": "GMB Articles",
  "blog-structures": "Blog Outlines",
  "facebook-posts": "Facebook Posts",
};

function describe(e: ReportTimelineEntry): string {
  switch (e.event) {
    case "opened":
      return "Opened the report";
    case "section_viewed":
      return `Read ${SECTION_NAMES[e.section ?? ""] ?? e.section}`;
    case "print":
      return "Printed / saved as PDF";
    case "chat_started":
      return "Started a chat";
  }
}

/** Consecutive section reads of one visit are folded into one line. */
function fold(events: ReportTimelineEntry[]): { at: string; text: string }[] {
  const out: { at: string; text: string; visit: string; sections?: string[] }[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (e.event === "section_viewed" && last?.sections && last.visit === e.visit) {
      last.sections.push(SECTION_NAMES[e.section ?? ""] ?? e.section ?? "");
      last.text = `Read ${last.sections.join(", ")}`;
      continue;
    }
    out.push({
      at: e.at,
      text: describe(e),
      visit: e.visit,
      sections: e.event === "section_viewed" ? [SECTION_NAMES[e.section ?? ""] ?? e.section ?? ""] : undefined,
    });
  }
  return out;
}

export function ReportViewsTimeline({ reportId }: { reportId: string }) {
  const views = useQuery(reportViewsQuery(reportId));
  return (
    <section className="card report-views" aria-labelledby="report-views-title">
      <h2 id="report-views-title" className="report-views-title">
        <EyeIcon size="sm" />
        Shared link activity
      </h2>
      {views.isPending ? (
        <p className="muted" role="status">
          Loading activity…
        </p>
      ) : views.isError ? (
        <RetryAlert message="Could not load the shared link's activity." onRetry={() => void views.refetch()} />
      ) : views.data.stats.opens === 0 ? (
        <p className="muted">Not opened yet. You will see here when the prospect opens the link and what they read.</p>
      ) : (
        <>
          <p className="report-views-summary">
            <strong>{openedLabel(views.data.stats)}</strong>
            {views.data.stats.first_opened_at ? <> · first {formatLongUsDate(views.data.stats.first_opened_at)}</> : null}
            {views.data.stats.chat_started ? <> · started a chat</> : null}
          </p>
          <ol className="report-views-list">
            {fold(views.data.events).map((item, i) => (
              <li key={i}>
                <time dateTime={item.at} title={new Date(item.at).toLocaleString()}>
                  {timeAgo(item.at)}
                </time>
                <span>{item.text}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
