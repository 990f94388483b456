// /admin/pipeline (issue 42): every prospect on its stage, as a board (drag a card, or pick its stage by keyboard) or a
// list; filtered by search, tag and owner; each card's timeline (what it did, each move and why) and, once won, the
// invitation to become a client.
import { useQuery } from "@tanstack/react-query";
import { useState, type DragEvent } from "react";
import { Link } from "react-router";
import { STAGE_LABELS, STAGES, PIPELINE_WORDING, type PipelineCard, type PipelineResponse, type Stage } from "../../../../worker/features/pipeline/rules/stages";
import { Alert } from "../../../design/alert";
import { Badge } from "../../../design/badge";
import { Button } from "../../../design/button";
import { Options, SelectField } from "../../../design/form-fields";
import { BriefcaseIcon } from "../../../design/icons";
import { Modal } from "../../../design/modal";
import { Placeholder } from "../../../design/placeholder";
import { SearchField } from "../../../design/search-field";
import { Segmented } from "../../../design/segmented";
import { QueryView } from "../../../app/query-view";
import { formatDateTime } from "../../../lib/format-date";
import { PageHead } from "../../brand";
import { useBusinessTimeZone } from "../../profile";
import { pipelineQuery, timelineQuery, useConvert, useMoveStage, type PipelineParams } from "../queries";
import "../pipeline.css";

type View = "board" | "list";

export default function AdminPipelinePage() {
  const [params, setParams] = useState<PipelineParams>({ q: "", tag: "", owner: "" });
  const [view, setView] = useState<View>("board");
  const [open, setOpen] = useState<PipelineCard | null>(null);
  const query = useQuery(pipelineQuery(params));
  const set = (p: Partial<PipelineParams>) => setParams((old) => ({ ...old, ...p }));
  const filtered = Boolean(params.q || params.tag || params.owner);
  return (
    <>
      <PageHead eyebrow="Admin" title="Pipeline" subtitle="Every prospect from first audit to signed client. Cards move on their own when a prospect opens its report, chats or leaves its details." />
      <div className="toolbar pl-toolbar">
        <SearchField placeholder="Search prospects..." label="Search prospects" value={params.q} onChange={(q) => set({ q })} />
        <SelectField label="Tag" value={params.tag} wide={false} onChange={(tag) => set({ tag })}>
          <option value="">Every tag</option>
          <Options values={query.data?.tags ?? []} />
        </SelectField>
        <SelectField label="Owner" value={params.owner} wide={false} onChange={(owner) => set({ owner })}>
          <option value="">Everyone's</option>
          <option value="me">Mine</option>
          {(query.data?.admins ?? []).map((a) => (
            <option key={a.id} value={a.id}>
              {a.email}
            </option>
          ))}
        </SelectField>
        <Segmented label="View" tabs value={view} onChange={setView} options={[{ value: "board", label: "Board" }, { value: "list", label: "List" }]} />
      </div>
      <QueryView query={query} failure={PIPELINE_WORDING.failed}>
        {(data) =>
          data.cards.length === 0 ? (
            <Placeholder className="empty-state" icon={BriefcaseIcon} title={filtered ? "No prospects found" : "No prospects yet"}>
              <p className="placeholder-text">{filtered ? PIPELINE_WORDING.noMatch : PIPELINE_WORDING.empty}</p>
              {filtered ? null : <Link to="/admin/report-generator">Open Prospects</Link>}
            </Placeholder>
          ) : view === "board" ? (
            <Board data={data} onOpen={setOpen} />
          ) : (
            <List data={data} onOpen={setOpen} />
          )
        }
      </QueryView>
      {open ? <Timeline card={open} onClose={() => setOpen(null)} /> : null}
    </>
  );
}

function StagePicker({ card }: { card: PipelineCard }) {
  const move = useMoveStage();
  return (
    <select className="input pl-stage" aria-label={`Stage of ${card.name}`} value={card.stage} disabled={move.isPending} onChange={(e) => move.mutate({ prospectId: card.prospectId, stage: e.target.value as Stage })}>
      {STAGES.map((s) => (
        <option key={s} value={s}>
          {STAGE_LABELS[s]}
        </option>
      ))}
    </select>
  );
}

function Card({ card, onOpen }: { card: PipelineCard; onOpen: (c: PipelineCard) => void }) {
  const zone = useBusinessTimeZone();
  return (
    <li className="card pl-card" draggable onDragStart={(e) => e.dataTransfer.setData("text/plain", card.prospectId)} aria-label={card.name}>
      <button type="button" className="pl-name" onClick={() => onOpen(card)}>
        {card.name}
      </button>
      <span className="muted">{[card.area, card.keyword].filter(Boolean).join(" · ")}</span>
      {card.last ? (
        <span className="pl-last">
          {card.last.text} · {formatDateTime(card.last.at, zone)}
        </span>
      ) : null}
      <span className="pl-meta">
        {card.tag ? <Badge tone="view">{card.tag}</Badge> : null}
        {card.clientId ? <Badge tone="success">Client</Badge> : card.invitedAt ? <Badge tone="warning">Invited</Badge> : null}
        {card.owner ? <span className="muted">{card.owner.email}</span> : null}
      </span>
      <StagePicker card={card} />
    </li>
  );
}

