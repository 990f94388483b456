// The Business Profile card beside every generator (spec part 1 §2): the business a post is written for, with an
// 'Edit' link to the settings; loading, failed and missing-profile states.
import { Link } from "react-router";
import { PROFILE_REQUIRED_MESSAGE } from "../../../worker/features/content/rules/facebook-post";
import { Alert, RetryAlert } from "../../design/alert";
import { CompanyLogo } from "../../design/company-logo";
import "./content.css";

export type BusinessCardProfile = {
  company_name: string | null;
  company_category: string | null;
  company_location: string | null;
  company_logo_url: string | null;
};

export function BusinessCard({ loading, failed, profile, onRetry }: { loading: boolean; failed: boolean; profile: BusinessCardProfile | null; onRetry: () => void }) {
  return (
    <section className="card card-pad fb-card" aria-labelledby="business-card-title">
      <div className="fb-card-head">
        <h2 className="fb-card-title" id="business-card-title">
          Business Profile
        </h2>
        <Link to="/settings/personal" className="usage-link">
          Edit
        </Link>
      </div>
      {loading ? (
        <p className="muted" role="status">
          Loading your business profile...
        </p>
      ) : failed ? (
        <RetryAlert message="Failed to load your business data." onRetry={onRetry} />
      ) : profile?.company_name?.trim() ? (
        <div className="fb-business">
          <CompanyLogo url={profile.company_logo_url} name={profile.company_name} className="logo-preview is-small" />
          <div>
            <p className="post-author">{profile.company_name}</p>
            <p className="post-meta">{[profile.company_category, profile.company_location].filter(Boolean).join(" · ") || "Add a category and location for better posts"}</p>
          </div>
        </div>
      ) : (
        <Alert tone="warning">{PROFILE_REQUIRED_MESSAGE}</Alert>
      )}
    </section>
  );
}
