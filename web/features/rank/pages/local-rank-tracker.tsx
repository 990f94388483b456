// /tools/local-rank-tracker: Local Rank Tracker (issue 19) — keywords checked daily or weekly in the map pack and
// the organic results, with the change since the last and the first check, a sparkline, alerts and the plan's limit.
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import type { CheckFrequency } from "../../../../worker/features/rank/rules/tracker";
import type { TrackedKeywordList, TrackedKeywordView } from "../../../../worker/features/rank/rules/view";
import { Alert, RetryAlert } from "../../../design/alert";
import { BusinessToolPage, MissingDetails, useBusinessChoice } from "../../audits";
import { Badge } from "../../../design/badge";
import { Button } from "../../../design/button";
import { TrendingUpIcon } from "../../../design/icons";
import { Placeholder } from "../../../design/placeholder";
import { RankSparkline } from "../rank-charts";
import { PositionChangeMark } from "../rank-figures";
import { resultText } from "../rank-heat-map";
import { AlertBadges, KeywordActions, nextCheckText } from "../rank-keyword";
import { LoadingScreen } from "../../../app/route-guards";
import { Segmented, type SegmentedOption } from "../../../design/segmented";
import { TextField } from "../../../design/text-field";
import { trackedKeywordsQuery, useTrackKeyword } from "../queries";
import { useBusinessProfile } from "../../profile";
import { useCapabilities } from "../../setup";
import { ActionError, SearchUnavailableNotice } from "../../setup";
import { searchStart } from "../../../../worker/features/tools/rules/search-tools";
import "../../../design/scan-results.css";
import "../rank.css";
import { PageTitle } from "../../brand";

export const TRACKER_PATH = "/tools/local-rank-tracker";

/** "3 of 3 keywords" (admins have no limit: "5 keywords"). */
export function limitText(list: Pick<TrackedKeywordList, "limit" | "used">): string {
  return list.limit === null ? `${list.used} keyword${list.used === 1 ? "" : "s"}` : `${list.used} of ${list.limit} keywords`;
}

function Position({ label, side }: { label: string; side: TrackedKeywordView["map"] }) {
  return (
    <div className="rank-kw-pos">
      <span className="audit-muted">{label}</span>
      <strong>{resultText(side.current)}</strong>
      <span className="rank-kw-moves">
        <PositionChangeMark change={side.sinceLast} since="last" />
        <span className="audit-muted">last</span>
        <PositionChangeMark change={side.sinceFirst} since="first" />
        <span className="audit-muted">first</span>
      </span>
    </div>
  );
}

function KeywordRow({ k, readOnly }: { k: TrackedKeywordView; readOnly: boolean }) {
  return (
    <li className={`card rank-kw${k.alerts.length ? " is-alert" : ""}${k.paused ? " is-paused" : ""}`}>
      <div className="rank-kw-name">
        <Link to={`${TRACKER_PATH}/${encodeURIComponent(k.id)}`}>{k.keyword}</Link>
        <span className="audit-muted">{nextCheckText(k)}</span>
        <span className="rank-badges">
          {k.paused ? <Badge tone="view">Paused</Badge> : null}
          <AlertBadges alerts={k.alerts} />
        </span>
      </div>
      <Position label="Map pack" side={k.map} />
      <Position label="Organic" side={k.organic} />
      <RankSparkline spark={k.spark} />
      <KeywordActions keyword={k} readOnly={readOnly} />
    </li>
  );
}

const FREQUENCIES: SegmentedOption<CheckFrequency>[] = [
  { value: "daily", label: "Daily" },
  { value: "weekly", label: "Weekly" },
];

function AddKeyword({ list, target, readOnly, name }: { list: TrackedKeywordList; target: NonNullable<ReturnType<typeof useBusinessChoice>["target"]>; readOnly: boolean; name: string }) {
  const [keyword, setKeyword] = useState("");
  const [frequency, setFrequency] = useState<CheckFrequency>("daily");
  const track = useTrackKeyword();
  const full = list.limit !== null && list.used >= list.limit;
  // Every check is a Google search: without search the form is disabled and says why (issue 26).
  const searchOff = useCapabilities()?.search === false;
  const example = searchStart(useBusinessProfile()).example;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!keyword.trim() || full || searchOff) return;
    track.mutate({ target, keyword, frequency }, { onSuccess: () => setKeyword("") });
  };
  return (
    <form className="card card-pad audit-block" aria-labelledby="track-form-title" onSubmit={submit}>
      <div className="rank-form-head">
        <h2 className="audit-block-title" id="track-form-title">
          Track a keyword{name ? ` for ${name}` : ""}
        </h2>
        {full ? <Badge tone="warning">{limitText(list)}</Badge> : <span className="audit-muted">{limitText(list)}</span>}
      </div>
      {searchOff ? <SearchUnavailableNotice what="Tracking a keyword" /> : null}
      {full ? (
        <Alert tone="info" title="Your plan's keywords are all in use">
          <p>
            Delete a keyword to track another, or <Link to="/subscription">upgrade your plan</Link> to track more.
          </p>
        </Alert>
      ) : (
        <div className="rank-form">
          <TextField label="Keyword" value={keyword} onChange={(e) => setKeyword(e.target.value)} placeholder={example} maxLength={200} disabled={searchOff} />
          <div className="field">
            <span className="field-label">How often</span>
            <Segmented label="How often" value={frequency} onChange={setFrequency} options={FREQUENCIES} />
          </div>
        </div>
      )}
      {track.error ? <ActionError error={track.error} /> : null}
      {!full ? (
        <div>
          <Button type="submit" variant="primary" busy={track.isPending} disabled={readOnly || searchOff || !keyword.trim()}>
            Track keyword
          </Button>
        </div>
      ) : null}
    </form>
  );
}

export default function LocalRankTrackerPage() {
  const choice = useBusinessChoice();
  const { target } = choice;
  const list = useQuery({ ...trackedKeywordsQuery(target ?? { own: true }), enabled: target !== null });

  let body;
  if (choice.loading) body = <LoadingScreen />;
  else if (choice.missing.length) body = <MissingDetails missing={choice.missing} what="The tracker looks your business up on Google by its name and location." />;
  else if (!target) body = null;
  else if (list.isError) body = <RetryAlert message="Could not load the tracked keywords." onRetry={() => void list.refetch()} />;
  else if (!list.data) body = <LoadingScreen />;
  else {
    const keywords = list.data.keywords;
    body = (
      <>
        <AddKeyword list={list.data} target={target} readOnly={choice.readOnly} name={choice.name} />
        {keywords.length === 0 ? (
          <Placeholder icon={TrendingUpIcon} title="No keywords tracked yet" className="empty-state">
            <p className="placeholder-text">Add the searches your customers make. Each is checked in the map pack and the organic results, and its first check runs straight away.</p>
          </Placeholder>
        ) : (
          <ul className="rank-kw-list" aria-label="Tracked keywords">
            {keywords.map((k) => (
              <KeywordRow key={k.id} k={k} readOnly={choice.readOnly} />
            ))}
          </ul>
        )}
      </>
    );
  }

  return (
    <BusinessToolPage
      title="Local Rank Tracker"
      subtitle="Your positions on Google Maps and in search for the keywords that bring you work, checked for you daily or weekly."
      choice={choice}
    >
      <PageTitle>Local Rank Tracker</PageTitle>
      {body}
    </BusinessToolPage>
  );
}
