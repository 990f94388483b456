// The eleven placeholder tool routes of spec §2: the tool's name, 'This tool will be implemented soon' and the way back.
import { useLocation } from "react-router";
import { BackLink } from "../../../design/back-link";
import { HammerIcon } from "../../../design/icons";
import { Placeholder } from "../../../design/placeholder";
import { placeholderToolName } from "../../../lib/tool-placeholders";
import { dashboardPath, useViewAs } from "../../../lib/view-as";
import { PageHeader } from "../../../design/page-header";
import { PageTitle } from "../../brand";

export default function ToolPlaceholderPage() {
  const { pathname } = useLocation();
  const viewAs = useViewAs();
  const name = placeholderToolName(pathname);
  return (
    <>
      <PageTitle>{`${name}`}</PageTitle>
      <BackLink to={dashboardPath(viewAs)}>Back to Dashboard</BackLink>
      <PageHeader
        eyebrow="Coming Soon"
        title={name}
      />
      <Placeholder icon={HammerIcon} title="This tool will be implemented soon" />
    </>
  );
}
