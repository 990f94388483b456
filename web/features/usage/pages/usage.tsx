// /usage: AI usage statistics: the user's panel with the 30-day chart; for admins every user's usage by user, tool,
// model and day, a CSV export, and each user's monthly budget.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatCost } from "../../../../worker/domain/usage-cost";
import { USAGE_LOAD_FAILED, type AllUsage, type UserUsage } from "../../../../worker/features/usage/rules/usage-stats";
import { Alert, RetryAlert } from "../../../design/alert";
import { Button, SaveCancelButtons } from "../../../design/button";
import { DownloadIcon } from "../../../design/icons";
import { Segmented } from "../../../design/segmented";
import { UsagePanel, UsageTable } from "../usage-panel";
import { API_TIMEOUT_MS, authedFetch, readApiResponse } from "../../../lib/api";
import { useAuth } from "../../../lib/auth";
import { useViewAs } from "../../../lib/view-as";
import { useSetBudget, usageQuery } from "../queries";
import { TableHead } from "../../../design/table-head";
import "../usage.css";
import { PageHead } from "../../brand";

const VIEW_OPTIONS = [
  { value: "user", label: "By user" },
  { value: "tool", label: "By tool" },
  { value: "model", label: "By model" },
  { value: "day", label: "By day" },
] as const;
type View = (typeof VIEW_OPTIONS)[number]["value"];

const n = (value: number) => value.toLocaleString("en-US");

export default function UsagePage() {
  const { isAdmin } = useAuth();
  const viewAs = useViewAs();
  return (
    <>
      <PageHead
        eyebrow="Settings"
        title="AI Usage"
        subtitle="How often the AI tools ran, how many tokens they used and what that cost."
      />
      {/* The page is titled 'AI Usage': the panel is named apart from it. */}
      <UsagePanel withChart title="Your usage" />
      {isAdmin && !viewAs ? <AllUsersSection /> : null}
    </>
  );
}

function AllUsersSection() {
  const query = useQuery(usageQuery(null, "all"));
  const [view, setView] = useState<View>("user");
  const [exportError, setExportError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);

  async function exportCsv(days: number) {
    setExportError(null);
    setExporting(true);
    try {
      const res = await authedFetch(`/api/usage/export.csv?days=${days}`, { timeoutMs: API_TIMEOUT_MS * 3, viewAs: false });
      if (!res.ok) await readApiResponse(res);
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement("a");
      link.href = url;
      link.download = `ai-usage-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      setExportError(`Failed to export usage: ${err instanceof Error ? err.message : "Unknown error"}`);
    } finally {
      setExporting(false);
    }
  }

  return (
    <section className="section" aria-labelledby="all-usage-title">
      <div className="usage-panel-head">
        <h2 className="section-title" id="all-usage-title">
          All users · last 30 days
        </h2>
        <Button size="sm" onClick={() => void exportCsv(30)} busy={exporting}>
          <DownloadIcon size="sm" /> Export CSV
        </Button>
      </div>
      {exportError ? <Alert tone="error">{exportError}</Alert> : null}
      {query.isPending ? (
        <p className="card card-pad usage-loading" role="status">
          <span className="spinner" aria-hidden="true" /> Loading usage across all users...
        </p>
      ) : query.isError || !query.data.all ? (
        <RetryAlert message={USAGE_LOAD_FAILED} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <p className="usage-summary">
            {n(query.data.all.totalUsage)} uses · {n(query.data.all.totalTokens)} tokens · {formatCost(query.data.all.totalCost)}
          </p>
          <Segmented label="Group usage" tabs className="usage-views" options={VIEW_OPTIONS} value={view} onChange={setView} />
          <AllUsageTable all={query.data.all} view={view} />
        </>
      )}
    </section>
  );
}

function AllUsageTable({ all, view }: { all: AllUsage; view: View }) {
  if (all.totalUsage === 0) return <p className="card card-pad muted">No AI usage by anyone in the last {all.days} days.</p>;
  switch (view) {
    case "user":
      return <UsersBudgetTable users={all.byUser} />;
    case "tool":
      return <UsageTable title="By tool" head={["Tool", "Uses", "Tokens", "Cost"]} rows={all.byTool.map((t) => [t.tool_name, n(t.count), n(t.tokens), formatCost(t.cost)])} />;
    case "model":
      return <UsageTable title="By model" head={["Model", "Uses", "Tokens", "Cost"]} rows={all.byModel.map((m) => [m.model, n(m.count), n(m.tokens), formatCost(m.cost)])} />;
    case "day":
      return (
        <UsageTable
          title="By day"
          head={["Day", "Uses", "Tokens", "Cost"]}
          rows={[...all.byDay].reverse().filter((d) => d.count > 0).map((d) => [d.day, n(d.count), n(d.tokens), formatCost(d.cost)])}
        />
      );
  }
}

function UsersBudgetTable({ users }: { users: UserUsage[] }) {
  return (
    <div className="card usage-table-card">
      <h3 className="usage-table-title">By user</h3>
      <div className="usage-table-wrap">
        <table className="usage-table">
          <TableHead columns={["User", "Uses", "Tokens", "Cost", "Monthly budget"]} />
          <tbody>
            {users.map((u) => (
              <tr key={u.user_id ?? "none"}>
                <td data-label="User">
                  {u.email ?? "Unknown Email"}
                  {u.company_name ? <span className="muted"> · {u.company_name}</span> : null}
                </td>
                <td data-label="Uses">{n(u.count)}</td>
                <td data-label="Tokens">{n(u.tokens)}</td>
                <td data-label="Cost">{formatCost(u.cost)}</td>
                <td data-label="Monthly budget">{u.user_id ? <BudgetEditor userId={u.user_id} current={u.monthly_usd} /> : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function BudgetEditor({ userId, current }: { userId: string; current: number | null }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(current === null ? "" : String(current));
  const save = useSetBudget(userId);
  if (!editing) {
    return (
      <span className="budget-cell">
        {current === null ? <span className="muted">No limit</span> : formatCost(current)}
        <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
          {current === null ? "Set" : "Change"}
        </Button>
      </span>
    );
  }
  return (
    <form
      className="budget-cell"
      onSubmit={async (e) => {
        e.preventDefault();
        const amount = value.trim() === "" ? null : Number(value);
        if (amount !== null && !(amount >= 0)) return;
        try {
          await save.mutateAsync(amount);
          setEditing(false);
        } catch {
          // The error is shown below the field.
        }
      }}
    >
      <label className="visually-hidden" htmlFor={`budget-${userId}`}>
        Monthly budget in dollars (empty for no limit)
      </label>
      <input
        id={`budget-${userId}`}
        className="input budget-input"
        type="number"
        min={0}
        step="0.01"
        inputMode="decimal"
        placeholder="No limit"
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <SaveCancelButtons busy={save.isPending} onCancel={() => setEditing(false)} />
      {save.error ? <span className="field-error">{save.error.message}</span> : null}
    </form>
  );
}
