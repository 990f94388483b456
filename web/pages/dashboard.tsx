// /dashboard: welcome, admin-view banner, three stat cards and the coming-soon tool cards (spec §2 Dashboard).
import { StatCard } from "../components/stat-card";
import type { ComponentType } from "react";
import { useNavigate } from "react-router";
import { Alert } from "../components/alert";
import { Badge } from "../components/badge";
import { Button } from "../components/button";
import { ClockIcon, LightbulbIcon, ToolboxIcon } from "../components/icons";
import { ToolIcon } from "../components/tool-icon";
import { useAuth } from "../lib/auth";
import { DASHBOARD_TOOLS, DASHBOARD_TOOL_COUNT, GROUP_LABELS, type ToolGroup } from "../lib/tools";
import { clearViewAs, useViewAs } from "../lib/view-as";

const STATS: { value: string; label: string; icon: ComponentType }[] = [
  { value: String(DASHBOARD_TOOL_COUNT), label: "Marketing tools", icon: ToolboxIcon },
  { value: "500+", label: "Content ideas", icon: LightbulbIcon },
  { value: "10+ hrs", label: "Saved weekly", icon: ClockIcon },
];

export default function DashboardPage() {
  const { user, profile } = useAuth();
  const viewAs = useViewAs();
  const navigate = useNavigate();

  const viewedName = viewAs ? viewAs.viewingUserDetails.company_name || viewAs.viewingUserEmail || "Unknown Company" : null;
  const ownName = profile?.company_name || user?.email?.split("@")[0] || "";
  const greeting = viewAs ? `${viewedName}'s dashboard` : ownName ? `Welcome back, ${ownName}` : "Welcome back";

  return (
    <>
      <title>Dashboard · Porchlight</title>
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

      <header className="page-header">
        <div>
          <p className="page-eyebrow">Dashboard</p>
          <h1 className="page-title">{greeting}</h1>
          <p className="page-subtitle">
            Your AI marketing toolkit for local home-service businesses. New tools are rolling out — here's what's coming.
          </p>
        </div>
      </header>

      <section aria-label="At a glance" className="stats">
        {STATS.map(({ value, label, icon }) => (
          <StatCard key={label} icon={icon} value={value} label={label} />
        ))}
      </section>

      {(["content", "social"] as ToolGroup[]).map((group) => {
        const tools = DASHBOARD_TOOLS.filter((t) => t.group === group);
        const headingId = `tools-${group}`;
        return (
          <section className="section" key={group} aria-labelledby={headingId}>
            <h2 className="section-title" id={headingId}>
              {GROUP_LABELS[group].dashboard}
              <span className="section-count">{tools.length}</span>
            </h2>
            <div className="tool-grid">
              {tools.map((tool) => (
                  <article className="card tool-card" key={tool.path}>
                    <div className="tool-card-head">
                      <span className="tool-icon">
                        <ToolIcon path={tool.path} />
                      </span>
                      <Badge tone="soon">Coming Soon</Badge>
                    </div>
                    <h3 className="tool-card-title">{tool.name}</h3>
                    <p className="tool-card-text">{tool.blurb}</p>
                    <Button variant="secondary" disabled>
                      Open tool
                    </Button>
                  </article>
              ))}
            </div>
          </section>
        );
      })}
    </>
  );
}
