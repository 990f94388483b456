// /admin/clients (issue 41): every client in one view: health (why, on hover), plan, account manager, Google, and each
// capability's latest figures with their change (each a link to the screen behind it, read as the client without
// starting a view: web/lib/view-as.ts scopedClient), from rows the server keeps current; sort, filter, search, "my
// clients", saved views and hidden columns (kept per admin), CSV of everything the filters keep; bulk actions on the
// selected clients (bulk-actions.tsx).
import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import {
  CLIENT_COLUMN_LABELS,
  CLIENT_COLUMNS,
  CLIENT_FILTER_LABELS,
  CLIENT_FILTERS,
  CLIENT_SORT_LABELS,
  CLIENT_SORTS,
  CLIENTS_WORDING,
  type ClientColumn,
  type ClientFilter,
  type ClientRow,
  type ClientSort,
  type ClientsResponse,
  type SavedView,
} from "../../../../worker/features/command-center/rules/clients";
import { HEALTH_LABELS } from "../../../../worker/features/command-center/rules/health";
import { Alert } from "../../../design/alert";
import { Button } from "../../../design/button";
import { Options, SelectField } from "../../../design/form-fields";
import { DownloadIcon, UsersIcon } from "../../../design/icons";
import { Placeholder } from "../../../design/placeholder";
import { SearchField } from "../../../design/search-field";
import { QueryView } from "../../../app/query-view";
import { downloadText } from "../../../lib/download";
import { clientScreenPath } from "../../../lib/view-as";
import { formatDateTime } from "../../../lib/format-date";
import { PageHead } from "../../brand";
import { useBusinessTimeZone } from "../../profile";
import { BulkBar } from "../bulk-actions";
import { clientsQuery, exportClientsCsv, useSaveViewSettings, useSetManager, type ClientsParams } from "../queries";
import "../clients.css";

const DEFAULTS: ClientsParams = { sort: "health", filter: "all", q: "", manager: "", page: 1 };
/** A share (0..1) as a percentage. */
const pct = (v: number | null | undefined, digits = 0) => (typeof v === "number" ? `${(v * 100).toFixed(digits)}%` : null);
const signed = (v: number | null | undefined, unit = "") => (!v ? null : `${v > 0 ? "+" : ""}${Math.round(v * 10) / 10}${unit}`);
const dollars = (cents: number | null | undefined) => (typeof cents === "number" ? `$${(cents / 100).toFixed(2)}` : null);
const parts = (...xs: (string | null | false | undefined)[]) => xs.filter(Boolean).join(" · ");