function Board({ data, onOpen }: { data: PipelineResponse; onOpen: (c: PipelineCard) => void }) {
  const move = useMoveStage();
  const [over, setOver] = useState<Stage | null>(null);
  const drop = (stage: Stage) => (e: DragEvent) => {
    e.preventDefault();
    setOver(null);
    const prospectId = e.dataTransfer.getData("text/plain");
    const card = data.cards.find((c) => c.prospectId === prospectId);
    if (card && card.stage !== stage) move.mutate({ prospectId, stage });
  };
  return (
    <>
      {move.isError ? <Alert tone="error">{`Could not move the prospect: ${move.error.message}`}</Alert> : null}
      <div className="pl-board">
        {data.stages.map(({ stage, label, count }) => {
          const cards = data.cards.filter((c) => c.stage === stage);
          return (
            <section
              key={stage}
              className={over === stage ? "pl-column is-over" : "pl-column"}
              aria-label={`${label}: ${count}`}
              onDragOver={(e) => {
                e.preventDefault();
                setOver(stage);
              }}
              onDragLeave={() => setOver(null)}
              onDrop={drop(stage)}
            >
              <h2 className="pl-column-title">
                {label} <span className="muted">{count}</span>
              </h2>
              <ul className="pl-cards">
                {cards.map((c) => (
                  <Card key={c.prospectId} card={c} onOpen={onOpen} />
                ))}
              </ul>
              {count > cards.length ? <p className="muted pl-more">{count - cards.length} more: search or filter to find them</p> : null}
            </section>
          );
        })}
      </div>
    </>
  );
}

function List({ data, onOpen }: { data: PipelineResponse; onOpen: (c: PipelineCard) => void }) {
  const zone = useBusinessTimeZone();
  return (
    <div className="card users-table-wrap">
      <table className="users-table">
        <thead>
          <tr>
            <th scope="col">Prospect</th>
            <th scope="col">Stage</th>
            <th scope="col">Last activity</th>
            <th scope="col">Owner</th>
          </tr>
        </thead>
        <tbody>
          {data.cards.map((c) => (
            <tr key={c.prospectId}>
              <td data-label="Prospect">
                <button type="button" className="pl-name" onClick={() => onOpen(c)}>
                  {c.name}
                </button>
                <div className="muted">{[c.area, c.keyword].filter(Boolean).join(" · ")}</div>
              </td>
              <td data-label="Stage">
                <StagePicker card={c} />
              </td>
              <td data-label="Last activity">{c.last ? `${c.last.text} · ${formatDateTime(c.last.at, zone)}` : <span className="muted">—</span>}</td>
              <td data-label="Owner">{c.owner?.email ?? <span className="muted">Nobody</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Timeline({ card, onClose }: { card: PipelineCard; onClose: () => void }) {
  const zone = useBusinessTimeZone();
  const timeline = useQuery(timelineQuery(card.prospectId));
  const convert = useConvert();
  const canInvite = card.stage === "won" && !card.clientId;
  const footer = (
    <>
      {card.reportId ? <Link to={`/admin/reports/${card.reportId}`}>Open the report</Link> : null}
      {canInvite ? (
        <Button variant="primary" busy={convert.isPending} disabled={convert.isSuccess} onClick={() => convert.mutate(card.prospectId)}>
          {card.invitedAt ? "Invite again" : "Invite as a client"}
        </Button>
      ) : null}
      <Button variant="ghost" onClick={onClose}>
        Close
      </Button>
    </>
  );
  return (
    <Modal title={card.name} footer={footer} onClose={onClose} busy={convert.isPending}>
      <p className="muted">
        {STAGE_LABELS[card.stage]}
        {card.email ? ` · ${card.email}` : ""}
        {card.clientId ? " · a client now" : card.invitedAt ? ` · invited ${formatDateTime(card.invitedAt, zone)}` : ""}
      </p>
      {convert.isSuccess ? <Alert tone="success">{convert.data.message}</Alert> : null}
      {convert.isError ? <Alert tone="error">{convert.error.message}</Alert> : null}
      {timeline.isPending ? <p role="status">Loading the timeline…</p> : null}
      {timeline.isError ? <Alert tone="error">{`Could not load the timeline: ${timeline.error.message}`}</Alert> : null}
      {timeline.data ? (
        timeline.data.entries.length === 0 ? (
          <p className="muted">Nothing has happened yet.</p>
        ) : (
          <ol className="pl-timeline">
            {timeline.data.entries.map((e, i) => (
              <li key={`${e.at}-${i}`}>
                <span>{e.text}</span>
                <span className="muted">{formatDateTime(e.at, zone)}</span>
              </li>
            ))}
          </ol>
        )
      ) : null}
    </Modal>
  );
}
