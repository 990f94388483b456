// /dashboard: welcome, admin-view banner, three stat cards, for an admin the top of the attention queue (issue 41), the
// tools that work, then the coming-soon tool cards (spec §2 Dashboard).
import { StatCard } from "../../../design/stat-card";
import type { ComponentType } from "react";
import { Link, useNavigate } from "react-router";
import { Alert } from "../../../design/alert";
import { Badge } from "../../../design/badge";
import { Button, buttonClass } from "../../../design/button";
import { ArrowRightIcon, ClockIcon, LightbulbIcon, ToolboxIcon } from "../../../design/icons";
import { ToolIcon } from "../tool-icon";
import { useAuth } from "../../../lib/auth";
import { COMING_SOON_GROUPS, DASHBOARD_TOOLS, DASHBOARD_TOOL_COUNT, GROUP_LABELS, SIDEBAR_GROUPS, TOOL_COUNT, WORKING_TOOLS, type Tool } from "../../../lib/tools";
import { clearViewAs, useViewAs } from "../../../lib/view-as";
import { useOwnRankFigures } from "../../rank";
import { ALERT_LABELS } from "../../rank";
import type { TrackedKeywordView } from "../../../../worker/features/rank/rules/view";
import { PageHeader } from "../../../design/page-header";
import { PageTitle } from "../../brand";
import { AttentionTop } from "../../command-center";

/** An account this young has just signed up: it is welcomed, not welcomed back. */
const NEW_ACCOUNT_MS = 24 * 60 * 60 * 1000;

function isNewAccount(createdAt: string | undefined, now = Date.now()): boolean {
  const created = createdAt ? Date.parse(createdAt) : NaN;
  return Number.isFinite(created) && now - created < NEW_ACCOUNT_MS;
}

/**
 * While any of the spec's tools is still to come, the working tools lead in a group of their own and the coming-soon
 * ones follow in the spec's two groups, counted by the first stat card. Once every one of them works, the tools are
 * shown in their own groups (as the sidebar has them) and the card counts the tools ready to use.
 */
const ALL_READY = DASHBOARD_TOOL_COUNT === 0;

const STATS: { value: string; label: string; icon: ComponentType }[] = [
  ALL_READY
    ? { value: String(TOOL_COUNT), label: "Tools ready to use", icon: ToolboxIcon }
    : { value: String(DASHBOARD_TOOL_COUNT), label: "Tools coming soon", icon: ToolboxIcon },
  { value: "500+", label: "Content ideas", icon: LightbulbIcon },
  { value: "10+ hrs", label: "Saved weekly", icon: ClockIcon },
];

export default function DashboardPage() {
  const { user, profile, isAdmin } = useAuth();
  const viewAs = useViewAs();
  const navigate = useNavigate();
  const rank = useOwnRankFigures(Boolean(user));
  const figures = rankFigures(rank);

  const viewedName = viewAs ? viewAs.viewingUserDetails.company_name || viewAs.viewingUserEmail || "Unknown Company" : null;
  const ownName = profile?.company_name || user?.email?.split("@")[0] || "";
  const welcome = isNewAccount(user?.created_at) ? "Welcome" : "Welcome back";
  const greeting = viewAs ? `${viewedName}'s dashboard` : ownName ? `${welcome}, ${ownName}` : welcome;

  return (
    <>
      <PageTitle>Dashboard</PageTitle>
      {viewAs ? (
        <div className="dashboard-banner">
          <Alert tone="warning" title="Admin view">
            <p>
              You are viewing the dashboard as {viewAs.viewingUserEmail || "Unknown Email"}. This is a simulated, read-only
              view: some actions may be limited.
            </p>
            <p className="banner-actions">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => {
                  clearViewAs();
                  navigate("/dashboard");
                }}
              >
                Return to Admin View
              </Button>
            </p>
          </Alert>
        </div>
      ) : null}

      <PageHeader
        eyebrow="Dashboard"
        title={greeting}
        subtitle="Your AI marketing toolkit for local home-service businesses. Start with the tools below; more are on the way."
      />

      <section aria-label="At a glance" className="stats">
        {STATS.map(({ value, label, icon }) => (
          <StatCard key={label} icon={icon} value={value} label={label} />
        ))}
      </section>

      {isAdmin && !viewAs ? <AttentionTop /> : null}
      <RankAlerts keywords={rank.alerts} />

      {ALL_READY ? (
        SIDEBAR_GROUPS.map((group) => (
          <ToolSection
            key={group}
            id={`tools-${group}`}
            title={GROUP_LABELS[group].dashboard}
            tools={WORKING_TOOLS.filter((t) => t.group === group)}
            figures={figures}
          />
        ))
      ) : (
        <ToolSection id="tools-ready" title="Ready to use" tools={WORKING_TOOLS} figures={figures} />
      )}
      {COMING_SOON_GROUPS.filter((group) => DASHBOARD_TOOLS.some((t) => t.group === group)).map((group) => (
        <ToolSection
          key={group}
          id={`tools-${group}`}
          title={GROUP_LABELS[group].dashboard}
          tools={DASHBOARD_TOOLS.filter((t) => t.group === group)}
        />
      ))}
    </>
  );
}

