// The AI usage panel (spec part 2 §2): Tool Uses, Total Tokens, Estimated Cost, Usage by Tool, Recent Activity,
// the footnote, the monthly allowance (used, left, renewal), and (on /usage) the 30-day chart.
import { Link } from "react-router";
import { formatCost } from "../../../worker/domain/usage-cost";
import {
  USAGE_EMPTY,
  USAGE_FOOTNOTE,
  USAGE_LOAD_FAILED,
  USAGE_LOADING,
  type UsageStats,
} from "../../../worker/features/usage/rules/usage-stats";
import { formatDateTime } from "../../lib/format-date";
import { useBusinessTimeZone } from "../profile";
import { useViewAs } from "../../lib/view-as";
import { USAGE_COUNTING_NOTE, useUsage } from "./queries";
import { AllowanceMeter } from "./allowance-meter";
import { RetryAlert } from "../../design/alert";
import { ClockIcon, SparklesIcon, TrendingUpIcon } from "../../design/icons";
import { Placeholder } from "../../design/placeholder";
import { StatCard } from "../../design/stat-card";
import { UsageChart } from "./usage-chart";
import { TableHead } from "../../design/table-head";
import "./usage.css";

const tokens = (n: number) => n.toLocaleString("en-US");

/** `title`: the panel's heading; /usage names it apart from its own page title. */
export function UsagePanel({
  withChart = false,
  withLink = false,
  title = "AI Usage",
}: {
  withChart?: boolean;
  withLink?: boolean;
  title?: string;
}) {
  const viewAs = useViewAs();
  const { query, counting } = useUsage(viewAs?.viewingUserId ?? null);
  return (
    <section className="section usage-panel" aria-labelledby="usage-title" aria-busy={query.isPending || undefined}>
      <div className="usage-panel-head">
        <h2 className="section-title" id="usage-title">
          {title}
        </h2>
        {withLink ? (
          <Link to="/usage" className="usage-link">
            View usage statistics
          </Link>
        ) : null}
      </div>
      {query.isPending ? (
        <p className="card card-pad usage-loading" role="status">
          <span className="spinner" aria-hidden="true" /> {USAGE_LOADING}
        </p>
      ) : query.isError ? (
        <RetryAlert message={USAGE_LOAD_FAILED} onRetry={() => void query.refetch()} />
      ) : (
        <>
          {counting ? (
            <p className="usage-loading usage-counting" role="status">
              <span className="spinner" aria-hidden="true" /> {USAGE_COUNTING_NOTE}
            </p>
          ) : null}
          <UsageBody stats={query.data.stats} withChart={withChart} />
        </>
      )}
    </section>
  );
}

function UsageBody({ stats, withChart }: { stats: UsageStats; withChart: boolean }) {
  const zone = useBusinessTimeZone();
  return (
    <div className="usage-body">
      <div className="stats">
        <StatCard icon={SparklesIcon} value={tokens(stats.totalUsage)} label="Tool Uses" />
        <StatCard icon={TrendingUpIcon} value={tokens(stats.totalTokens)} label="Total Tokens" />
        <StatCard icon={ClockIcon} value={formatCost(stats.totalCost)} label="Estimated Cost" />
      </div>
      <AllowanceMeter budget={stats.budget} />
      {withChart ? (
        <div className="card card-pad">
          <UsageChart days={stats.daily} />
        </div>
      ) : null}
      {stats.totalUsage === 0 ? (
        <Placeholder icon={SparklesIcon} title={USAGE_EMPTY} className="empty-state">
          <p className="placeholder-text">Your AI tool uses, tokens and costs will appear here.</p>
        </Placeholder>
      ) : (
        <div className="usage-tables">
          <UsageTable
            title="Usage by Tool"
            head={["Tool", "Uses", "Tokens", "Cost"]}
            rows={stats.usageByTool.map((t) => [t.tool_name, tokens(t.count), tokens(t.tokens), formatCost(t.cost)])}
          />
          <UsageTable
            title="Recent Activity"
            head={["Date", "Tool", "Tokens", "Cost"]}
            rows={stats.recentLogs.map((log) => [
              formatDateTime(log.created_at, zone),
              log.tool_name,
              log.tokens_estimated ? `${tokens(log.total_tokens)} (est.)` : tokens(log.total_tokens),
              formatCost(log.estimated_cost),
            ])}
          />
        </div>
      )}
      <p className="usage-footnote">{USAGE_FOOTNOTE}</p>
    </div>
  );
}

/** Columns that hold numbers (right-aligned); every other column is text and stays left. */
const NUMBER_COLUMNS = new Set(["Uses", "Tokens", "Cost"]);

/** A titled table that turns into stacked rows on phones (each cell labelled by its column). */
export function UsageTable({ title, head, rows }: { title: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <div className="card usage-table-card">
      <h3 className="usage-table-title">{title}</h3>
      <div className="usage-table-wrap">
        <table className="usage-table">
          <TableHead columns={head.map((name, j) => ({ name, className: j > 0 && !NUMBER_COLUMNS.has(name) ? "is-text" : undefined }))} />
          <tbody>
            {rows.map((row, i) => (
              <tr key={i}>
                {row.map((cell, j) => (
                  <td key={j} data-label={head[j]} className={j > 0 && !NUMBER_COLUMNS.has(head[j]!) ? "is-text" : undefined}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
