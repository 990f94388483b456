// /subscription: Subscription Plans (spec part 2 §2, §7, §9): monthly/annual toggle, checkout, customer portal, benefits, billing FAQ.
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Alert, RetryAlert } from "../../../design/alert";
import { Badge } from "../../../design/badge";
import { Button, buttonClass } from "../../../design/button";
import { CardIcon, CheckCircleIcon, ExternalLinkIcon, ShieldIcon, SparklesIcon, ClockIcon } from "../../../design/icons";
import { Segmented } from "../../../design/segmented";
import { useAuth } from "../../../lib/auth";
import { formatCreated } from "../../../lib/format-date";
import { useViewAs } from "../../../lib/view-as";
import { billingQuery } from "../queries";
import { usageQuery } from "../../usage";
import { AllowanceMeter, dollars } from "../../usage";
import { USAGE_LOAD_FAILED } from "../../../../worker/features/usage/rules/usage-stats";
import {
  BILLING_NOT_CONFIGURED,
  CHECKOUT_ERROR,
  planLabel,
  SELF_SERVICE_PLAN,
  type BillingInterval,
} from "../../../../worker/features/billing/rules/billing";
import { TRACKED_KEYWORD_LIMITS } from "../../../../worker/features/rank/rules/view";
import { PageHeader } from "../../../design/page-header";
import "../../../design/plans.css";
import "../billing.css";
import { PageTitle } from "../../brand";
import { PageSection } from "../../../design/page-section";

/** Only what a subscriber (a business, not an agency admin) gets: prospects and SEO reports are admin tools. */
const SUBSCRIBER_FEATURES = [
  "Posts for Facebook, your Google Business Profile and the other networks, video scripts and a monthly social plan, written from your business profile",
  "Google Business Profile posts scheduled and published for you",
  "A Local Search Audit and GBP Audit of your own business",
  `The Local Search Grid, and up to ${TRACKED_KEYWORD_LIMITS.selfService} keywords in the Local Rank Tracker`,
  "Google Search Results and the Local Services Analyzer",
  "Your AI usage and its cost, on the AI Usage page",
  "Each new tool as it ships, at no extra cost",
];

/** The features, led by the plan's monthly AI allowance once the server has said what it is. */
function subscriberFeatures(allowanceUsd: number | undefined): string[] {
  return allowanceUsd === undefined ? SUBSCRIBER_FEATURES : [`${dollars(allowanceUsd)} of AI use every month`, ...SUBSCRIBER_FEATURES];
}

const BENEFITS = [
  { icon: SparklesIcon, title: "All the AI tools", text: "Every current tool and each new one as it ships, with no add-ons to buy." },
  { icon: ClockIcon, title: "Hours back every week", text: "Posts and local research that used to take evenings now take minutes." },
  { icon: ShieldIcon, title: "Secure billing", text: "Payments are handled by our card payment provider; we never see your card number." },
];

const FAQ = [
  {
    q: "How does monthly billing work?",
    a: "The monthly plan is billed every 30 days from the day you subscribe, until you cancel.",
  },
  {
    q: "What happens if I switch from annual to monthly?",
    a: "Downgrading from annual takes effect at the end of your current billing cycle; you keep the annual plan until then.",
  },
  {
    q: "How do I change my card or cancel?",
    a: "Use Manage Subscription: it opens the customer portal in a new tab, where you can update your card, download invoices or cancel.",
  },
  {
    q: "Is there a plan that is done for me?",
    a: "Yes: Autopilot, where our team runs your marketing for you. Talk with Sales to hear what it includes.",
  },
];

const BILLING_PERIODS: readonly { value: BillingInterval; label: string }[] = [
  { value: "month", label: "Monthly" },
  { value: "year", label: "Annual" },
];

