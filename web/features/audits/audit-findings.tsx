// "What we found": an audit's score by section, what to fix first, the competitors, and every finding with its
// evidence, grouped by section; steps still running show as progress. Shared by the admin report, the edge-rendered
// shared page and the GBP / Local Search Audit tools. Pure and SSR-safe: no hooks, no admin-only data (the listing
// picker is its own component, see audit-listing-picker.tsx).
import type { ReactNode } from "react";
import type { Check, SectionId, Verdict } from "../../../worker/features/audits/rules/checks";
import { SECTIONS, fixFirst, scoreAudit, type AuditScore, type Fix } from "../../../worker/features/audits/rules/score";
import { AUDIT_STEPS, AUDIT_STEP_LABELS, type AuditStepId, type AuditView } from "../../../worker/features/audits/rules/view";
import { formatLongUsDate } from "../../../worker/features/reports/rules/format";
import { CHECK_LABELS, VERDICT_LABELS, checksIn, pendingLabel, pendingStep } from "./audit-labels";
import { AlertCircleIcon, AlertTriangleIcon, CheckCircleIcon, CheckIcon, ExternalLinkIcon, InfoIcon, ReportSearchIcon } from "../../design/icons";
import { ReportSection } from "../reports/ssr";
import { TableHead } from "../../design/table-head";

export const ALL_SECTIONS: readonly SectionId[] = SECTIONS.map((s) => s.id);
/** What the GBP Audit tool shows: the listing, its reputation and the competitors. */
export const GBP_SECTIONS: readonly SectionId[] = ["google_business_profile", "reputation", "competitors"];
export const WHAT_WE_FOUND_ID = "what-we-found";

const VERDICT_ICONS = { pass: CheckCircleIcon, warn: AlertTriangleIcon, fail: AlertCircleIcon, unknown: InfoIcon } as const;

/** A verdict in words and an icon (never colour alone); a check still waiting for its step shows "Checking…". */
export function VerdictBadge({ verdict, pending }: { verdict: Verdict; pending?: string | null }) {
  if (pending) {
    return (
      <span className="verdict is-pending">
        <span className="spinner" aria-hidden="true" />
        {pending}
      </span>
    );
  }
  const Icon = VERDICT_ICONS[verdict];
  return (
    <span className={`verdict is-${verdict}`}>
      <Icon size="sm" />
      {VERDICT_LABELS[verdict]}
    </span>
  );
}

/** 0–100 as a band for colour: the same cut-offs as the report's ranking potential. */
function band(score: number): "good" | "fair" | "poor" {
  return score >= 80 ? "good" : score >= 60 ? "fair" : "poor";
}

/** A 0–100 bar drawn in SVG (the shared page's CSP allows no style attributes). */
function ScoreBar({ score, label }: { score: number; label: string }) {
  return (
    <span className={`audit-bar is-${band(score)}`} role="img" aria-label={`${label}: ${score} out of 100`}>
      <svg viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true" focusable="false">
        <rect width={Math.max(0, Math.min(100, score))} height="6" />
      </svg>
    </span>
  );
}

/** How the overall score moved since the audit before this one. */
export function movementText(overall: number | null, previous: AuditView["previous"]): string | null {
  if (!previous) return overall === null ? null : "First audit of this business";
  if (overall === null || previous.overall === null) return null;
  const since = formatLongUsDate(previous.createdAt);
  const diff = overall - previous.overall;
  if (diff === 0) return `No change since ${since}`;
  const points = `${Math.abs(diff)} point${Math.abs(diff) === 1 ? "" : "s"}`;
  return `${diff > 0 ? "Up" : "Down"} ${points} since ${since}`;
}

