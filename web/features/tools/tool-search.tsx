// The two search tools' shared parts: the search state, the two-field search form, the sample-data banner, a result
// card and the placeholders that offer the sample search.
import { useState, type ComponentType, type FormEvent, type ReactNode } from "react";
import type { ZodType } from "zod";
import { Alert, RetryAlert } from "../../design/alert";
import { Badge } from "../../design/badge";
import { Button } from "../../design/button";
import { SearchIcon } from "../../design/icons";
import { Placeholder } from "../../design/placeholder";
import { TextField } from "../../design/text-field";
import "./tools.css";
import { checkField } from "../../lib/check-field";

type Fields = { first: string; location: string };

/**
 * The search under way (null before the first) and the form's values: the opening ones (the business's own trade
 * and city) until `trySample` fills in the spec's sample keyword, keeps a location already searched, and runs it.
 */
export function useToolSearch<T extends { location: string }>(opening: Fields, toQuery: (fields: Fields) => T) {
  const [search, setSearch] = useState<T | null>(null);
  const [picked, setPicked] = useState<Fields | null>(null);
  function trySample(sample: { keyword: string; location: string }) {
    const fields = { first: sample.keyword, location: search?.location || sample.location };
    setPicked(fields);
    setSearch(toQuery(fields));
  }
  return { search, setSearch, initial: picked ?? opening, trySample };
}

/**
 * Two labelled fields and a submit button reading 'Searching...' while busy (spec §4). The shared zod
 * schema decides what is valid; its message is shown above the fields.
 */
export function ToolSearchForm<T>({
  firstLabel,
  firstName,
  placeholder,
  initial,
  busy,
  schema,
  toInput,
  onSearch,
  submitLabel = "Search",
}: {
  firstLabel: string;
  firstName: string;
  placeholder: { first: string; location: string };
  initial: Fields;
  busy: boolean;
  schema: ZodType<T>;
  toInput: (fields: Fields) => unknown;
  onSearch: (input: T) => void;
  submitLabel?: string;
}) {
  const [fields, setFields] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  // A 'Try Restaurant' click outside the form sets new values: follow them.
  const [seen, setSeen] = useState(initial);
  if (seen !== initial) {
    setSeen(initial);
    setFields(initial);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const input = checkField(schema, toInput(fields), setError, "Invalid search");
    if (input !== null) onSearch(input);
  }

  return (
    <form className="card card-pad tool-form" onSubmit={submit} noValidate>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="tool-form-fields">
        <TextField
          label={firstLabel}
          name={firstName}
          value={fields.first}
          placeholder={placeholder.first}
          onChange={(e) => setFields({ ...fields, first: e.target.value })}
        />
        <TextField
          label="Location"
          name="location"
          value={fields.location}
          placeholder={placeholder.location}
          onChange={(e) => setFields({ ...fields, location: e.target.value })}
        />
        <Button type="submit" variant="primary" busy={busy} className="tool-form-submit">
          <SearchIcon size="sm" />
          {busy ? "Searching..." : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** The 'Using Sample Data' banner with the reason (spec §2, §8). */
export function SampleDataBanner({ warning, detail }: { warning: string; detail?: string | null }) {
  return (
    <Alert tone="warning" title="Using Sample Data">
      <p>{warning}</p>
      {detail ? <p className="tool-banner-detail">{detail}</p> : null}
    </Alert>
  );
}

/**
 * One result: a small media slot, the link line, the title, the text, facts and the copy buttons. A sample
 * result carries an 'Example' tag, so nobody takes it for a real business to call.
 */
export function ResultCard({
  media,
  eyebrow,
  title,
  children,
  actions,
  sample = false,
}: {
  media: ReactNode;
  eyebrow: ReactNode;
  title: ReactNode;
  children?: ReactNode;
  actions: ReactNode;
  sample?: boolean;
}) {
  return (
    <li className="card result-card">
      <div className="result-card-head">
        <span className="result-card-media">{media}</span>
        <p className="result-card-eyebrow">{eyebrow}</p>
        {sample ? <Badge tone="view">Example</Badge> : null}
      </div>
      <h3 className="result-card-title">{title}</h3>
      {children}
      <div className="result-card-actions">{actions}</div>
    </li>
  );
}

type PlaceholderText = { title: string; text: ReactNode };

/**
 * What a tool page shows under its form: a neutral start (what the tool does) until a search has run, the
 * failure with a retry, 'Searching...' while the first answer is on its way, the results (a titled list with the
 * sample-data banner above it), or the empty state when a search found nothing. The start and empty states offer
 * the sample search.
 */
export function ToolResultState({
  query,
  started,
  hasResults,
  resultsLabel,
  banner,
  results,
  icon,
  trySample,
  start,
  empty,
}: {
  query: { isError: boolean; isPending: boolean; error: Error | null; refetch: () => unknown };
  started: boolean;
  hasResults: boolean;
  resultsLabel: string;
  banner: () => ReactNode;
  results: () => ReactNode;
  icon: ComponentType;
  trySample: { label: string; onTry: () => void };
  start: PlaceholderText;
  empty: PlaceholderText;
}) {
  if (!started) return <TryPlaceholder icon={icon} text={start} trySample={trySample} />;
  if (query.isError) return <RetryAlert message={query.error?.message ?? null} onRetry={() => void query.refetch()} />;
  if (query.isPending) {
    return (
      <p className="loading-screen" role="status">
        <span className="spinner" aria-hidden="true" />
        Searching...
      </p>
    );
  }
  if (!hasResults) return <TryPlaceholder icon={icon} text={empty} trySample={trySample} />;
  return (
    <section aria-label={resultsLabel}>
      {banner()}
      <ol className="tool-results">{results()}</ol>
    </section>
  );
}

function TryPlaceholder({ icon, text, trySample }: { icon: ComponentType; text: PlaceholderText; trySample: { label: string; onTry: () => void } }) {
  return (
    <Placeholder icon={icon} title={text.title}>
      <p className="placeholder-text">{text.text}</p>
      <Button variant="primary" onClick={trySample.onTry}>
        {trySample.label}
      </Button>
    </Placeholder>
  );
}
