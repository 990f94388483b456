// The eleven placeholder tool routes of spec §2: the tool's name, 'This tool will be implemented soon' and the way back.
import { useLocation } from "react-router";
import { BackLink } from "../components/back-link";
import { HammerIcon } from "../components/icons";
import { Placeholder } from "../components/placeholder";
import { placeholderToolName } from "../lib/tools";
import { dashboardPath, useViewAs } from "../lib/view-as";

export default function ToolPlaceholderPage() {
  const { pathname } = useLocation();
  const viewAs = useViewAs();
  const name = placeholderToolName(pathname);
  return (
    <>
      <title>{`${name} · Porchlight`}</title>
      <BackLink to={dashboardPath(viewAs)}>Back to Dashboard</BackLink>
      <header className="page-header">
        <div>
          <p className="page-eyebrow">Coming Soon</p>
          <h1 className="page-title">{name}</h1>
        </div>
      </header>
      <Placeholder icon={HammerIcon} title="This tool will be implemented soon" />
    </>
  );
}