export default function AdminClientsPage() {
  const [params, setParams] = useState<ClientsParams>(DEFAULTS);
  const [exporting, setExporting] = useState<string | null>(null);
  const query = useQuery(clientsQuery(params));
  const set = (p: Partial<ClientsParams>) => setParams((old) => ({ ...old, page: 1, ...p }));

  async function exportCsv() {
    setExporting(null);
    try {
      downloadText(`\uFEFF${await exportClientsCsv(params)}`, `clients-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (e) {
      setExporting(`Could not export: ${(e as Error).message}`);
    }
  }

  return (
    <>
      <PageHead eyebrow="Admin" title="Clients" subtitle="Every client's figures in one view, kept current as reviews sync, scans finish and posts go out. Needs action first." />
      <div className="toolbar cl-toolbar">
        <SearchField placeholder="Search clients..." label="Search clients" value={params.q} onChange={(q) => set({ q })} />
        <SelectField label="Sort" value={params.sort} wide={false} onChange={(v) => set({ sort: v as ClientSort })}>
          <Options values={CLIENT_SORTS} label={(s) => CLIENT_SORT_LABELS[s]} />
        </SelectField>
        <SelectField label="Show" value={params.filter} wide={false} onChange={(v) => set({ filter: v as ClientFilter })}>
          <Options values={CLIENT_FILTERS} label={(f) => CLIENT_FILTER_LABELS[f]} />
        </SelectField>
        <SelectField label="Account manager" value={params.manager} wide={false} onChange={(manager) => set({ manager })}>
          <option value="">Everyone's clients</option>
          <option value="me">My clients</option>
          {(query.data?.admins ?? []).map((a) => (
            <option key={a.id} value={a.id}>
              {a.email}
            </option>
          ))}
        </SelectField>
        <Button onClick={() => void exportCsv()}>
          <DownloadIcon size="sm" /> Export CSV
        </Button>
      </div>
      {exporting ? <Alert tone="error">{exporting}</Alert> : null}
      <QueryView query={query} failure={CLIENTS_WORDING.failed}>
        {(data) => <ClientsBody data={data} params={params} onParams={set} onPage={(page) => setParams((p) => ({ ...p, page }))} />}
      </QueryView>
    </>
  );
}

function ClientsBody({ data, params, onParams, onPage }: { data: ClientsResponse; params: ClientsParams; onParams: (p: Partial<ClientsParams>) => void; onPage: (page: number) => void }) {
  const save = useSaveViewSettings();
  const hidden = new Set(data.settings.hiddenColumns);
  const shown = CLIENT_COLUMNS.filter((c) => !hidden.has(c));
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  const persist = (next: Partial<ClientsResponse["settings"]>) => save.mutate({ ...data.settings, ...next });
  const [naming, setNaming] = useState("");
  // The selection is of the page shown (a bulk action takes at most one page).
  const [picked, setPicked] = useState<string[]>([]);
  const selected = picked.filter((id) => data.clients.some((c) => c.userId === id));
  const allPicked = data.clients.length > 0 && selected.length === data.clients.length;
  const pick = (userId: string, on: boolean) => setPicked((old) => (on ? [...old.filter((x) => x !== userId), userId] : old.filter((x) => x !== userId)));

  return (
    <>
      <div className="cl-views">
        {data.settings.views.map((v) => (
          <span key={v.name} className="cl-view">
            <button type="button" className="cl-chip" onClick={() => onParams({ sort: v.sort, filter: v.filter, q: v.q, manager: v.manager })}>
              {v.name}
            </button>
            <button type="button" className="cl-chip" aria-label={`Remove the view ${v.name}`} onClick={() => persist({ views: data.settings.views.filter((x) => x.name !== v.name) })}>
              ×
            </button>
          </span>
        ))}
        <form
          className="cl-save"
          onSubmit={(e) => {
            e.preventDefault();
            const name = naming.trim();
            if (!name) return;
            const view: SavedView = { name, sort: params.sort, filter: params.filter, q: params.q, manager: params.manager };
            persist({ views: [...data.settings.views.filter((x) => x.name !== name), view].slice(-20) });
            setNaming("");
          }}
        >
          <input className="input" aria-label="Name this view" placeholder="Name this view" maxLength={60} value={naming} onChange={(e) => setNaming(e.target.value)} />
          <Button type="submit" size="sm" disabled={!naming.trim()} busy={save.isPending}>
            Save view
          </Button>
        </form>
        <details className="cl-columns">
          <summary>Columns</summary>
          <fieldset>
            <legend className="visually-hidden">Columns shown</legend>
            {CLIENT_COLUMNS.map((c) => (
              <label key={c} className="checkbox">
                <input type="checkbox" checked={!hidden.has(c)} onChange={(e) => persist({ hiddenColumns: e.target.checked ? [...hidden].filter((x) => x !== c) : [...hidden, c] })} />
                {CLIENT_COLUMN_LABELS[c]}
              </label>
            ))}
          </fieldset>
        </details>
      </div>
      {save.isError ? <Alert tone="error">{`Could not save the view: ${save.error.message}`}</Alert> : null}
      {data.total === 0 ? (
        <Placeholder className="empty-state" icon={UsersIcon} title={params.q || params.filter !== "all" || params.manager ? "No clients found" : "No clients yet"}>
          <p className="placeholder-text">{params.q || params.filter !== "all" || params.manager ? CLIENTS_WORDING.noMatch : CLIENTS_WORDING.none}</p>
        </Placeholder>
      ) : (
        <>
          <BulkBar selected={selected} onClear={() => setPicked([])} />
          <div className="card users-table-wrap cl-wrap">
            <table className="users-table cl-table">
              <thead>
                <tr>
                  <th scope="col" className="cl-pick">
                    <input type="checkbox" aria-label="Select every client on this page" checked={allPicked} onChange={(e) => setPicked(e.target.checked ? data.clients.map((c) => c.userId) : [])} />
                  </th>
                  <th scope="col">Client</th>
                  {shown.map((c) => (
                    <th key={c} scope="col">
                      {CLIENT_COLUMN_LABELS[c]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.clients.map((c) => (
                  <ClientLine key={c.userId} client={c} columns={shown} admins={data.admins} picked={selected.includes(c.userId)} onPick={(on) => pick(c.userId, on)} />
                ))}
              </tbody>
            </table>
          </div>
          <div className="cl-pages">
            <span className="muted">
              {data.total} client{data.total === 1 ? "" : "s"} · page {data.page} of {pages}
            </span>
            <Button size="sm" disabled={data.page <= 1} onClick={() => onPage(data.page - 1)}>
              Previous
            </Button>
            <Button size="sm" disabled={data.page >= pages} onClick={() => onPage(data.page + 1)}>
              Next
            </Button>
          </div>
        </>
      )}
    </>
  );
}

/** A figure: its main value (a link to the screen behind it, read as the client) and its change below. */
function Fig({ main, sub, to }: { main: ReactNode; sub?: ReactNode; to?: string }) {
  if (main === null || main === undefined) return <span className="muted">—</span>;
  return (
    <span className="cl-fig">
      <strong>{to ? <Link to={to}>{main}</Link> : main}</strong>
      {sub ? <span className="muted">{sub}</span> : null}
    </span>
  );
}

function ClientLine({ client: c, columns, admins, picked, onPick }: { client: ClientRow; columns: ClientColumn[]; admins: ClientsResponse["admins"]; picked: boolean; onPick: (on: boolean) => void }) {
  const zone = useBusinessTimeZone();
  const manager = useSetManager();
  const { reviews: r, rank: k, citations: ci, ai: a, posts: p, report: m, usage: u } = c;
  const at = (path: string) => clientScreenPath(path, { userId: c.userId, name: c.name });
  const cell: Record<ClientColumn, ReactNode> = {
    health: (
      <span className={`cl-health cl-${c.health.level}`} title={c.health.text}>
        {HEALTH_LABELS[c.health.level]}
        <span className="visually-hidden">: {c.health.text}</span>
      </span>
    ),
    plan: <Fig main={c.plan ?? "Free"} />,
    manager: (
      <select className="input cl-manager" aria-label={`Account manager of ${c.name}`} value={c.manager?.id ?? ""} disabled={manager.isPending} onChange={(e) => manager.mutate({ userId: c.userId, managerId: e.target.value || null })}>
        <option value="">Nobody</option>
        {admins.map((x) => (
          <option key={x.id} value={x.id}>
            {x.email}
          </option>
        ))}
      </select>
    ),
    google: <Fig to={at("/integrations")} main={c.google === "connected" ? "Connected" : c.google === "needs_reconnect" ? "Reconnect" : c.google === "choosing" ? "Pick locations" : "Not connected"} />,
    reviews: <Fig to={at("/tools/reviews")} main={r && `${r.unanswered} unanswered`} sub={r && parts(r.lowUnanswered > 0 && `${r.lowUnanswered} low`, `${r.newThisMonth} new this month`, r.average !== null && `★ ${r.average.toFixed(1)}`, pct(r.replyRate) && `${pct(r.replyRate)} replied`)} />,
    rank: <Fig to={at("/tools/local-search-grid")} main={k?.solv !== null && k?.solv !== undefined ? `SoLV ${k.solv}%` : null} sub={k && parts(signed(k.solvChange, " pts"), k.atrp !== null && `ATRP ${k.atrp.toFixed(1)}`, Boolean(k.keywordsUp || k.keywordsDown) && `${k.keywordsUp ?? 0}↑ ${k.keywordsDown ?? 0}↓`)} />,
    citations: <Fig to={at("/tools/citation-tracker")} main={ci?.score !== null && ci?.score !== undefined ? `Score ${ci.score}` : null} sub={ci && parts(Boolean(ci.wrong) && `${ci.wrong} wrong`, Boolean(ci.gaps) && `${ci.gaps} gaps`)} />,
    ai: <Fig to={at("/tools/ai-visibility")} main={pct(a?.mentionRate)} sub={a && parts(a.low !== null && a.high !== null && `${pct(a.low)}–${pct(a.high)}`, a.direction === "down" && "fell", a.direction === "up" && "rose")} />,
    posts: <Fig to={at("/tools/gmb-post-scheduler")} main={p ? (p.lastPublishedAt ? `Last ${formatDateTime(p.lastPublishedAt, zone)}` : "None published") : null} sub={p && p.failed > 0 ? `${p.failed} failed` : undefined} />,
    report: <Fig to={at("/reports")} main={m ? (m.month ?? (m.enabled ? "Not sent yet" : "Off")) : null} sub={m?.openedAt ? "opened" : m?.sentAt ? "sent, not opened" : undefined} />,
    usage: <Fig to={at("/usage")} main={dollars(u?.spentCents)} sub={u?.allowanceCents ? `of ${dollars(u.allowanceCents)}` : undefined} />,
  };
  return (
    <tr>
      <td className="cl-pick" data-label="Select">
        <input type="checkbox" aria-label={`Select ${c.name}`} checked={picked} onChange={(e) => onPick(e.target.checked)} />
      </td>
      <td className="cell-user" data-label="Client">
        <div className="company-cell">
          <div className="company-name">{c.name}</div>
          {c.name !== c.email ? <div className="muted">{c.email}</div> : null}
          {!c.updatedAt ? <div className="muted">{CLIENTS_WORDING.notFilled}</div> : null}
        </div>
      </td>
      {columns.map((col) => (
        <td key={col} data-label={CLIENT_COLUMN_LABELS[col]}>
          {cell[col]}
        </td>
      ))}
    </tr>
  );
}
