// The agency's brand in the app (issue 30): its logo and name as the app's home link, its name in sentences and page
// titles. With no brand set, the product's own (Porchlight). The pure parts the worker renders too are in brand-mark.tsx.
import { Link } from "react-router";
import { useBrand } from "./queries";
import type { ComponentProps } from "react";
import { BrandLogo } from "../../design/brand-mark";
import { pageTitle } from "../../lib/served-brand";
import { PageHeader } from "../../design/page-header";

/** The brand's name, where a sentence names the product. */
export function BrandName() {
  return <>{useBrand().name}</>;
}

/** A page's <title>: "<page> · <brand>", or the brand's name alone. */
export function PageTitle({ children }: { children?: string }) {
  return <title>{pageTitle(useBrand().name, children)}</title>;
}

/** A page's <title> and its header, which open with the same words. */
export function PageHead({ title, ...header }: ComponentProps<typeof PageHeader> & { title: string }) {
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <PageHeader title={title} {...header} />
    </>
  );
}

export function Brand({ to = "/", onClick }: { to?: string; onClick?: () => void }) {
  const brand = useBrand();
  return (
    <Link to={to} className="brand" onClick={onClick} aria-label={`${brand.name} home`}>
      <BrandLogo brand={brand} />
      <span>{brand.name}</span>
    </Link>
  );
}
