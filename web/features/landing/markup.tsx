// The landing page's markup (spec part 2 §2). Static — no router, no auth, no API, no CSS import — so the build
// pre-renders it into landing.html (web/features/landing/render.tsx), which loads just web/features/landing/main.ts.
import { BrandLogo } from "../../design/brand-mark";
import { brandText, DEFAULT_BRAND, type PublicBrand } from "../../../worker/platform/brand/rules/brand";
import { buttonClass } from "../../design/button";
import {
  ArrowRightIcon,
  CalendarIcon,
  ChatIcon,
  CheckCircleIcon,
  CloseIcon,
  FileTextIcon,
  MenuIcon,
  ReportSearchIcon,
  SearchIcon,
  SparklesIcon,
  StoreIcon,
  ThumbsUpIcon,
  VideoIcon,
} from "../../design/icons";
import type { ReactNode } from "react";
import { LANDING_FAQ, LANDING_LINKS, LANDING_PLANS, LANDING_TESTIMONIALS, LANDING_TOOLS } from "./content";
import { TOOL_COUNT } from "../../lib/tools";
import { SkipLink } from "../../design/skip-link";

const TOOL_ICONS = [ThumbsUpIcon, FileTextIcon, CalendarIcon, ReportSearchIcon, ChatIcon, SearchIcon, StoreIcon, CalendarIcon, VideoIcon];

const NAV = [
  { href: "#how-it-works", label: "How It Works" },
  { href: "#pricing", label: "Pricing" },
  { href: "#faq", label: "FAQ" },
];

const HERO_NOTES = ["Set up in minutes", "Made for local trades", "Works on your phone"];

