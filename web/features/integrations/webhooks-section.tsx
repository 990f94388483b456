// The Integrations page's "Webhooks" card (admins, issue 21): endpoints with their state and last response, the add/edit
// form with the address rule, the signing secret shown once, pause/resume, a test event, and each endpoint's delivery log
// with replay.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { WEBHOOK_EVENTS, type WebhookEvent } from "../../../worker/platform/notifications/rules/lead-events";
import { formatDateTime } from "../../lib/format-date";
import { deliveriesQuery, useAddEndpoint, useDeleteEndpoint, useReplay, useSendTest, useUpdateEndpoint, webhooksQuery } from "./webhooks-queries";
import { Alert, RetryAlert } from "../../design/alert";
import { Badge, type BadgeTone } from "../../design/badge";
import { Button } from "../../design/button";
import { CodeIcon, PlusIcon } from "../../design/icons";
import { IntegrationCard } from "./integration-card";
import { Modal } from "../../design/modal";
import { CopyButton } from "../reports";
import { LoadingScreen } from "../../app/route-guards";
import { TextField } from "../../design/text-field";
import { TableHead } from "../../design/table-head";
import "./integrations.css";
import { QueryView } from "../../app/query-view";

type Endpoint = {
  id: string;
  url: string;
  description: string;
  events: WebhookEvent[];
  status: "active" | "paused";
  failing: boolean;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
};

const DELIVERY_TONE: Record<string, BadgeTone> = { succeeded: "success", failed: "danger", retrying: "warning", pending: "soon", sending: "soon" };

function endpointState(e: Endpoint): { label: string; tone: BadgeTone } {
  if (e.status === "paused") return { label: "Paused", tone: "warning" };
  return e.failing ? { label: "Failing", tone: "danger" } : { label: "Active", tone: "success" };
}

function lastResponse(e: Endpoint): string {
  if (!e.lastAttemptAt) return "No deliveries yet";
  const what = e.lastStatusCode ? `HTTP ${e.lastStatusCode}` : (e.lastError ?? "no answer");
  return `Last response: ${what} · ${formatDateTime(e.lastAttemptAt)}`;
}

export function WebhooksSection() {
  const query = useQuery(webhooksQuery());
  const [editing, setEditing] = useState<Endpoint | "new" | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  return (
    <IntegrationCard
      icon={CodeIcon}
      title="Webhooks"
      description="Send your prospects' moves to your own systems (a CRM, Zapier, Make): each event is posted as signed JSON."
      aside={
        <Button variant="primary" onClick={() => setEditing("new")}>
          <PlusIcon size="sm" /> Add endpoint
        </Button>
      }
    >

      <QueryView query={query}>
        {(data) => data.endpoints.length === 0 ? (
          <p className="muted">No endpoints yet. Add one to receive events such as a prospect opening their report or leaving their phone number.</p>
        ) : (
          <ul className="webhook-list">
            {(data.endpoints as Endpoint[]).map((e) => (
              <EndpointItem key={e.id} endpoint={e} onEdit={() => setEditing(e)} onSecret={setSecret} />
            ))}
          </ul>
        )}
      </QueryView>

      {editing && query.data ? (
        <EndpointForm
          endpoint={editing === "new" ? null : editing}
          urlRule={query.data.urlRule}
          onClose={() => setEditing(null)}
          onCreated={(s) => {
            setEditing(null);
            setSecret(s);
          }}
        />
      ) : null}
      {secret ? <SecretModal secret={secret} onClose={() => setSecret(null)} /> : null}
    </IntegrationCard>
  );
}

function EndpointItem({ endpoint: e, onEdit, onSecret }: { endpoint: Endpoint; onEdit: () => void; onSecret: (s: string) => void }) {
  const [showLog, setShowLog] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const update = useUpdateEndpoint();
  const remove = useDeleteEndpoint();
  const test = useSendTest();
  const state = endpointState(e);
  const error = update.error ?? test.error;
  return (
    <li className="webhook-item">
      <div className="webhook-row">
        <code className="webhook-url">{e.url}</code>
        <Badge tone={state.tone}>{state.label}</Badge>
      </div>
      {e.description ? <p className="muted">{e.description}</p> : null}
      <p className="webhook-events">
        {e.events.map((ev) => (
          <code key={ev} className="webhook-event">
            {ev}
          </code>
        ))}
      </p>
      <p className={e.failing || e.status === "paused" ? "field-error" : "muted"}>
        {lastResponse(e)}
      </p>
      {e.status === "paused" ? (
        <Alert tone="warning" title="Paused after a day of failed deliveries">
          <p>No events are sent until you resume it. Fix the receiver, resume, then replay the failed deliveries from the log.</p>
        </Alert>
      ) : null}
      <div className="integration-actions">
        <Button size="sm" disabled={e.status === "paused"} busy={test.isPending} onClick={() => test.mutate(e.id, { onSuccess: () => setShowLog(true) })}>
          Send test event
        </Button>
        <Button size="sm" onClick={() => setShowLog((s) => !s)} aria-expanded={showLog}>
          {showLog ? "Hide delivery log" : "Delivery log"}
        </Button>
        <Button size="sm" onClick={onEdit}>
          Edit
        </Button>
        <Button size="sm" busy={update.isPending && update.variables?.patch.status !== undefined} onClick={() => update.mutate({ id: e.id, patch: { status: e.status === "paused" ? "active" : "paused" } })}>
          {e.status === "paused" ? "Resume" : "Pause"}
        </Button>
        <Button size="sm" busy={update.isPending && update.variables?.patch.rotateSecret === true} onClick={() => update.mutate({ id: e.id, patch: { rotateSecret: true } }, { onSuccess: (r) => "secret" in r && r.secret && onSecret(r.secret) })}>
          Rotate secret
        </Button>
        <Button size="sm" variant="danger" onClick={() => setConfirmDelete(true)}>
          Delete
        </Button>
      </div>
      {error ? <p className="field-error">{error.message}</p> : null}
      {showLog ? <DeliveryLog endpointId={e.id} paused={e.status === "paused"} /> : null}
      {confirmDelete ? (
        <Modal
          title="Delete this endpoint?"
          tone="danger"
          busy={remove.isPending}
          onClose={() => setConfirmDelete(false)}
          footer={
            <>
              <Button onClick={() => setConfirmDelete(false)}>Cancel</Button>
              <Button variant="danger" busy={remove.isPending} onClick={() => remove.mutate(e.id, { onSuccess: () => setConfirmDelete(false) })}>
                Delete endpoint
              </Button>
            </>
          }
        >
          <p>
            Events stop going to <code>{e.url}</code> and its delivery log is deleted.
          </p>
          {remove.isError ? <p className="field-error">{remove.error.message}</p> : null}
        </Modal>
      ) : null}
    </li>
  );
}

