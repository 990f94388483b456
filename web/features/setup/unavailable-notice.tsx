// A service a tool needs is missing (issue 26): the customer reads what they can't do and that their agency was told;
// an admin gets the link to the Set-up checklist. Also the error box for an action refused with such a code.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { UnavailableCode } from "../../../worker/features/setup/rules/setup";
import { ApiError } from "../../lib/api";
import { useAuth } from "../../lib/auth";
import { useViewAs } from "../../lib/view-as";
import { Alert } from "../../design/alert";

export const SEARCH_UNAVAILABLE_TITLE = "Search isn't available yet";

export function UnavailableNotice({ title, children }: { title: string; children: ReactNode }) {
  const { isAdmin } = useAuth();
  const viewAs = useViewAs();
  return (
    <Alert tone="info" title={title}>
      <p>{children}</p>
      {isAdmin && !viewAs ? (
        <p>
          <Link to="/admin/setup">See what is set up</Link>
        </p>
      ) : null}
    </Alert>
  );
}

/** The tool searches Google and search is missing: said once, at the top. */
export function SearchUnavailableNotice({ what }: { what: string }) {
  return (
    <UnavailableNotice title={SEARCH_UNAVAILABLE_TITLE}>
      {what} searches Google, which isn't available yet; your agency has been told.
    </UnavailableNotice>
  );
}

/** A refused action: the server's (customer-worded) message; a listing that could not be matched links to the picker. */
export function ActionError({ error }: { error: Error }) {
  if (error instanceof ApiError && error.code === UnavailableCode.search) return <SearchUnavailableNotice what="This tool" />;
  return (
    <Alert tone="error">
      {error.message}
      {error instanceof ApiError && error.code === "listing_not_found" ? (
        <>
          {" "}
          <Link to="/tools/local-search-audit">Open Local Search Audit</Link>
        </>
      ) : null}
    </Alert>
  );
}
