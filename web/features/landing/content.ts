// The landing page's words (spec part 2 §2 Landing page, §9 prices): nine tools, three testimonials, plans, five FAQ items.
import { SELF_SERVICE_PLAN } from "../../../worker/features/billing/rules/billing";

/** Where the external links of the landing page go. Change them here. */
export const LANDING_LINKS = {
  roadmap: "https://github.com/porchlight-app/roadmap",
  sales: "mailto:sales@porchlight.app?subject=Porchlight%20Autopilot",
  customAi: "mailto:sales@porchlight.app?subject=Free%20Custom%20AI",
} as const;

export const LANDING_TOOLS = [
  { name: "Facebook Post Generator", text: "Describe a job or an offer in one sentence and get a polished post with hashtags." },
  { name: "GMB Post Generator", text: "Offers, updates and events for your Google Business Profile, written in seconds." },
  { name: "GMB Post Scheduler", text: "Plan a month of Google Business Profile posts and publish them on schedule." },
  { name: "SEO Reports", text: "A local SEO report per prospect: meta tags, a Google ad, article ideas and a potential score." },
  { name: "AI Sales Chat", text: "An AI assistant that knows each prospect and answers their questions by shared link." },
  { name: "Google Search Results", text: "The top Google results for any keyword and city, ready to copy and study." },
  { name: "Local Services Analyzer", text: "See how local service ads present themselves, and borrow what works." },
  { name: "Social Plan", text: "A weekly posting plan built around your trade, your season and your service area." },
  { name: "Video Script Generator", text: "Short scripts for job-site walkthroughs, tips and customer stories." },
] as const;

export const LANDING_TESTIMONIALS = [
  {
    quote: "I used to spend Sunday nights writing posts. Now it takes ten minutes and the phone rings more in storm season.",
    name: "Dana R.",
    role: "Owner, Brightside Roofing",
  },
  {
    quote: "The SEO reports close deals for us. Prospects open the link, read about their own business and call back.",
    name: "Marcus T.",
    role: "Founder, Lakeview Marketing Agency",
  },
  {
    quote: "Finally a tool that talks like a plumber, not like a marketing textbook. My customers actually comment.",
    name: "Luis G.",
    role: "Owner, Flowright Plumbing",
  },
] as const;

export const LANDING_PLANS = {
  selfService: {
    name: SELF_SERVICE_PLAN.name,
    monthly: `$${SELF_SERVICE_PLAN.monthly}`,
    annual: `$${SELF_SERVICE_PLAN.annual}`,
    features: ["Every AI tool, current and new", "Unlimited posts and reports", "Cancel anytime"],
  },
  autopilot: {
    name: "Autopilot",
    text: "Our team runs your local marketing with the same tools: posts, reports and follow-ups, done for you.",
    features: ["A custom AI trained on your business", "Done-for-you posting", "A monthly results review"],
  },
} as const;

export const LANDING_FAQ = [
  {
    q: "Who is Porchlight for?",
    a: "Local home-service businesses (roofers, plumbers, HVAC pros, landscapers, cleaners) and the agencies that market them.",
  },
  {
    q: "Do I need any marketing experience?",
    a: "No. Describe your business once; every tool writes in your voice for your service area.",
  },
  {
    q: "Can I try it before I pay?",
    a: "Yes. Create a free account and try the AI tools; subscribe when you are ready.",
  },
  {
    q: "How does billing work?",
    a: `Self Service is $${SELF_SERVICE_PLAN.monthly} a month, or $${SELF_SERVICE_PLAN.annual} a year with 2 months free. Cancel anytime from the customer portal.`,
  },
  {
    q: "What is a Free Custom AI?",
    a: "Tell us about your business and we will set up an assistant trained on your services, prices and area, at no cost.",
  },
] as const;
