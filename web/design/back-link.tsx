// The small arrow link above a page's header that leads back to where the page belongs (dashboard, reports list).
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ArrowLeftIcon } from "./icons";

export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="back-link">
      <ArrowLeftIcon size="sm" />
      {children}
    </Link>
  );
}
