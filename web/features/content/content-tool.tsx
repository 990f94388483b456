// The frame every content generator shares (issue 20): the page header, the options card with its Generate button,
// the Business Profile card, the output (error, skeleton, result or empty state), the template and length notices,
// and 'Recent' below — one layout and one history for the GMB, social post, video script and plan tools.
import type { ComponentType, ReactNode } from "react";
import type { ContentItem, ContentTool } from "../../../worker/features/content/rules/content";
import type { ContentToolState } from "./use-content-tool";
import { Alert } from "../../design/alert";
import { BusinessCard } from "./business-card";
import { Button } from "../../design/button";
import { ContentRecent } from "./content-recent";
import { GeneratingSkeleton } from "./generating-skeleton";
import { SparklesIcon } from "../../design/icons";
import { Placeholder } from "../../design/placeholder";
import "./content.css";
import { PageHead } from "../brand";

type Props<R> = {
  tool: ContentTool;
  state: ContentToolState<R>;
  eyebrow: string;
  title: string;
  subtitle: string;
  /** The options card's fields. */
  form: ReactNode;
  generateLabel: string;
  onGenerate: () => void;
  empty: { icon: ComponentType; title: string; text: string };
  /** The result, below its notices. */
  children: (item: ContentItem<R>) => ReactNode;
  /** What 'Copy' in Recent puts on the clipboard. */
  copyText: (item: ContentItem<R>) => string;
  /** Wide output (the plan's calendar) goes below the options instead of beside them. */
  wide?: boolean;
};

export function ContentToolPage<R>({ tool, state, eyebrow, title, subtitle, form, generateLabel, onGenerate, empty, children, copyText, wide }: Props<R>) {
  const output = (
    <div className="fb-output" aria-live="polite">
      {state.error ? <Alert tone="error">{state.error}</Alert> : null}
      {state.pending ? (
        <GeneratingSkeleton label={`Generating: ${title}`} status="Writing..." />
      ) : state.shown ? (
        <>
          <ContentNotice item={state.shown} />
          {children(state.shown)}
        </>
      ) : (
        <Placeholder icon={empty.icon} title={empty.title} className="empty-state">
          <p className="placeholder-text">{empty.text}</p>
        </Placeholder>
      )}
    </div>
  );
  return (
    <>
      <PageHead
        eyebrow={eyebrow}
        title={title}
        subtitle={subtitle}
      />
      <div className={wide ? "fb-layout is-wide" : "fb-layout"}>
        <div className="fb-controls">
          <section className="card card-pad fb-card" aria-label="Options">
            {form}
            <Button variant="primary" block busy={state.pending} disabled={state.readOnly} onClick={onGenerate}>
              <SparklesIcon size="sm" />
              {state.pending ? "Generating..." : generateLabel}
            </Button>
            {state.readOnly ? <p className="field-hint">Generating is off while you view as another user.</p> : null}
          </section>
          <BusinessCard loading={state.profile.isPending} failed={state.profile.isError} profile={state.business} onRetry={() => void state.profile.refetch()} />
        </div>
        {output}
      </div>
      <ContentRecent
        tool={tool}
        viewAsId={state.viewAsId}
        readOnly={state.readOnly}
        openId={state.shown?.id ?? null}
        onOpen={(item) => state.setShown(item as ContentItem<R>)}
        onDeleted={(id) => state.shown?.id === id && state.setShown(null)}
        copyText={(item) => copyText(item as ContentItem<R>)}
      />
    </>
  );
}

/** Says when a template wrote the result, and which length rules changed it. */
export function ContentNotice({ item }: { item: ContentItem }) {
  return (
    <>
      {item.source === "template" ? (
        <Alert tone="info" title="Written from a template">
          {item.notice ?? "This was written from a template, not by the AI."}
        </Alert>
      ) : null}
      {item.notes.length ? (
        <Alert tone="warning" title="Shortened to fit">
          <ul className="content-notes">
            {item.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </>
  );
}
