// /integrations: connect Google Business Profile (OAuth at Google), pick the locations to post to, see the connection,
// disconnect; the Google Cloud set-up explained, Google's refusals in plain words, and the way back after a refused token.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { GOOGLE_ERROR_MESSAGES, type GbpLocationJson, type IntegrationsResponse } from "../../../../worker/features/content/rules/gbp-schedule";
import { Alert } from "../../../design/alert";
import { Badge, type BadgeTone } from "../../../design/badge";
import { Button } from "../../../design/button";
import { MapPinIcon, StoreIcon } from "../../../design/icons";
import { ConfirmModal } from "../../../design/modal";
import { WebhooksSection } from "../webhooks-section";
import { IntegrationCard } from "../integration-card";
import { formatDateTime } from "../../../lib/format-date";
import { useAuth } from "../../../lib/auth";
import { useViewAs } from "../../../lib/view-as";
import { integrationsQuery, useChooseLocations, useConnectGoogle, useDisconnectGoogle } from "../queries";
import "../integrations.css";
import { UnavailableNotice } from "../../setup";
import { GuardSection } from "../../gbp-guard";
import { BrandName, PageHead } from "../../brand";
import { useBrand } from "../../brand";
import { QueryView } from "../../../app/query-view";

type Google = IntegrationsResponse["google"];

const STATUS: Record<Google["status"], { label: string; tone: BadgeTone }> = {
  not_configured: { label: "Not set up", tone: "soon" },
  not_connected: { label: "Not connected", tone: "soon" },
  choosing: { label: "Pick locations", tone: "warning" },
  connected: { label: "Connected", tone: "success" },
  needs_reconnect: { label: "Reconnect needed", tone: "danger" },
};

export default function IntegrationsPage() {
  const viewAs = useViewAs();
  const readOnly = Boolean(viewAs);
  const { isAdmin } = useAuth();
  const [params, setParams] = useSearchParams();
  const query = useQuery(integrationsQuery(viewAs?.viewingUserId ?? null));
  const outcome = params.get("error");
  const justConnected = params.get("connected") === "1";

  return (
    <>
      <PageHead
        eyebrow="Settings"
        title="Integrations"
        subtitle={`Connect the places ${useBrand().name} publishes to for you.`}
      />

      {outcome && outcome !== "api_not_enabled" && outcome !== "not_approved" ? (
        <Alert tone="error" title="Google Business Profile was not connected">
          <p>{GOOGLE_ERROR_MESSAGES[outcome] ?? GOOGLE_ERROR_MESSAGES.refused}</p>
        </Alert>
      ) : null}
      {justConnected ? (
        <Alert tone="success" title="Google Business Profile is connected">
          <p>
            Scheduled posts now publish to your chosen locations at their time. <Link to="/tools/gmb-post-scheduler">Open the GMB Post Scheduler</Link>
          </p>
        </Alert>
      ) : null}

      <QueryView query={query}>
        {(data) => (
          <>
            <GoogleCard google={data.google} readOnly={readOnly} picking={params.get("step") === "locations"} onPicked={() => setParams({ connected: "1" }, { replace: true })} />
            {data.google.status === "connected" || data.google.status === "needs_reconnect" ? <GuardSection /> : null}
          </>
        )}
      </QueryView>
      {isAdmin && !readOnly ? <WebhooksSection /> : null}
    </>
  );
}

