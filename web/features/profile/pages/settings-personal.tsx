// /settings/personal: Business Settings (spec part 1 §2): the AI usage panel and the Company Profile form with a stored
// logo. While an admin views as a user, that user's profile is shown read-only.
import { useQuery } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent } from "react";
import {
  LOGO_MAX_BYTES,
  LOGO_TOO_LARGE_MESSAGE,
  PROFILE_LIMITS,
  PROFILE_LOGIN_REQUIRED,
  PROFILE_SAVED_MESSAGE,
  ProfileUpdate,
  type ProfileDto,
  type ProfileUpdateInput,
} from "../../../../worker/features/profile/rules/profile";
import { Alert, RetryAlert } from "../../../design/alert";
import { Button } from "../../../design/button";
import { CategorySelect } from "../../../design/category-select";
import { CompanyLogo } from "../../../design/company-logo";
import { TextField } from "../../../design/text-field";
import { TimeZoneSelect } from "../time-zone-select";
import { browserTimeZone } from "../../../lib/format-date";
import { UsagePanel } from "../../usage";
import { ApiError, TIMEOUT_MESSAGE } from "../../../lib/api";
import { useTimedMessage } from "../../../lib/use-timed-message";
import { useViewAs } from "../../../lib/view-as";
import { profileQuery, useRemoveLogo, useSaveProfile, useUploadLogo } from "../queries";
import "../profile.css";
import { PageHead } from "../../brand";
import { PageSection } from "../../../design/page-section";

type Fields = Record<keyof ProfileUpdateInput, string>;
type FieldErrors = Partial<Record<keyof Fields, string>>;

const PROFILE_EMPTY_MESSAGE = "Nothing to save yet: fill in your business details first.";
const PROFILE_UNCHANGED_MESSAGE = "No changes to save.";

function fieldsOf(p: ProfileDto): Fields {
  return {
    company_name: p.company_name ?? "",
    company_website: p.company_website ?? "",
    company_phone: p.company_phone ?? "",
    company_location: p.company_location ?? "",
    company_street_address: p.company_street_address ?? "",
    company_email: p.company_email ?? "",
    company_category: p.company_category ?? "",
    company_description: p.company_description ?? "",
    // Defaulted from the browser until the business picks one; saved with the form.
    time_zone: p.time_zone ?? browserTimeZone(),
  };
}

/** Spec §8: an aborted call has its own sentence; other failures carry the server's message. */
function failure(prefix: string, error: unknown): string {
  if (error instanceof ApiError && error.code === "timeout") return TIMEOUT_MESSAGE;
  if (error instanceof ApiError && error.status === 401) return PROFILE_LOGIN_REQUIRED;
  return `${prefix}${error instanceof Error && error.message ? error.message : "Unknown error"}`;
}

export default function SettingsPersonalPage() {
  const viewAs = useViewAs();
  const query = useQuery(profileQuery(viewAs?.viewingUserId ?? null));
  const readOnly = Boolean(viewAs);

  return (
    <>
      <PageHead
        eyebrow="Settings"
        title="Business Settings"
        subtitle="Your company profile makes every AI tool write about your business, in your area."
      />

      {readOnly ? (
        <Alert tone="info" title="Viewing as user">
          This is {viewAs?.viewingUserDetails.company_name || viewAs?.viewingUserEmail || "this user"}&apos;s profile. It is read-only while you
          view as them.
        </Alert>
      ) : null}

      {/* The form first: on a phone the usage cards above it pushed it below the fold (issue 39). */}
      <PageSection title="Company Profile">
        {query.isPending ? (
          <p className="card card-pad usage-loading" role="status">
            <span className="spinner" aria-hidden="true" /> Loading your business profile...
          </p>
        ) : query.isError ? (
          <RetryAlert message={failure("Failed to load your business data: ", query.error)} onRetry={() => void query.refetch()} />
        ) : (
          <ProfileForm key={query.data.profile.id} profile={query.data.profile} readOnly={readOnly} />
        )}
      </PageSection>

      <UsagePanel withLink />
    </>
  );
}

