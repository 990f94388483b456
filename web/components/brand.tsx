// The Porchlight mark and wordmark.
import { Link } from "react-router";

export function BrandMark({ className = "brand-mark" }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#283347" />
      <circle cx="32" cy="30" r="17" fill="#f2a120" opacity=".2" />
      <path d="M24 18h16l-3 6H27z" fill="#f2a120" />
      <rect x="26" y="24" width="12" height="16" rx="3" fill="#f8b84a" />
      <rect x="29" y="40" width="6" height="4" fill="#f2a120" />
      <path d="M18 48h28" stroke="#eceff3" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

export function Brand({ to = "/", onClick }: { to?: string; onClick?: () => void }) {
  return (
    <Link to={to} className="brand" onClick={onClick} aria-label="Porchlight home">
      <BrandMark />
      <span>Porchlight</span>
    </Link>
  );
}
