// /admin/brand (issue 30): the agency's brand — name, logo, accent colour (checked live for readable contrast, with
// the nearest readable colour one click away), website, support email and phone, the name mail is sent from and a
// footer line — with a preview of the shared report's header and of a mail. Viewing as someone is read-only.
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  accentContrast,
  BRAND_LIMITS,
  DEFAULT_BRAND_NAME,
  isReadableAccent,
  MIN_CONTRAST,
  nearestReadableAccent,
  normalizeHex,
  type Brand,
  type PublicBrand,
} from "../../../../worker/platform/brand/rules/brand";
import { BrandUpdate } from "../../../../worker/features/brand/rules/brand-update";
import { Alert } from "../../../design/alert";
import { Badge } from "../../../design/badge";
import { PageHead } from "../brand";
import { BrandContact, BrandLogo } from "../../../design/brand-mark";
import { Button, buttonClass } from "../../../design/button";
import { AlertCircleIcon } from "../../../design/icons";
import { TextField } from "../../../design/text-field";
import { useTimedMessage } from "../../../lib/use-timed-message";
import { useViewAs } from "../../../lib/view-as";
import { adminBrandQuery, useResetBrand, useSaveBrand, useUploadBrandLogo } from "../queries";
import "../brand.css";
import "../../../design/public-page.css";
import { QueryView } from "../../../app/query-view";

type Draft = { name: string; accentColor: string; website: string; supportEmail: string; supportPhone: string; mailSenderName: string; footerLine: string };

/** The colour the preview shows while no accent is chosen: the mail's own blue. */
const PREVIEW_ACCENT = "#1d4ed8";

function draftOf(b: PublicBrand | Brand): Draft {
  return {
    name: b.custom ? b.name : "",
    accentColor: b.accentColor ?? "",
    website: b.website ?? "",
    supportEmail: b.supportEmail ?? "",
    supportPhone: b.supportPhone ?? "",
    mailSenderName: "mailSenderName" in b && b.custom && b.mailSenderName !== b.name ? b.mailSenderName : "",
    footerLine: b.footerLine ?? "",
  };
}

export default function AdminBrandPage() {
  const query = useQuery(adminBrandQuery());
  return (
    <>
      <PageHead
        eyebrow="Admin"
        title="Brand"
        subtitle="Your agency's name, logo and colour on every page and message your clients and prospects see: the app, sign-in, shared reports, the free-audit widget and every mail."
      />
      <QueryView query={query} failure="Failed to load the brand: ">
        {(brand) => <BrandForm brand={brand} />}
      </QueryView>
    </>
  );
}