function DeliveryLog({ endpointId, paused }: { endpointId: string; paused: boolean }) {
  const query = useQuery(deliveriesQuery(endpointId));
  const replay = useReplay();
  if (query.isPending) return <LoadingScreen />;
  if (query.isError) return <RetryAlert message={query.error.message} onRetry={() => void query.refetch()} />;
  if (query.data.deliveries.length === 0) return <p className="muted">No deliveries yet. Send a test event to try the endpoint.</p>;
  return (
    <div className="usage-table-wrap">
      <table className="usage-table webhook-log">
        <TableHead columns={["Time", "Event", "Status", "Response", "Body"]} actions="Actions" />
        <tbody>
          {query.data.deliveries.map((d) => (
            <tr key={d.id}>
              <td data-label="Time">{formatDateTime(d.createdAt)}</td>
              <td data-label="Event">
                <code>{d.eventType}</code>
              </td>
              <td data-label="Status">
                <Badge tone={DELIVERY_TONE[d.status] ?? "soon"}>{d.status}</Badge>
                {d.attempts > 1 ? <span className="muted"> · {d.attempts} tries</span> : null}
              </td>
              <td data-label="Response">{d.responseCode ? `HTTP ${d.responseCode}` : (d.lastError ?? "—")}</td>
              <td data-label="Body">
                <details>
                  <summary>Request body</summary>
                  <pre className="webhook-body">{d.body}</pre>
                </details>
              </td>
              <td>
                <Button size="sm" disabled={paused} busy={replay.isPending && replay.variables?.deliveryId === d.id} onClick={() => replay.mutate({ id: endpointId, deliveryId: d.id })}>
                  Replay
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {replay.isError ? <p className="field-error">{replay.error.message}</p> : null}
    </div>
  );
}

function EndpointForm({ endpoint, urlRule, onClose, onCreated }: { endpoint: Endpoint | null; urlRule: string; onClose: () => void; onCreated: (secret: string) => void }) {
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [description, setDescription] = useState(endpoint?.description ?? "");
  const [events, setEvents] = useState<Set<WebhookEvent>>(() => new Set(endpoint?.events ?? WEBHOOK_EVENTS));
  const add = useAddEndpoint();
  const update = useUpdateEndpoint();
  const busy = add.isPending || update.isPending;
  const error = add.error ?? update.error;
  // The server explains a refused address ("url: … An https address on a public host …"): shown under the field.
  const fieldError = error?.message.startsWith("url: ") ? error.message.slice(5) : null;
  const toggle = (ev: WebhookEvent) =>
    setEvents((current) => {
      const next = new Set(current);
      if (next.has(ev)) next.delete(ev);
      else next.add(ev);
      return next;
    });
  const submit = () => {
    const input = { url: url.trim(), description: description.trim(), events: WEBHOOK_EVENTS.filter((e) => events.has(e)) };
    if (endpoint) update.mutate({ id: endpoint.id, patch: input }, { onSuccess: onClose });
    else add.mutate(input, { onSuccess: (r) => onCreated(r.secret) });
  };
  return (
    <Modal
      title={endpoint ? "Edit webhook endpoint" : "Add a webhook endpoint"}
      busy={busy}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant="primary" busy={busy} disabled={!url.trim() || events.size === 0} onClick={submit}>
            {endpoint ? "Save endpoint" : "Add endpoint"}
          </Button>
        </>
      }
    >
      <div className="webhook-form">
        <TextField label="Endpoint URL" type="url" inputMode="url" placeholder="https://hooks.example.com/porchlight" value={url} onChange={(e) => setUrl(e.target.value)} hint={urlRule} error={fieldError} />
        <TextField label="Description (optional)" value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
        <fieldset className="location-picker">
          <legend className="integration-subtitle">Events</legend>
          {WEBHOOK_EVENTS.map((ev) => (
            <label key={ev} className="checkbox">
              <input type="checkbox" checked={events.has(ev)} onChange={() => toggle(ev)} />
              <code>{ev}</code>
            </label>
          ))}
        </fieldset>
        {error && !fieldError ? <p className="field-error">{error.message}</p> : null}
      </div>
    </Modal>
  );
}

function SecretModal({ secret, onClose }: { secret: string; onClose: () => void }) {
  return (
    <Modal title="Your signing secret" onClose={onClose} footer={<Button variant="primary" onClick={onClose}>I have copied it</Button>}>
      <p>Verify each delivery's Porchlight-Signature header with this secret. It is shown only now: copy it into your receiver.</p>
      <pre className="webhook-body">{secret}</pre>
      <CopyButton text={secret} label="Copy secret" />
    </Modal>
  );
}
