// The frame of the sign-in, sign-up and password pages: a brand panel on desktop, the form card beside it.
import type { ReactNode } from "react";
import { Brand, BrandName, PageTitle } from "../brand";
import { CheckCircleIcon } from "../../design/icons";

export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <div className="auth">
      <aside className="auth-aside">
        <Brand />
        <div className="auth-quote">
          <h2>Marketing that keeps the lights on for local trades.</h2>
          <ul className="auth-points">
            <li>
              <CheckCircleIcon />
              Ready-to-post content written for your service area
            </li>
            <li>
              <CheckCircleIcon />
              Built for roofers, plumbers, HVAC pros and landscapers
            </li>
            <li>
              <CheckCircleIcon />
              Hours back every week, no marketing degree needed
            </li>
          </ul>
        </div>
        <p className="auth-aside-foot">© {new Date().getFullYear()} <BrandName /></p>
      </aside>
      <main className="auth-main">
        <div className="auth-mobile-brand">
          <Brand />
        </div>
        <section className="card auth-card" aria-labelledby="auth-title">
          <PageTitle>{title}</PageTitle>
          <h1 className="auth-title" id="auth-title">
            {title}
          </h1>
          {subtitle ? <p className="auth-subtitle">{subtitle}</p> : <div className="auth-subtitle" />}
          {children}
        </section>
      </main>
    </div>
  );
}