export default function SubscriptionPage() {
  const { user } = useAuth();
  const viewAs = useViewAs();
  const billing = useQuery(billingQuery(user?.id, viewAs?.viewingUserId ?? null));
  const usage = useQuery(usageQuery(viewAs?.viewingUserId ?? null));
  const [interval, setInterval] = useState<BillingInterval>("month");
  const [checkoutFailed, setCheckoutFailed] = useState(false);
  const data = billing.data;
  const checkout = data ? (interval === "year" ? data.checkout.annual : data.checkout.monthly) : null;
  const current = data?.subscription ?? null;

  return (
    <>
      <PageTitle>Subscription Plans</PageTitle>
      <PageHeader
        eyebrow="Settings"
        title="Subscription Plans"
        subtitle="One plan with every AI tool. Pay monthly, or yearly and get 2 months free."
        actions={
          <>
            <Segmented label="Billing period" size="lg" options={BILLING_PERIODS} value={interval} onChange={setInterval} />
          </>
        }
      />

      {checkoutFailed ? <Alert tone="error">{CHECKOUT_ERROR}</Alert> : null}
      {billing.isError ? <RetryAlert message={billing.error.message} onRetry={() => void billing.refetch()} /> : null}

      <div className="plan-grid">
        <section className="card plan-card is-featured" aria-labelledby="plan-self-service">
          <p className="plan-name" id="plan-self-service">
            {SELF_SERVICE_PLAN.name} {interval === "year" ? <Badge tone="new">2 months free</Badge> : null}
          </p>
          <p className="plan-price">
            ${interval === "year" ? SELF_SERVICE_PLAN.annual : SELF_SERVICE_PLAN.monthly}
            <small> / {interval === "year" ? "year" : "month"}</small>
          </p>
          <ul className="plan-features">
            {subscriberFeatures(data?.allowances.selfService).map((f) => (
              <li key={f}>
                <CheckCircleIcon size="sm" />
                {f}
              </li>
            ))}
          </ul>
          <div className="plan-actions">
            {billing.isPending ? (
              <Button variant="primary" size="lg" block busy>
                Subscribe Now
              </Button>
            ) : checkout ? (
              <a className={buttonClass("primary", "lg", true)} href={checkout} data-testid="subscribe-now">
                Subscribe Now
              </a>
            ) : billing.isError ? (
              <Button variant="primary" size="lg" block onClick={() => setCheckoutFailed(true)}>
                Subscribe Now
              </Button>
            ) : (
              <NotConfigured label="Subscribe Now" variant="primary" explain />
            )}
          </div>
        </section>

        <section className="card plan-card" aria-labelledby="plan-current">
          <p className="plan-name" id="plan-current">
            Your plan
          </p>
          {billing.isPending ? (
            <p className="plan-note">Loading your subscription...</p>
          ) : (
            <>
              <p className="plan-price">{planLabel(current)}</p>
              <p className="plan-note">
                {current?.active
                  ? current.currentPeriodEnd
                    ? `Renews on ${formatCreated(current.currentPeriodEnd)}.`
                    : "Your subscription is active."
                  : current
                    ? `Your last subscription is ${current.status.replace(/_/g, " ")}.`
                    : "You are not subscribed yet."}
              </p>
            </>
          )}
          <div className="plan-actions">
            {data?.portal ? (
              <a className={buttonClass("secondary", "lg", true)} href={data.portal} target="_blank" rel="noopener noreferrer">
                <CardIcon size="sm" />
                Manage Subscription
                <ExternalLinkIcon size="sm" />
              </a>
            ) : (
              <NotConfigured label="Manage Subscription" explain={Boolean(data)} />
            )}
          </div>
        </section>
      </div>

      <PageSection title="Your AI allowance">
        {usage.isPending ? (
          <p className="card card-pad" role="status">
            <span className="spinner" aria-hidden="true" /> Loading your allowance...
          </p>
        ) : usage.isError ? (
          <RetryAlert message={USAGE_LOAD_FAILED} onRetry={() => void usage.refetch()} />
        ) : (
          <AllowanceMeter budget={usage.data.stats.budget} offerUpgrade={false} />
        )}
        {data ? (
          <p className="plan-note">
            Free includes {dollars(data.allowances.free)} of AI use a month, {SELF_SERVICE_PLAN.name} {dollars(data.allowances.selfService)}. Past
            it, each tool answers from its templates or sample data until the allowance renews.
          </p>
        ) : null}
      </PageSection>

      <PageSection title="What you get">
        <div className="benefit-grid">
          {BENEFITS.map(({ icon: Icon, title, text }) => (
            <article className="card benefit-card" key={title}>
              <span className="stat-icon">
                <Icon />
              </span>
              <h3>{title}</h3>
              <p>{text}</p>
            </article>
          ))}
        </div>
      </PageSection>

      <PageSection title="Billing FAQ">
        <dl className="faq-list">
          {FAQ.map(({ q, a }) => (
            <div className="card" key={q}>
              <dt>{q}</dt>
              <dd>{a}</dd>
            </div>
          ))}
        </dl>
      </PageSection>
    </>
  );
}

/** A billing button that cannot work here: disabled, with the reason beside it (when known). */
function NotConfigured({ label, variant = "secondary", explain }: { label: string; variant?: "primary" | "secondary"; explain: boolean }) {
  const noteId = useId();
  return (
    <>
      <Button variant={variant} size="lg" block disabled aria-describedby={explain ? noteId : undefined}>
        {label}
      </Button>
      {explain ? (
        <p className="plan-note" id={noteId}>
          {BILLING_NOT_CONFIGURED}
        </p>
      ) : null}
    </>
  );
}