function ProfileForm({ profile, readOnly }: { profile: ProfileDto; readOnly: boolean }) {
  const [fields, setFields] = useState<Fields>(() => fieldsOf(profile));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [success, showSuccess] = useTimedMessage();
  const [notice, showNotice] = useTimedMessage();
  // What is saved, to tell a save from a click that would change nothing; a defaulted time zone is not saved yet.
  const [saved, setSaved] = useState(() => ({ fields: fieldsOf(profile), zoneSaved: profile.time_zone !== null }));
  const [error, setError] = useState<string | null>(null);
  const save = useSaveProfile();
  const descriptionId = useId();

  const set = (name: keyof Fields) => (value: string) => setFields((f) => ({ ...f, [name]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    // The same schema the server validates with.
    const parsed = ProfileUpdate.safeParse(fields);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof Fields] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    const names = Object.keys(fields) as (keyof Fields)[];
    const unchanged = names.every((name) => fields[name] === saved.fields[name]);
    const empty = names.every((name) => name === "time_zone" || fields[name].trim() === "");
    // Nothing typed, or nothing changed: no save, and no "updated successfully" for it.
    if (unchanged && (saved.zoneSaved || empty)) {
      showSuccess(null);
      showNotice(empty ? PROFILE_EMPTY_MESSAGE : PROFILE_UNCHANGED_MESSAGE);
      return;
    }
    showNotice(null);
    try {
      const result = await save.mutateAsync(parsed.data);
      setFields(fieldsOf(result.profile));
      setSaved({ fields: fieldsOf(result.profile), zoneSaved: result.profile.time_zone !== null });
      showSuccess(PROFILE_SAVED_MESSAGE);
    } catch (err) {
      setError(failure("Failed to update profile: ", err));
    }
  }

  const text = (name: keyof Fields, label: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      label={label}
      name={name}
      value={fields[name]}
      onChange={(e) => set(name)(e.target.value)}
      error={errors[name]}
      readOnly={readOnly}
      maxLength={PROFILE_LIMITS[name as keyof typeof PROFILE_LIMITS]}
      {...extra}
    />
  );

  return (
    <form className="card new-report-card" onSubmit={submit} noValidate aria-label="Company Profile">
      <LogoField profile={profile} readOnly={readOnly} />
      <div className="new-report-grid">
        {text("company_name", "Company Name", { placeholder: "Ridge Roofing", autoComplete: "organization" })}
        {text("company_website", "Website", { placeholder: "ridgeroofing.com", inputMode: "url", autoComplete: "url" })}
        {text("company_phone", "Phone", { type: "tel", placeholder: "(512) 555-0142", autoComplete: "tel" })}
        {text("company_location", "Location", { placeholder: "Austin, TX" })}
        {text("company_street_address", "Street address", { placeholder: "1200 Main St", autoComplete: "street-address" })}
        {text("company_email", "Email", { type: "email", placeholder: "hello@ridgeroofing.com", autoComplete: "email" })}
        <CategorySelect
          label="Category"
          name="company_category"
          value={fields.company_category}
          onChange={set("company_category")}
          disabled={readOnly}
        />
        <TimeZoneSelect label="Time zone" name="time_zone" value={fields.time_zone} onChange={set("time_zone")} error={errors.time_zone} disabled={readOnly} />
        <div className="field new-report-wide">
          <label className="field-label" htmlFor={descriptionId}>
            Description
          </label>
          <textarea
            id={descriptionId}
            name="company_description"
            className="input new-report-textarea"
            rows={4}
            value={fields.company_description}
            onChange={(e) => set("company_description")(e.target.value)}
            maxLength={PROFILE_LIMITS.company_description}
            placeholder="What your business does, who it serves and what makes it different."
            readOnly={readOnly}
          />
          {errors.company_description ? <p className="field-error">{errors.company_description}</p> : null}
        </div>
      </div>

      <div aria-live="polite" className="page-messages">
        {success ? <Alert tone="success">{success}</Alert> : null}
        {notice ? <Alert tone="info">{notice}</Alert> : null}
        {error ? <Alert tone="error">{error}</Alert> : null}
      </div>

      {readOnly ? null : (
        <div className="new-report-actions">
          <Button type="submit" variant="primary" busy={save.isPending}>
            {save.isPending ? "Saving..." : "Save Company Profile"}
          </Button>
        </div>
      )}
    </form>
  );
}

function LogoField({ profile, readOnly }: { profile: ProfileDto; readOnly: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const name = profile.company_name || profile.email || "Business";
  const busy = upload.isPending || remove.isPending;

  async function choose(file: File | undefined) {
    if (!file) return;
    setError(null);
    if (input.current) input.current.value = "";
    // Spec §5: checked here for a quick answer; the server checks again (and the bytes, not the name).
    if (file.size > LOGO_MAX_BYTES) {
      setError(LOGO_TOO_LARGE_MESSAGE);
      return;
    }
    try {
      await upload.mutateAsync(file);
    } catch (err) {
      setError(failure("", err));
    }
  }

  async function clear() {
    setError(null);
    try {
      await remove.mutateAsync();
    } catch (err) {
      setError(failure("Failed to update profile: ", err));
    }
  }

  return (
    <div className="logo-field">
      <CompanyLogo url={profile.company_logo_url} name={name} className="logo-preview" />
      <div className="logo-field-text">
        <p className="field-label">Logo</p>
        <p className="field-hint">PNG, JPEG, WebP or GIF, smaller than 2MB. Shown in the sidebar, on your posts and on shared reports.</p>
        {readOnly ? null : (
          <div className="logo-field-actions">
            <label htmlFor={inputId} className={busy ? "btn btn-secondary btn-sm is-disabled" : "btn btn-secondary btn-sm"} aria-disabled={busy || undefined}>
              {upload.isPending ? "Uploading..." : profile.company_logo_url ? "Replace Logo" : "Upload Logo"}
            </label>
            <input
              ref={input}
              id={inputId}
              className="visually-hidden"
              type="file"
              name="logo"
              accept="image/png,image/jpeg,image/webp,image/gif"
              disabled={busy}
              onChange={(e) => void choose(e.target.files?.[0])}
            />
            {profile.company_logo_url ? (
              <Button variant="ghost" size="sm" onClick={() => void clear()} busy={remove.isPending}>
                Remove
              </Button>
            ) : null}
          </div>
        )}
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