function GoogleCard({ google, readOnly, picking, onPicked }: { google: Google; readOnly: boolean; picking: boolean; onPicked: () => void }) {
  const connect = useConnectGoogle();
  const [changing, setChanging] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const disconnect = useDisconnectGoogle();
  const status = STATUS[google.status];
  const showPicker = google.status === "choosing" || (google.status === "connected" && (changing || picking));
  const connectLabel = google.status === "needs_reconnect" ? "Reconnect Google Business Profile" : "Connect Google Business Profile";

  return (
    <IntegrationCard icon={StoreIcon} title="Google Business Profile" description="Publish scheduled posts from the GMB Post Scheduler to your Google listing." aside={<Badge tone={status.tone}>{status.label}</Badge>}>

      {google.status === "not_configured" ? (
        <>
          <UnavailableNotice title="Publishing to Google isn't available yet">
            Your agency has been told. Until it is available, the GMB Post Scheduler reminds you when a post is due and you copy it onto your listing.
          </UnavailableNotice>
        </>
      ) : null}

      {google.error && google.status !== "connected" ? (
        <Alert tone={google.status === "needs_reconnect" ? "warning" : "error"} title={google.error.code === "api_not_enabled" ? "Google's Business Profile APIs are not enabled" : google.error.code === "not_approved" ? "Google has not approved API access yet" : "Google refused the connection"}>
          <p>{google.error.message}</p>
        </Alert>
      ) : null}

      {google.status === "not_connected" || google.status === "needs_reconnect" ? (
        <div className="integration-actions">
          <Button variant="primary" busy={connect.isPending} disabled={readOnly || !google.canConnect} onClick={() => connect.mutate()}>
            {connectLabel}
          </Button>
          {!google.canConnect ? <p className="field-error">Connecting isn't available yet; your agency has been told.</p> : null}
          {connect.isError ? <p className="field-error">{connect.error.message}</p> : null}
          <p className="muted">You sign in at Google and allow <BrandName /> to manage your Business Profile posts; <BrandName /> never sees your Google password.</p>
        </div>
      ) : null}

      {showPicker ? (
        <LocationPicker
          available={google.available}
          chosen={google.locations}
          readOnly={readOnly}
          onDone={() => {
            setChanging(false);
            onPicked();
          }}
        />
      ) : null}

      {google.status === "connected" && !showPicker ? (
        <>
          <h3 className="integration-subtitle">Posting to</h3>
          <ul className="location-list">
            {google.locations.map((l) => (
              <li key={l.name}>
                <MapPinIcon size="sm" />
                <span>
                  <strong>{l.title}</strong>
                  {l.address ? <span className="muted"> · {l.address}</span> : null}
                </span>
              </li>
            ))}
          </ul>
          <p className="muted">Last synced with Google: {google.lastSyncAt ? formatDateTime(google.lastSyncAt) : "never"}</p>
          <div className="integration-actions">
            <Button disabled={readOnly} onClick={() => setChanging(true)}>
              Change locations
            </Button>
            <Button variant="danger" disabled={readOnly} onClick={() => setConfirming(true)}>
              Disconnect
            </Button>
          </div>
        </>
      ) : null}

      {confirming ? (
        <ConfirmModal
          title="Disconnect Google Business Profile?"
          tone="danger"
          busy={disconnect.isPending}
          onClose={() => setConfirming(false)}
          confirmLabel="Disconnect"
          onConfirm={() => disconnect.mutate(undefined, { onSuccess: () => setConfirming(false) })}
        >
          <p><BrandName /> gives Google back its access and forgets it. Scheduled posts stay on your calendar and remind you when they are due.</p>
          {disconnect.isError ? <p className="field-error">{disconnect.error.message}</p> : null}
        </ConfirmModal>
      ) : null}
    </IntegrationCard>
  );
}

function LocationPicker({ available, chosen, readOnly, onDone }: { available: GbpLocationJson[]; chosen: GbpLocationJson[]; readOnly: boolean; onDone: () => void }) {
  const [picked, setPicked] = useState<Set<string>>(() => new Set(chosen.map((l) => l.name)));
  const save = useChooseLocations();
  const toggle = (name: string) =>
    setPicked((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });
  return (
    <fieldset className="location-picker">
      <legend className="integration-subtitle">Which locations should <BrandName /> post to?</legend>
      {available.length === 0 ? <p className="muted">Google lists no locations for this account.</p> : null}
      {available.map((l) => (
        <label key={l.name} className={l.canOperateLocalPost ? "checkbox" : "checkbox is-disabled"}>
          <input type="checkbox" disabled={!l.canOperateLocalPost || readOnly} checked={picked.has(l.name)} onChange={() => toggle(l.name)} />
          <span>
            <strong>{l.title}</strong>
            {l.address ? <span className="muted"> · {l.address}</span> : null}
            {l.canOperateLocalPost ? null : <span className="muted"> — Google does not allow posts here (unverified, or you are not its owner or manager)</span>}
          </span>
        </label>
      ))}
      {save.isError ? <p className="field-error">{save.error.message}</p> : null}
      <div className="integration-actions">
        <Button variant="primary" busy={save.isPending} disabled={readOnly || picked.size === 0} onClick={() => save.mutate([...picked], { onSuccess: onDone })}>
          Save locations
        </Button>
      </div>
    </fieldset>
  );
}