/** Why a section has no score: still running, or the reason its checks could not be made. */
function noDataReason(audit: AuditView, checks: readonly Check[]): { pending: boolean; text: string } {
  const waiting = checks.map((c) => pendingStep(audit, c)).find((s) => s !== null);
  if (waiting || (checks.length === 0 && audit.status !== "done")) return { pending: true, text: waiting ? pendingLabel(waiting) : "Checking…" };
  const reason = checks.find((c) => c.reason)?.reason;
  return { pending: false, text: reason ? `No data: ${reason}` : "No data: nothing could be checked" };
}

/** "A, B and C". */
function joinAnd(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/**
 * Why the sections without data have none, each reason once with the sections it emptied (issue 39: a missing service
 * read six times over on the shared report).
 */
export function noDataNotes(audit: AuditView, score: AuditScore, sections: readonly SectionId[]): { reason: string; sections: string[] }[] {
  const notes: { reason: string; sections: string[] }[] = [];
  for (const s of score.sections) {
    if (!sections.includes(s.id) || s.score !== null) continue;
    const why = noDataReason(audit, audit.checks.filter((c) => c.section === s.id));
    if (why.pending) continue;
    const reason = why.text.replace(/^No data: /, "");
    const note = notes.find((n) => n.reason === reason);
    if (note) note.sections.push(s.label);
    else notes.push({ reason, sections: [s.label] });
  }
  return notes;
}

function ScorePanel({ audit, score, sections, overallLabel }: { audit: AuditView; score: AuditScore; sections: readonly SectionId[]; overallLabel: string }) {
  // A score still filling in has not moved yet: movement is told once every step has finished.
  const running = audit.status !== "done";
  const moved = !running && sections.length === ALL_SECTIONS.length ? movementText(score.overall, audit.previous) : null;
  const direction = moved?.startsWith("Up") ? "is-up" : moved?.startsWith("Down") ? "is-down" : "";
  const shown = score.sections.filter((s) => sections.includes(s.id));
  const withData = shown.filter((s) => s.score !== null).length;
  const notes = noDataNotes(audit, score, sections);
  // Nothing could be checked: "No data" is said once, with why, not once per section (issue 39).
  const nothing = !running && score.overall === null;
  const coverage =
    score.overall === null ? null : running ? "So far, from the steps done" : withData < shown.length ? `From ${withData} of ${shown.length} sections; the others had no data` : null;
  return (
    <div className="audit-score">
      <div className="audit-overall">
        <p className="audit-overall-label">{overallLabel}</p>
        {score.overall === null ? (
          <p className="audit-overall-value is-empty">{audit.status === "done" ? "No data" : "Checking…"}</p>
        ) : (
          <p className={`audit-overall-value is-${band(score.overall)}`}>
            {score.overall}
            <small>/100</small>
          </p>
        )}
        {moved ? <p className={`audit-moved ${direction}`}>{moved}</p> : null}
        {coverage ? <p className="audit-moved">{coverage}</p> : null}
      </div>
      {nothing ? null : (
        <ul className="audit-sections" aria-label="Score by section">
          {score.sections
            .filter((s) => sections.includes(s.id))
            .map((s) => {
              const why = s.score === null ? noDataReason(audit, audit.checks.filter((c) => c.section === s.id)) : null;
              return (
                <li key={s.id} className="audit-section-score">
                  <span className="audit-section-name">{s.label}</span>
                  {s.score === null ? (
                    <span className={why!.pending ? "audit-section-value is-pending" : "audit-section-value is-empty"}>
                      {why!.pending ? why!.text : "No data"}
                    </span>
                  ) : (
                    <>
                      <ScoreBar score={s.score} label={s.label} />
                      <span className="audit-section-value">{s.score}</span>
                    </>
                  )}
                </li>
              );
            })}
        </ul>
      )}
      {notes.map((n) => (
        <p key={n.reason} className="audit-section-why">
          {nothing && notes.length === 1 ? "Nothing could be checked" : `No data for ${joinAnd(n.sections)}`}: {n.reason}.
        </p>
      ))}
    </div>
  );
}

/** The audit's steps while they run: done, running, waiting, or why a step gave no data. */
export function AuditProgress({ audit, steps = AUDIT_STEPS }: { audit: AuditView; steps?: readonly AuditStepId[] }) {
  return (
    <ol className="audit-steps" aria-label="Audit progress" aria-live="polite">
      {steps.map((id) => {
        const step = audit.steps[id];
        const status = step?.status ?? "pending";
        const state =
          status === "done"
            ? "Done"
            : status === "running"
              ? "Running…"
              : status === "pending"
                ? "Waiting"
                : `${status === "failed" ? "Failed" : "Skipped"}${step?.reason ? `: ${step.reason}` : ""}`;
        return (
          <li key={id} className={`audit-step is-${status}`}>
            {status === "running" ? (
              <span className="spinner" aria-hidden="true" />
            ) : status === "done" ? (
              <CheckIcon size="sm" />
            ) : status === "pending" ? (
              <span className="audit-step-dot" aria-hidden="true" />
            ) : (
              <InfoIcon size="sm" />
            )}
            <span>
              <strong>{AUDIT_STEP_LABELS[id]}</strong> <span className="audit-step-state">{state}</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}

export function FixFirstList({ fixes }: { fixes: readonly Fix[] }) {
  if (fixes.length === 0) return null;
  return (
    <div className="audit-block">
      <h3 className="audit-block-title">What to fix first</h3>
      <ol className="audit-fixes">
        {fixes.map(({ check, points }) => (
          <li key={check.id} className="audit-fix">
            <div>
              <strong>{CHECK_LABELS[check.id]}</strong>
              <p>{check.evidence}</p>
            </div>
            <span className="audit-fix-points">+{points} pts</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

const oneDecimal = (n: number) => n.toFixed(1);

export function CompetitorsTable({ audit }: { audit: AuditView }) {
  const rank = audit.steps.rank;
  const own = audit.listing;
  let empty: string | null = null;
  if (audit.competitors.length === 0) {
    if (rank?.status === "pending" || rank?.status === "running") empty = "Checking who shows up beside this business on Google Maps…";
    else if (rank?.status === "failed" || rank?.status === "skipped") empty = `We could not check the competitors${rank.reason ? `: ${rank.reason}` : ""}.`;
    else empty = "No competitors showed up in the Google Maps results for this keyword.";
  }
  return (
    <div className="audit-block">
      <h3 className="audit-block-title">
        Competitors{audit.subject.keyword ? ` for “${audit.subject.keyword}”` : ""}
        {audit.subject.area ? ` in ${audit.subject.area}` : ""}
      </h3>
      {empty ? (
        <p className="audit-muted">{empty}</p>
      ) : (
        <div className="audit-table-wrap">
          <table className="audit-table">
            <TableHead columns={["Business", "Rating", "Reviews"]} />
            <tbody>
              <tr className="is-own">
                <th scope="row">
                  {own?.name ?? audit.subject.name} <span className="audit-you">You</span>
                </th>
                <td>{own?.rating != null ? `${oneDecimal(own.rating)} ★` : "—"}</td>
                <td>{own?.reviewCount ?? "—"}</td>
              </tr>
              {audit.competitors.map((c, i) => (
                <tr key={`${i}-${c.name}`}>
                  <th scope="row">{c.name}</th>
                  <td>{c.rating != null ? `${oneDecimal(c.rating)} ★` : "—"}</td>
                  <td>{c.reviewCount ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** The Google Maps listing the audit used. */
export function ListingSummary({ listing }: { listing: NonNullable<AuditView["listing"]> }) {
  const facts = [
    listing.address,
    listing.phone,
    listing.categories?.length ? listing.categories.join(", ") : null,
    listing.rating != null ? `${oneDecimal(listing.rating)} ★ · ${listing.reviewCount ?? 0} reviews` : null,
  ].filter((f): f is string => Boolean(f));
  return (
    <div className="audit-block audit-listing">
      <h3 className="audit-block-title">On Google Maps</h3>
      <p className="audit-listing-name">{listing.name}</p>
      {facts.length ? <p className="audit-muted">{facts.join(" · ")}</p> : null}
      {listing.mapsUrl ? (
        <a href={listing.mapsUrl} target="_blank" rel="noopener noreferrer" className="audit-link">
          <ExternalLinkIcon size="sm" /> View the listing on Google Maps
        </a>
      ) : null}
    </div>
  );
}

function CheckItem({ audit, check }: { audit: AuditView; check: Check }) {
  // Checks that could not be made are grouped by reason (UncheckedGroup); one still waiting says what it waits for.
  const step = pendingStep(audit, check);
  const evidence = step ? `${AUDIT_STEP_LABELS[step]}…` : check.evidence;
  return (
    <li className={`audit-check is-${step ? "pending" : check.verdict}`}>
      <VerdictBadge verdict={check.verdict} pending={step ? pendingLabel(step) : null} />
      <div>
        <p className="audit-check-name">{CHECK_LABELS[check.id]}</p>
        <p className="audit-check-evidence">{evidence}</p>
      </div>
    </li>
  );
}

/** "We could not check this: <reason>." as the checks write it: nothing beyond the reason, so the group line says it all. */
const onlyTheReason = (check: Check) => check.evidence === `We could not check this: ${check.reason}.`;

/**
 * A section's checks that could not be made, one line per reason ("3 checks could not be made: search isn't available
 * yet") with the checks named under it, instead of the same sentence on every check.
 */
function UncheckedGroup({ reason, checks, said }: { reason: string; checks: readonly Check[]; said: boolean }) {
  const count = `${checks.length} check${checks.length === 1 ? "" : "s"} could not be made`;
  return (
    <li className="audit-check is-unknown">
      <VerdictBadge verdict="unknown" />
      <div>
        <p className="audit-check-name is-unmade">{reason && !said ? `${count}: ${reason}` : reason ? `${count}, for the reason given above` : count}</p>
        <ul className="audit-unchecked">
          {checks.map((check) => (
            <li key={check.id}>
              {CHECK_LABELS[check.id]}
              {onlyTheReason(check) || !check.reason ? null : <span className="audit-check-evidence"> · {check.evidence}</span>}
            </li>
          ))}
        </ul>
      </div>
    </li>
  );
}

/** The section's checks as shown: each made (or still waiting) check, then its unmade checks grouped by reason. */
function sectionItems(audit: AuditView, checks: readonly Check[], stated: Set<string>): ReactNode[] {
  const unmade = new Map<string, Check[]>();
  const items: ReactNode[] = [];
  for (const check of checks) {
    if (check.verdict === "unknown" && !pendingStep(audit, check)) unmade.set(check.reason ?? "", [...(unmade.get(check.reason ?? "") ?? []), check]);
    else items.push(<CheckItem key={check.id} audit={audit} check={check} />);
  }
  for (const [reason, group] of unmade) {
    items.push(<UncheckedGroup key={`unmade-${reason}`} reason={reason} checks={group} said={stated.has(reason)} />);
    stated.add(reason);
  }
  return items;
}

function Findings({ audit, sections, score }: { audit: AuditView; sections: readonly SectionId[]; score: AuditScore }) {
  // Each reason is said once on the page: the score panel says those that emptied a section, the first group the rest.
  const stated = new Set(noDataNotes(audit, score, sections).map((n) => n.reason));
  return (
    <div className="audit-findings">
      {SECTIONS.filter((s) => sections.includes(s.id)).map((section) => {
        const checks = audit.checks.filter((c) => c.section === section.id);
        const sectionScore = score.sections.find((s) => s.id === section.id)?.score ?? null;
        const waiting = checks.map((c) => pendingStep(audit, c));
        // A section whose every check still waits reads as one line, not a column of spinners.
        const allWaiting = checks.length > 0 && waiting.every((s) => s !== null);
        const status = sectionScore !== null ? `${sectionScore}/100` : allWaiting || (checks.length === 0 && audit.status !== "done") ? "Checking…" : "No data";
        return (
          <div key={section.id} className="audit-group" aria-labelledby={`finding-${section.id}`} role="group">
            <h3 className="audit-group-title" id={`finding-${section.id}`}>
              {section.label}
              <span className="audit-group-score">{status}</span>
            </h3>
            {checks.length === 0 || allWaiting ? (
              <p className="audit-muted">
                {audit.status === "done" && checks.length === 0
                  ? "Nothing could be checked here."
                  : `${[...new Set(waiting.map((s) => (s ? AUDIT_STEP_LABELS[s] : "Checking")))].join(", ")}…`}
              </p>
            ) : (
              <ul className="audit-checks">{sectionItems(audit, checks, stated)}</ul>
            )}
          </div>
        );
      })}
    </div>
  );
}

/**
 * The whole audit for a set of sections: progress while running, the score, what to fix first, the listing and
 * competitors, then each finding. `children` go after the score (the admin's listing picker).
 */
export function AuditFindings({
  audit,
  sections = ALL_SECTIONS,
  overallLabel = "SEO potential",
  children,
}: {
  audit: AuditView;
  sections?: readonly SectionId[];
  overallLabel?: string;
  children?: ReactNode;
}) {
  const all = sections.length === ALL_SECTIONS.length;
  const checks = all ? audit.checks : checksIn(audit.checks, sections);
  const score = all ? audit.score : scoreAudit(checks);
  const fixes = all ? audit.fixFirst : fixFirst(checks);
  const steps = all ? AUDIT_STEPS : AUDIT_STEPS.filter((s) => s === "find" || s === "rank");
  const showCompetitors = sections.includes("competitors");
  if (audit.status === "done" && score.overall === null) {
    // Nothing could be checked: the score panel says so once, with why; no empty sections repeat it (issue 39).
    return (
      <div className="audit" data-audit-status={audit.status}>
        <ScorePanel audit={audit} score={score} sections={sections} overallLabel={overallLabel} />
        {children}
      </div>
    );
  }
  return (
    <div className="audit" data-audit-status={audit.status}>
      {audit.status !== "done" ? <AuditProgress audit={audit} steps={steps} /> : null}
      <ScorePanel audit={audit} score={score} sections={sections} overallLabel={overallLabel} />
      {children}
      <FixFirstList fixes={fixes} />
      {audit.listing && (all || sections.includes("google_business_profile")) ? <ListingSummary listing={audit.listing} /> : null}
      {showCompetitors ? <CompetitorsTable audit={audit} /> : null}
      <Findings audit={audit} sections={sections} score={score} />
    </div>
  );
}

/** Where the audit looked, and when: "ridgeroofing.com and Google · checked November 20, 2026". */
export function auditSubtitle(audit: AuditView): string {
  let site = "";
  if (audit.subject.website) {
    try {
      site = new URL(audit.subject.website).host.replace(/^www\./, "");
    } catch {
      site = audit.subject.website;
    }
  }
  const where = site ? `${site} and Google` : "Google";
  const when = audit.status === "done" ? `checked ${formatLongUsDate(audit.finishedAt ?? audit.createdAt)}` : "checking now";
  return `What we saw on ${where}, ${when}.`;
}

/** The report's "What we found" section (admin view and shared page alike). */
export function WhatWeFoundSection({ audit, children }: { audit: AuditView; children?: ReactNode }) {
  return (
    <ReportSection id={WHAT_WE_FOUND_ID} icon={ReportSearchIcon} title="What we found" subtitle={auditSubtitle(audit)}>
      <AuditFindings audit={audit}>{children}</AuditFindings>
    </ReportSection>
  );
}
