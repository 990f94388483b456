// /tools/local-search-grid: Local Search Grid (issue 19) — where a business shows in the map pack from points all
// over its service area. Pick the business, keyword, grid size and radius; the cost is shown before the run; the heat
// map fills in point by point; scans are kept, compared, exported and shared.
import { useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { ADMIN_GRID_SIZES, GRID_RADIUS_MAX_MILES, GRID_RADIUS_MIN_MILES, GRID_RADIUS_MESSAGE, GRID_SIZES } from "../../../../worker/features/rank/rules/grid";
import type { GridEstimate, GridScanSummary, GridScanView } from "../../../../worker/features/rank/rules/view";
import { formatLongUsDate } from "../../../../worker/features/reports/rules/format";
import { RetryAlert } from "../../../design/alert";
import { ToolBlock } from "../../../design/tool-block";
import { BusinessToolPage, MissingDetails, useBusinessChoice } from "../../audits";
import { Button } from "../../../design/button";
import { MapPinIcon } from "../../../design/icons";
import { Placeholder } from "../../../design/placeholder";
import { HeatMapLegend, RankHeatMap } from "../rank-heat-map";
import { GridScanResult, ScanChangeTable, formatMetric, scanSubtitle } from "../rank-figures";
import { CopyButton } from "../../reports";
import { LoadingScreen } from "../../../app/route-guards";
import { ScanEstimate } from "../../../design/scan-estimate";
import { ScanHeader } from "../scan-header";
import { ShownOrOpen } from "../../../design/tool-block";
import { Segmented } from "../../../design/segmented";
import { TextField } from "../../../design/text-field";
import { formatDateTime } from "../../../lib/format-date";
import { businessParam, gridCsvPath, rankKeys, gridEstimateQuery, gridHistoryQuery, gridScanQuery, useRunGrid, type GridInput } from "../queries";
import { TableHead } from "../../../design/table-head";
import { useBusinessProfile } from "../../profile";
import { useCapabilities } from "../../setup";
import { ActionError, SearchUnavailableNotice } from "../../setup";
import { searchStart } from "../../../../worker/features/tools/rules/search-tools";
import "../../../design/scan-results.css";
import "../rank.css";
import { PageTitle } from "../../brand";

/** The grid's cost: its map searches against what is left of the month's allowance. */
function Estimate({ query }: { query: UseQueryResult<GridEstimate> }) {
  const e = query.data;
  return (
    <ScanEstimate
      cost={e && { searches: e.searches, usd: e.estimateUsd, allowanceLeftUsd: e.allowanceLeftUsd, allowed: e.allowed }}
      error={query.error}
      searches="map searches"
      needs="This grid"
      advice={
        <>
          Choose a smaller grid, or <Link to="/subscription">upgrade your plan</Link>.
        </>
      }
    />
  );
}

function GridScanHeader({ scan }: { scan: GridScanView }) {
  const shareUrl = scan.sharePath ? new URL(scan.sharePath, window.location.origin).toString() : null;
  const searched = scan.points.length - scan.metrics.pending;
  return (
    <ScanHeader
      titleId="grid-scan-title"
      title={`“${scan.keyword}”`}
      subtitle={`${scan.business.name} · ${scanSubtitle(scan)}`}
      progress={scan.status !== "done" ? `Searching point by point: ${searched} of ${scan.points.length} done` : null}
      csv={{ path: gridCsvPath(scan.id), filename: `grid-${scan.keyword.replace(/\W+/g, "-")}-${scan.createdAt.slice(0, 10)}.csv` }}
      actions={shareUrl ? <CopyButton text={shareUrl} label="Copy share link" copiedLabel="Link copied" /> : null}
    />
  );
}

function Comparison({ scan, otherId }: { scan: GridScanView; otherId: string }) {
  const other = useQuery(gridScanQuery(otherId));
  if (other.isError) return <RetryAlert message="Could not load the scan to compare." onRetry={() => void other.refetch()} />;
  if (!other.data) return <LoadingScreen />;
  const [before, after] = other.data.createdAt <= scan.createdAt ? [other.data, scan] : [scan, other.data];
  return (
    <ToolBlock titleId="grid-compare-title" title="Two scans side by side">
      <div className="rank-compare">
        {[before, after].map((s, i) => (
          <div key={s.id}>
            <p className="audit-group-title">
              {i === 0 ? "Earlier" : "Later"} · {formatDateTime(s.createdAt)}
            </p>
            <RankHeatMap points={s.points} size={s.size} label={`Scan of ${formatLongUsDate(s.createdAt)}`} legend={false} />
          </div>
        ))}
      </div>
      <HeatMapLegend />
      <ScanChangeTable before={before} after={after} />
    </ToolBlock>
  );
}

function History({ list, shown, keyword, onOpen, onCompare }: { list: GridScanSummary[]; shown: string; keyword: string; onOpen: (id: string) => void; onCompare: (id: string) => void }) {
  return (
    <ToolBlock titleId="grid-history-title" title="Past scans">
      <div className="audit-table-wrap">
        <table className="audit-table">
          <TableHead columns={["When", "Keyword", "Grid", "SoLV", "ARP"]} actions="Actions" />
          <tbody>
            {list.map((s) => (
              <tr key={s.id} className={s.id === shown ? "is-own" : undefined}>
                <td>{formatDateTime(s.createdAt)}</td>
                <td>{s.keyword}</td>
                <td>
                  {s.size}×{s.size}, {s.radiusMiles} mi
                </td>
                <td>{s.status === "done" ? formatMetric("solv", s.metrics.solv) : "Running…"}</td>
                <td>{s.status === "done" ? formatMetric("arp", s.metrics.arp) : ""}</td>
                <td className="rank-row-actions">
                  <ShownOrOpen shown={s.id === shown} onOpen={() => onOpen(s.id)}>
                    {s.keyword === keyword && s.status === "done" ? (
                      <Button size="sm" variant="ghost" onClick={() => onCompare(s.id)}>
                        Compare
                      </Button>
                    ) : null}
                  </ShownOrOpen>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ToolBlock>
  );
}

export default function LocalSearchGridPage() {
  const choice = useBusinessChoice();
  const { target } = choice;
  const [keyword, setKeyword] = useState("");
  const [size, setSize] = useState(5);
  const [radius, setRadius] = useState("2");
  const [chosen, setChosen] = useState<string | null>(null);
  const [compareId, setCompareId] = useState<string | null>(null);
  const reset = () => {
    setChosen(null);
    setCompareId(null);
  };

  const radiusMiles = Number(radius);
  const radiusOk = radius.trim() !== "" && Number.isFinite(radiusMiles) && radiusMiles >= GRID_RADIUS_MIN_MILES && radiusMiles <= GRID_RADIUS_MAX_MILES;
  const input: GridInput | null = target && keyword.trim() && radiusOk ? { target, keyword: keyword.trim(), size, radiusMiles } : null;
  const estimate = useQuery({ ...gridEstimateQuery(size), enabled: target !== null && !choice.readOnly });
  const history = useQuery({ ...gridHistoryQuery(target ?? { own: true }), enabled: target !== null });
  const list = history.data ?? [];
  const shownId = chosen ?? list[0]?.id ?? null;
  const scan = useQuery({ ...gridScanQuery(shownId ?? ""), enabled: shownId !== null });
  const run = useRunGrid();
  // When the shown scan finishes, its row in the history is read again (its figures are in now).
  const client = useQueryClient();
  const shownDone = scan.data?.status === "done";
  const business = target ? businessParam(target) : null;
  useEffect(() => {
    if (shownDone && business) void client.invalidateQueries({ queryKey: rankKeys.scans(business) });
  }, [shownDone, client, business, shownId]);
  const sizes = choice.operator ? ADMIN_GRID_SIZES : GRID_SIZES;
  // Every grid point is a Google search: without search the button is disabled and the page says why (issue 26).
  const searchOff = useCapabilities()?.search === false;
  const example = searchStart(useBusinessProfile()).example;
  const blocked = !input || !estimate.data || estimate.data.allowed === false || choice.readOnly || searchOff;

  const start = () => {
    if (!input || blocked) return;
    run.mutate(input, {
      onSuccess: (s) => {
        setChosen(s.id);
        setCompareId(null);
      },
    });
  };

  let body;
  if (choice.loading) body = <LoadingScreen />;
  else if (choice.missing.length) body = <MissingDetails missing={choice.missing} what="The grid searches around your business's Google listing, found by its name and location." />;
  else if (!target) body = null;
  else {
    let result;
    if (history.isError || scan.isError) {
      result = <RetryAlert message="Could not load the scans." onRetry={() => void (history.isError ? history.refetch() : scan.refetch())} />;
    } else if (history.isPending || (shownId && !scan.data)) result = <LoadingScreen />;
    else if (!scan.data) {
      result = (
        <Placeholder icon={MapPinIcon} title="No scans yet" className="empty-state">
          <p className="placeholder-text">Run your first grid above: each point is one Google Maps search from that spot, and the map fills in as they land.</p>
        </Placeholder>
      );
    } else {
      const s = scan.data;
      result = (
        <>
          <section className="card card-pad audit-result" aria-labelledby="grid-scan-title">
            <GridScanHeader scan={s} />
            <GridScanResult scan={s} />
            {s.status === "done" && s.previous && compareId === null ? (
              <div>
                <Button onClick={() => setCompareId(s.previous!.id)}>Compare with the scan of {formatLongUsDate(s.previous.createdAt)}</Button>
              </div>
            ) : null}
          </section>
          {compareId && s.status === "done" ? <Comparison scan={s} otherId={compareId} /> : null}
          {list.length > 1 ? <History list={list} shown={s.id} keyword={s.keyword} onOpen={(id) => { setChosen(id); setCompareId(null); }} onCompare={setCompareId} /> : null}
        </>
      );
    }
    body = (
      <>
        <ToolBlock titleId="grid-form-title" title={`New scan${choice.name ? ` for ${choice.name}` : ""}`}>
          <div className="rank-form">
            <TextField label="Keyword" value={keyword} onChange={(e) => setKeyword(e.target.value)} placeholder={example} maxLength={200} disabled={searchOff} />
            <TextField
              label="Radius (miles)"
              type="number"
              inputMode="decimal"
              min={GRID_RADIUS_MIN_MILES}
              max={GRID_RADIUS_MAX_MILES}
              step={0.5}
              value={radius}
              onChange={(e) => setRadius(e.target.value)}
              error={radiusOk ? undefined : GRID_RADIUS_MESSAGE}
              hint={radiusOk ? "From the centre to the edge of the grid." : undefined}
            />
          </div>
          <div className="field">
            <span className="field-label">Grid size</span>
            <Segmented label="Grid size" value={String(size)} onChange={(v) => setSize(Number(v))} options={sizes.map((n) => ({ value: String(n), label: `${n}×${n}` }))} />
          </div>
          {choice.readOnly ? null : <Estimate query={estimate} />}
          {searchOff ? <SearchUnavailableNotice what="The grid" /> : null}
          {run.error ? <ActionError error={run.error} /> : null}
          <div>
            <Button variant="primary" busy={run.isPending} disabled={blocked} onClick={start}>
              Run the grid
            </Button>
          </div>
          {choice.readOnly ? <p className="audit-muted">Read-only while viewing as another user.</p> : null}
        </ToolBlock>
        {result}
      </>
    );
  }

  return (
    <BusinessToolPage
      title="Local Search Grid"
      subtitle="Where your business shows on Google Maps when people search from all over your service area, not just from your front door."
      choice={choice}
      onChange={reset}
    >
      <PageTitle>Local Search Grid</PageTitle>
      {body}
    </BusinessToolPage>
  );
}