/** One band of the page under the hero: an eyebrow, its heading, then what it shows. */
function LandingSection({
  id,
  className = "features",
  narrow = false,
  eyebrow,
  titleId,
  title,
  children,
}: {
  id?: string;
  className?: string;
  narrow?: boolean;
  eyebrow?: string;
  titleId: string;
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className={className} id={id} aria-labelledby={titleId}>
      <div className={narrow ? "features-inner lp-narrow" : "features-inner"}>
        {eyebrow ? <p className="page-eyebrow">{eyebrow}</p> : null}
        <h2 className="features-title" id={titleId}>
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

function PlanFeatures({ features }: { features: readonly string[] }) {
  return (
    <ul className="plan-features">
      {features.map((f) => (
        <li key={f}>
          <CheckCircleIcon size="sm" />
          {f}
        </li>
      ))}
    </ul>
  );
}

function HomeLink({ brand }: { brand: PublicBrand }) {
  return (
    <a href="/" className="brand" aria-label={`${brand.name} home`}>
      <BrandLogo brand={brand} />
      <span>{brand.name}</span>
    </a>
  );
}

/** The whole page; web/features/landing/pages/landing.tsx adds the menu behaviour when the app itself shows `/`. */
/**
 * The landing page for a brand: pre-rendered with the product's own (Porchlight) at build time, where the worker puts
 * the agency's brand on it as it serves it (worker/platform/brand/html.ts); rendered in the app with the brand it knows.
 */
export function LandingMarkup({ brand = DEFAULT_BRAND }: { brand?: PublicBrand } = {}) {
  const name = brand.name;
  // An agency's visitors write to the agency (the worker does the same to the pre-rendered page).
  const contact = brand.custom ? (brand.supportEmail ? `mailto:${brand.supportEmail}` : (brand.website ?? undefined)) : undefined;
  return (
    <div className="landing">
      <SkipLink to="#top" />
      <header className="landing-nav">
        <HomeLink brand={brand} />
        <button
          type="button"
          className="icon-button lp-menu-toggle"
          aria-expanded="false"
          aria-controls="landing-menu"
          aria-label="Open menu"
          data-menu-toggle=""
        >
          <MenuIcon className="lp-menu-open" />
          <CloseIcon className="lp-menu-close" />
        </button>
        <nav className="lp-menu" id="landing-menu" aria-label="Main">
          {brand.custom ? null : (
            <a href={LANDING_LINKS.roadmap} target="_blank" rel="noopener noreferrer">
              Roadmap
            </a>
          )}
          {NAV.map((n) => (
            <a key={n.href} href={n.href}>
              {n.label}
            </a>
          ))}
          <a href="/login">Login</a>
          <a className={buttonClass("primary", "sm")} href={contact ?? LANDING_LINKS.customAi}>
            Ask for a Free Custom AI
          </a>
        </nav>
      </header>

      <main id="top">
        <section className="hero">
          <div className="hero-inner">
            <div>
              <p className="hero-kicker">
                <span className="badge badge-new">New</span>
                AI marketing for local trades
              </p>
              <h1 className="hero-title">
                Leave the light on for your <em>next customer</em>.
              </h1>
              <p className="hero-lead">
                {name} is the AI marketing toolkit for roofers, plumbers, HVAC pros and landscapers
                {/* An agency's page speaks to businesses only (the worker drops this from the pre-rendered page too). */}
                {brand.custom ? null : <span className="product-only">, and for the agencies that sell to them</span>}: local
                posts, SEO reports and research that bring in calls, in minutes.
              </p>
              <div className="hero-actions">
                <a href="/signup" className={buttonClass("primary", "lg")}>
                  Try Our AI Tools Free
                  <ArrowRightIcon />
                </a>
                <a href="#pricing" className={buttonClass("secondary", "lg")}>
                  See Pricing
                </a>
              </div>
              <p className="hero-note">
                {HERO_NOTES.map((note) => (
                  <span key={note}>
                    <CheckCircleIcon size="sm" />
                    {note}
                  </span>
                ))}
              </p>
            </div>

            <figure className="preview" aria-label="Example of a generated Facebook post">
              <div className="preview-head">
                <span className="preview-avatar" aria-hidden="true">
                  B
                </span>
                <div>
                  <p className="preview-name">Brightside Roofing Co.</p>
                  <p className="preview-meta">Just now · Austin, TX</p>
                </div>
              </div>
              <p className="preview-title">Storm season is here. Is your roof ready?</p>
              <p className="preview-text">
                Last week's hail left a lot of Austin homeowners with hidden damage. Our crew offers free 20-minute roof
                checks this month — we'll send photos of anything we find, no pressure.
              </p>
              <p className="preview-tags">#AustinRoofing #StormPrep #LocalPros</p>
              <p className="preview-foot">
                <span>
                  <SparklesIcon size="sm" className="inline-icon" /> Written by {name}
                </span>
              </p>
            </figure>
          </div>
        </section>

        <LandingSection
          id="how-it-works"
          eyebrow="How It Works"
          titleId="tools-title"
          title={`${TOOL_COUNT} AI tools, one dashboard. Describe your business once; every tool writes for your trade and your area.`}
        >
          <ul className="features-grid">
            {LANDING_TOOLS.map((tool, i) => {
              const Icon = TOOL_ICONS[i] ?? SparklesIcon;
              return (
                <li className="card feature" key={tool.name}>
                  <span className="stat-icon">
                    <Icon />
                  </span>
                  <h3>{tool.name}</h3>
                  <p>{tool.text}</p>
                </li>
              );
            })}
          </ul>
        </LandingSection>

        <LandingSection className="features lp-alt" eyebrow="Customers" titleId="testimonials-title" title="Local pros who stopped dreading marketing.">
          <ul className="features-grid">
            {LANDING_TESTIMONIALS.map((t) => (
              <li className="card feature" key={t.name}>
                <blockquote className="lp-quote">“{t.quote}”</blockquote>
                <p className="lp-quote-by">
                  <strong>{t.name}</strong>
                  <span>{t.role}</span>
                </p>
              </li>
            ))}
          </ul>
        </LandingSection>

        <LandingSection id="pricing" eyebrow="Pricing" titleId="pricing-title" title="Simple pricing. Do it yourself, or let us run it for you.">
          <div className="features-grid lp-grid-2">
            <article className="card plan-card is-featured">
              <h3 className="plan-name">{LANDING_PLANS.selfService.name}</h3>
              <p className="plan-price">
                {LANDING_PLANS.selfService.monthly} <small>/ month</small>
              </p>
              <p className="plan-note">
                or {LANDING_PLANS.selfService.annual} / year <span className="badge badge-new">2 months free</span>
              </p>
              <PlanFeatures features={LANDING_PLANS.selfService.features} />
              <a href="/signup" className={buttonClass("primary", "lg", true)}>
                Try Our AI Tools Free
              </a>
            </article>
            <article className="card plan-card">
              <h3 className="plan-name">{LANDING_PLANS.autopilot.name}</h3>
              <p className="plan-price">Talk with Sales</p>
              <p className="plan-note">{LANDING_PLANS.autopilot.text}</p>
              <PlanFeatures features={LANDING_PLANS.autopilot.features} />
              <a href={contact ?? LANDING_LINKS.sales} className={buttonClass("secondary", "lg", true)}>
                Talk with Sales
              </a>
            </article>
          </div>
        </LandingSection>

        <LandingSection id="faq" className="features lp-alt" narrow eyebrow="FAQ" titleId="faq-title" title="Questions, answered.">
          <div className="lp-faq">
            {LANDING_FAQ.map((item) => (
              <details className="card" key={item.q}>
                <summary>{brandText(item.q, name)}</summary>
                <p>{brandText(item.a, name)}</p>
              </details>
            ))}
          </div>
        </LandingSection>

        <LandingSection className="lp-cta" narrow titleId="cta-title" title="Your next customer is searching right now.">
          <p>Start with the free tools today. No card needed.</p>
          <a href="/signup" className={buttonClass("primary", "lg")}>
            Try Our AI Tools Free
            <ArrowRightIcon />
          </a>
        </LandingSection>
      </main>

      <footer className="landing-foot">
        <div className="landing-foot-inner">
          <HomeLink brand={brand} />
          <nav className="lp-foot-links" aria-label="Footer">
            <a href="#how-it-works">How It Works</a>
            <a href="#pricing">Pricing</a>
            <a href="#faq">FAQ</a>
            <a href="/login">Login</a>
          </nav>
          <p>© 2026 {name}. Marketing for the businesses that keep homes running.</p>
        </div>
      </footer>
    </div>
  );
}

