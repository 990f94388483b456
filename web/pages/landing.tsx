// /: the public front door (a later issue builds the full landing page of spec part 2).
import { Link } from "react-router";
import { Brand } from "../components/brand";
import { buttonClass } from "../components/button";
import {
  ArrowRightIcon,
  BriefcaseIcon,
  CalendarIcon,
  CheckCircleIcon,
  MapPinIcon,
  SparklesIcon,
  ThumbsUpIcon,
} from "../components/icons";
import { useAuth } from "../lib/auth";

const FEATURES = [
  {
    icon: ThumbsUpIcon,
    title: "Posts that sound like you",
    text: "Describe a job or an offer in one sentence and get a polished Facebook post with hashtags, ready to publish.",
  },
  {
    icon: CalendarIcon,
    title: "Always something to post",
    text: "Seasonal ideas for roofers, plumbers, HVAC and lawn pros, so your page never goes quiet in the busy months.",
  },
  {
    icon: BriefcaseIcon,
    title: "Built for agencies too",
    text: "Prepare local SEO reports and conversations for the businesses you sell to, all from one dashboard.",
  },
];

export default function LandingPage() {
  const { user } = useAuth();
  return (
    <div className="landing">
      <title>Porchlight — AI marketing for local home-service businesses</title>
      <header className="landing-nav">
        <Brand />
        <nav className="landing-nav-actions" aria-label="Account">
          {user ? (
            <Link to="/dashboard" className={buttonClass("primary")}>
              Go to Dashboard
            </Link>
          ) : (
            <>
              <Link to="/login" className={buttonClass("ghost")}>
                Login
              </Link>
              <Link to="/signup" className={buttonClass("primary")}>
                Try Our AI Tools Free
              </Link>
            </>
          )}
        </nav>
      </header>

      <main>
        <section className="hero">
          <div className="hero-inner">
            <div>
              <p className="hero-kicker">
                <span className="badge badge-new">New</span>
                AI Facebook posts for local trades
              </p>
              <h1 className="hero-title">
                Leave the light on for your <em>next customer</em>.
              </h1>
              <p className="hero-lead">
                Porchlight is the AI marketing toolkit for roofers, plumbers, HVAC pros and landscapers: local posts, ideas
                and reports that bring in calls, written in minutes instead of evenings.
              </p>
              <div className="hero-actions">
                {user ? (
                  <Link to="/dashboard" className={buttonClass("primary", "lg")}>
                    Go to Dashboard
                    <ArrowRightIcon />
                  </Link>
                ) : (
                  <>
                    <Link to="/signup" className={buttonClass("primary", "lg")}>
                      Try Our AI Tools Free
                      <ArrowRightIcon />
                    </Link>
                    <Link to="/login" className={buttonClass("secondary", "lg")}>
                      Login
                    </Link>
                  </>
                )}
              </div>
              <p className="hero-note">
                <span>
                  <CheckCircleIcon size="sm" />
                  Set up in minutes
                </span>
                <span>
                  <CheckCircleIcon size="sm" />
                  Made for local trades
                </span>
                <span>
                  <CheckCircleIcon size="sm" />
                  Works on your phone
                </span>
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
                Last week's hail left a lot of Austin homeowners with hidden damage. Our crew offers free 20-minute roof checks
                this month — we'll send photos of anything we find, no pressure.
              </p>
              <p className="preview-tags">#AustinRoofing #StormPrep #LocalPros</p>
              <div className="preview-foot">
                <span>
                  <SparklesIcon size="sm" className="inline-icon" /> Written by Porchlight
                </span>
                <span>
                  <MapPinIcon size="sm" className="inline-icon" /> Local
                </span>
              </div>
            </figure>
          </div>
        </section>

        <section className="features" aria-labelledby="features-title">
          <div className="features-inner">
            <p className="page-eyebrow">Why Porchlight</p>
            <h2 className="features-title" id="features-title">
              Marketing help that understands how a local service business actually runs.
            </h2>
            <div className="features-grid">
              {FEATURES.map(({ icon: Icon, title, text }) => (
                <article className="card feature" key={title}>
                  <span className="stat-icon">
                    <Icon />
                  </span>
                  <h3>{title}</h3>
                  <p>{text}</p>
                </article>
              ))}
            </div>
          </div>
        </section>
      </main>

      <footer className="landing-foot">
        <div className="landing-foot-inner">
          <Brand />
          <p>© {new Date().getFullYear()} Porchlight. Marketing for the businesses that keep homes running.</p>
        </div>
      </footer>
    </div>
  );
}