/** The latest figure a tool has for this user, by tool path ("SoLV 44% for …", "2 keywords up, 1 down"). */
function rankFigures({ solv, keywords }: ReturnType<typeof useOwnRankFigures>): Record<string, string> {
  const figures: Record<string, string> = {};
  if (solv) figures["/tools/local-search-grid"] = `Last scan: SoLV ${Math.round(solv.value)}% for “${solv.keyword}”`;
  if (keywords) figures["/tools/local-rank-tracker"] = `Since the last check: ${keywords.up} keyword${keywords.up === 1 ? "" : "s"} up, ${keywords.down} down`;
  return figures;
}

/** Tracked keywords whose latest check dropped 3+ places or left the top 3 (issue 19), each linking to its history. */
function RankAlerts({ keywords }: { keywords: readonly TrackedKeywordView[] }) {
  if (keywords.length === 0) return null;
  const place = (rank: number | null) => (rank === null ? "not in the top 20" : `#${rank}`);
  return (
    <div className="dashboard-banner">
      <Alert tone="warning" title={keywords.length === 1 ? "A tracked keyword moved down" : `${keywords.length} tracked keywords moved down`}>
        <ul className="rank-alert-list">
          {keywords.map((k) => (
            <li key={k.id}>
              <Link to={`/tools/local-rank-tracker/${encodeURIComponent(k.id)}`}>“{k.keyword}”</Link>: {k.alerts.map((a) => ALERT_LABELS[a].toLowerCase()).join(" and ")} on Google
              Maps ({place(k.map.sinceLast.from)} → {place(k.map.sinceLast.to)})
            </li>
          ))}
        </ul>
      </Alert>
    </div>
  );
}

function ToolSection({ id, title, tools, figures = {} }: { id: string; title: string; tools: readonly Tool[]; figures?: Record<string, string> }) {
  return (
    <section className="section" aria-labelledby={id}>
      <h2 className="section-title" id={id}>
        {title}
        <span className="section-count">{tools.length}</span>
      </h2>
      <div className="tool-grid">
        {tools.map((tool) => (
          <ToolCard key={tool.path} tool={tool} figure={figures[tool.path]} />
        ))}
      </div>
    </section>
  );
}

/** A working tool opens from its card; a coming-soon one carries the tag and a disabled button (spec §2). */
function ToolCard({ tool, figure }: { tool: Tool; figure?: string }) {
  return (
    <article className="card tool-card">
      <div className="tool-card-head">
        <span className="tool-icon">
          <ToolIcon path={tool.path} />
        </span>
        {!tool.available ? <Badge tone="soon">Coming Soon</Badge> : tool.isNew ? <Badge tone="new">New</Badge> : null}
      </div>
      <h3 className="tool-card-title">{tool.name}</h3>
      <p className="tool-card-text">{tool.blurb}</p>
      {figure ? <p className="tool-card-figure">{figure}</p> : null}
      {tool.available ? (
        <Link className={buttonClass("primary")} to={tool.path}>
          Open tool
          <ArrowRightIcon size="sm" />
        </Link>
      ) : (
        <Button variant="secondary" disabled>
          Open tool
        </Button>
      )}
    </article>
  );
}