/** The draft starts from the saved brand and is only replaced by a reset: a logo upload keeps what is typed. */
function BrandForm({ brand }: { brand: PublicBrand | Brand }) {
  const readOnly = Boolean(useViewAs());
  const [draft, setDraft] = useState<Draft>(() => draftOf(brand));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, showSaved] = useTimedMessage();
  const save = useSaveBrand();
  const logo = useUploadBrandLogo();
  const reset = useResetBrand();
  const [confirmReset, setConfirmReset] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    // An error stays only until its field is changed.
    setErrors(({ [key]: _fixed, ...rest }) => rest);
  };

  const hex = normalizeHex(draft.accentColor);
  const readable = hex ? isReadableAccent(hex) : true;
  const nearest = hex && !readable ? nearestReadableAccent(hex) : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = BrandUpdate.safeParse(draft);
    const next: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
    if (nearest) next.accentColor = `Too light for white text: use ${nearest} or a darker colour.`;
    setErrors(next);
    if (Object.keys(next).length > 0) {
      // Save must visibly answer: take the reader to the first field that needs fixing (it may be off screen on a phone).
      const form = e.currentTarget as HTMLFormElement;
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    save.mutate(draft, { onSuccess: () => showSaved("Brand saved: it shows on every page and mail from now on.") });
  }

  const preview: PublicBrand = {
    ...brand,
    name: draft.name.trim() || DEFAULT_BRAND_NAME,
    accentColor: hex && readable ? hex : null,
    website: draft.website.trim() || null,
    supportEmail: draft.supportEmail.trim() || null,
    supportPhone: draft.supportPhone.trim() || null,
    footerLine: draft.footerLine.trim() || null,
  };

  return (
    <div className="brand-page">
      <form className="card card-pad brand-form" onSubmit={submit} aria-labelledby="brand-form-title" noValidate>
        <h2 className="section-title" id="brand-form-title">
          Your agency
        </h2>
        {!brand.custom ? (
          <Alert tone="info" title="No brand yet">
            Clients and prospects see {DEFAULT_BRAND_NAME} until you save your agency's name here.
          </Alert>
        ) : null}
        {save.error ? <Alert tone="error">{save.error.message}</Alert> : null}
        {logo.error ? <Alert tone="error">{logo.error.message}</Alert> : null}
        {reset.error ? <Alert tone="error">{reset.error.message}</Alert> : null}
        {saved ? <Alert tone="success">{saved}</Alert> : null}
        <fieldset className="brand-fields" disabled={readOnly}>
          <TextField label="Agency name" value={draft.name} maxLength={BRAND_LIMITS.name} error={errors.name} placeholder="Acme Growth" onChange={(e) => set("name", e.target.value)} />
          <div className="field">
            <span className="field-label">Logo</span>
            <span className="widget-logo-row">
              {brand.logoUrl ? <img className="widget-logo" src={brand.logoUrl} alt="Current logo" /> : <span className="muted">No logo: the app's mark is shown</span>}
              <label className={buttonClass("secondary", "sm")}>
                {logo.isPending ? "Uploading…" : brand.logoUrl ? "Replace logo" : "Upload logo"}
                <input type="file" accept="image/png,image/jpeg,image/webp,image/gif" hidden onChange={(e) => e.target.files?.[0] && logo.mutate(e.target.files[0])} />
              </label>
            </span>
            <p className="field-hint">PNG, JPEG, WebP or GIF, under 512 KB; square shows best.</p>
          </div>
          <div className="field">
            <label className="field-label" htmlFor="brand-accent">
              Accent colour
            </label>
            <span className="widget-accent">
              <input id="brand-accent-picker" type="color" aria-label="Pick the accent colour" value={hex ?? PREVIEW_ACCENT} onChange={(e) => set("accentColor", e.target.value)} />
              <input
                id="brand-accent"
                className="input brand-accent-text"
                value={draft.accentColor}
                maxLength={7}
                placeholder="#1d4ed8"
                aria-invalid={errors.accentColor ? true : undefined}
                aria-describedby={errors.accentColor ? "brand-accent-error" : undefined}
                onChange={(e) => set("accentColor", e.target.value)}
              />
              {hex ? <Badge tone={readable ? "success" : "danger"}>{`${accentContrast(hex).toFixed(2)}:1 ${readable ? "readable" : "too light"}`}</Badge> : null}
            </span>
            {nearest ? (
              <p className="field-error brand-nearest">
                White text on this colour is below {MIN_CONTRAST}:1.{" "}
                <Button size="sm" variant="secondary" onClick={() => set("accentColor", nearest)}>
                  <span className="brand-swatch" style={{ background: nearest }} aria-hidden="true" /> Use {nearest}
                </Button>
              </p>
            ) : errors.accentColor ? (
              <p className="field-error" id="brand-accent-error">
                <AlertCircleIcon size="sm" />
                {errors.accentColor}
              </p>
            ) : (
              <p className="field-hint">Buttons and links on client pages and mail. Empty: the app's own colours.</p>
            )}
          </div>
          <TextField label="Website" value={draft.website} maxLength={BRAND_LIMITS.website} error={errors.website} placeholder="acmegrowth.com" inputMode="url" onChange={(e) => set("website", e.target.value)} />
          <TextField label="Support email" type="email" value={draft.supportEmail} maxLength={BRAND_LIMITS.supportEmail} error={errors.supportEmail} placeholder="help@acmegrowth.com" onChange={(e) => set("supportEmail", e.target.value)} />
          <TextField label="Support phone" type="tel" value={draft.supportPhone} maxLength={BRAND_LIMITS.supportPhone} error={errors.supportPhone} placeholder="(512) 555-0100" onChange={(e) => set("supportPhone", e.target.value)} />
          <TextField
            label="Mail sent from (name)"
            value={draft.mailSenderName}
            maxLength={BRAND_LIMITS.mailSenderName}
            error={errors.mailSenderName}
            placeholder={draft.name || "Your agency's name"}
            hint="The name in the From line of every mail. Empty: the agency's name. The address is the server's MAIL_FROM."
            onChange={(e) => set("mailSenderName", e.target.value)}
          />
          <TextField label="Footer line" value={draft.footerLine} maxLength={BRAND_LIMITS.footerLine} error={errors.footerLine} placeholder="Acme Growth · 100 Main St, Austin TX" hint="Under every mail and client page." onChange={(e) => set("footerLine", e.target.value)} />
        </fieldset>
        <div className="row-actions">
          <Button type="submit" variant="primary" busy={save.isPending} disabled={readOnly}>
            Save brand
          </Button>
          {brand.custom ? (
            confirmReset ? (
              <span className="row-confirm">
                Show {DEFAULT_BRAND_NAME} to clients again?
                <Button size="sm" variant="danger" busy={reset.isPending} onClick={() => reset.mutate(undefined, { onSuccess: (b) => { setConfirmReset(false); setDraft(draftOf(b)); } })}>
                  Reset
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setConfirmReset(false)}>
                  Keep
                </Button>
              </span>
            ) : (
              <Button variant="ghost" disabled={readOnly} onClick={() => setConfirmReset(true)}>
                Reset to {DEFAULT_BRAND_NAME}
              </Button>
            )
          ) : null}
        </div>
      </form>
      <BrandPreview brand={preview} from={draft.mailSenderName.trim() || preview.name} />
    </div>
  );
}

/** How the shared report's header and a mail look with the draft (not saved yet). */
function BrandPreview({ brand, from }: { brand: PublicBrand; from: string }) {
  const accent = brand.accentColor ?? PREVIEW_ACCENT;
  return (
    <section className="card card-pad brand-preview" aria-labelledby="brand-preview-title">
      <h2 className="section-title" id="brand-preview-title">
        Preview
      </h2>
      <p className="field-label">Shared report</p>
      <div className="shared-hero brand-preview-hero">
        <div className="shared-sender">
          <BrandLogo brand={brand} className="shared-sender-logo" />
          <span className="shared-sender-text">
            <span>Prepared by</span>
            <strong>{brand.name}</strong>
          </span>
        </div>
        <p className="shared-eyebrow">SEO &amp; Marketing Report</p>
        <p className="brand-preview-name">Ridge Roofing</p>
      </div>
      <p className="field-label">Mail</p>
      <div className="brand-preview-mail">
        <p className="brand-preview-from">
          From: <strong>{from}</strong>
        </p>
        <p className="brand-preview-mail-name" style={{ color: accent }}>
          {brand.name}
        </p>
        <p>Your free audit is ready. It looked at the Google listing, the website and where the business ranks.</p>
        <span className="brand-preview-button" style={{ background: accent }}>
          Open your report
        </span>
        <BrandContact brand={brand} className="brand-contact brand-preview-foot" />
      </div>
    </section>
  );
}
