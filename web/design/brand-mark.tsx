// The product's mark, the agency's logo in its place, and the agency's contact lines: pure (no hooks), so the worker
// renders them too (the shared report, the landing page at build time).
import type { PublicBrand } from "../../worker/platform/brand/rules/brand";

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

/** The brand's uploaded logo, or the product's mark. */
export function BrandLogo({ brand, className = "brand-mark" }: { brand: Pick<PublicBrand, "logoUrl">; className?: string }) {
  return brand.logoUrl ? <img className={`${className} brand-logo`} src={brand.logoUrl} alt="" width={32} height={32} /> : <BrandMark className={className} />;
}

/** The brand's website, support address and phone, and its footer line: what a customer needs to reach the agency. */
export function BrandContact({ brand, className = "brand-contact" }: { brand: PublicBrand; className?: string }) {
  const contact = [
    brand.website ? <a key="w" href={brand.website} rel="noopener">{brand.website.replace(/^https?:\/\//, "").replace(/\/$/, "")}</a> : null,
    brand.supportEmail ? <a key="e" href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a> : null,
    brand.supportPhone ? <a key="p" href={`tel:${brand.supportPhone.replace(/[^\d+]/g, "")}`}>{brand.supportPhone}</a> : null,
  ].filter(Boolean);
  if (contact.length === 0 && !brand.footerLine) return null;
  return (
    <div className={className}>
      {contact.length ? <p>{contact.flatMap((el, i) => (i ? [" · ", el] : [el]))}</p> : null}
      {brand.footerLine ? <p>{brand.footerLine}</p> : null}
    </div>
  );
}
