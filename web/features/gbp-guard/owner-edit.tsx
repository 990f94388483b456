// "Edit on Google" for one watched location (issue 41): the business name, address, phone or website, sent to Google
// through Porchlight after the risk check; a value that could get the profile suspended or sent back to verification
// is shown with why, and sent only when the person confirms.
import { useState, type FormEvent } from "react";
import type { EditRisk } from "../../../worker/features/gbp-guard/rules/risk";
import { EDITABLE_FIELDS, type EditableField, type OwnerEdit } from "../../../worker/features/gbp-guard/rules/edit";
import { GUARDED_FIELD_LABELS } from "../../../worker/platform/providers/rules/gbp-location";
import { Alert } from "../../design/alert";
import { Button } from "../../design/button";
import { Options, SelectField } from "../../design/form-fields";
import { Modal } from "../../design/modal";
import { TextField } from "../../design/text-field";
import { ApiError } from "../../lib/api";
import { useOwnerEdit } from "./queries";

type Draft = { title: string; line1: string; line2: string; locality: string; administrativeArea: string; postalCode: string; primaryPhone: string; websiteUri: string };
const EMPTY: Draft = { title: "", line1: "", line2: "", locality: "", administrativeArea: "", postalCode: "", primaryPhone: "", websiteUri: "" };

function editOf(field: EditableField, d: Draft): OwnerEdit["edit"] {
  switch (field) {
    case "title":
      return { field, title: d.title };
    case "storefrontAddress":
      return { field, addressLines: [d.line1, d.line2], locality: d.locality, administrativeArea: d.administrativeArea, postalCode: d.postalCode, regionCode: "US" };
    case "phoneNumbers":
      return { field, primaryPhone: d.primaryPhone };
    case "websiteUri":
      return { field, websiteUri: d.websiteUri };
  }
}

export function OwnerEditButton({ locationName, title, business = "own" }: { locationName: string; title: string; business?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)}>
        Edit on Google
      </Button>
      {open ? <OwnerEditDialog locationName={locationName} title={title} business={business} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function OwnerEditDialog({ locationName, title, business, onClose }: { locationName: string; title: string; business: string; onClose: () => void }) {
  const [field, setField] = useState<EditableField>("title");
  const [draft, setDraft] = useState<Draft>({ ...EMPTY, title });
  const [risks, setRisks] = useState<EditRisk[] | null>(null);
  const edit = useOwnerEdit(business);
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));
  const send = (confirmRisks: boolean) =>
    edit.mutate(
      { locationName, edit: editOf(field, draft), ...(confirmRisks ? { confirmRisks } : {}) },
      { onError: (e) => setRisks(e instanceof ApiError && e.code === "edit_risky" ? ((e.details.risks as EditRisk[] | undefined) ?? []) : null), onSuccess: () => setRisks(null) },
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send(false);
  };
  const fieldErrors = edit.error instanceof ApiError && edit.error.code !== "edit_risky" ? edit.error.message : null;
  const done = edit.isSuccess;
  const footer = done ? (
    <Button variant="primary" onClick={onClose}>
      Done
    </Button>
  ) : (
    <>
      <Button variant="ghost" onClick={onClose} disabled={edit.isPending}>
        Cancel
      </Button>
      {risks ? (
        <Button variant="danger" busy={edit.isPending} onClick={() => send(true)}>
          Send it anyway
        </Button>
      ) : (
        <Button variant="primary" type="submit" form="owner-edit" busy={edit.isPending}>
          Check and send
        </Button>
      )}
    </>
  );
  return (
    <Modal title={`Edit ${title} on Google`} footer={footer} onClose={onClose} busy={edit.isPending}>
      {done ? (
        <p role="status">{(edit.data as { message?: string }).message}</p>
      ) : (
        <form id="owner-edit" className="guard-edit" onSubmit={submit} noValidate>
          <SelectField label="What to change" value={field} onChange={(v) => (setField(v as EditableField), setRisks(null))}>
            <Options values={EDITABLE_FIELDS} label={(f) => GUARDED_FIELD_LABELS[f]} />
          </SelectField>
          {field === "title" ? <TextField label="Business name" hint="Your real-world name, as on your sign: no city, service or slogan." value={draft.title} onChange={set("title")} maxLength={100} /> : null}
          {field === "storefrontAddress" ? (
            <>
              <TextField label="Street address" value={draft.line1} onChange={set("line1")} maxLength={80} autoComplete="address-line1" />
              <TextField label="Suite or unit (optional)" value={draft.line2} onChange={set("line2")} maxLength={80} autoComplete="address-line2" />
              <TextField label="City" value={draft.locality} onChange={set("locality")} maxLength={80} autoComplete="address-level2" />
              <TextField label="State" value={draft.administrativeArea} onChange={set("administrativeArea")} maxLength={80} autoComplete="address-level1" />
              <TextField label="ZIP code" value={draft.postalCode} onChange={set("postalCode")} maxLength={20} autoComplete="postal-code" />
            </>
          ) : null}
          {field === "phoneNumbers" ? <TextField label="Phone" type="tel" value={draft.primaryPhone} onChange={set("primaryPhone")} autoComplete="tel" /> : null}
          {field === "websiteUri" ? <TextField label="Website" type="url" placeholder="https://" value={draft.websiteUri} onChange={set("websiteUri")} /> : null}
        </form>
      )}
      {risks ? (
        <Alert tone="warning" title="This edit could get the profile suspended or sent back to verification">
          <ul className="guard-risks">
            {risks.map((r) => (
              <li key={r.code}>{r.message}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {fieldErrors ? <Alert tone="error">{fieldErrors}</Alert> : null}
    </Modal>
  );
}
