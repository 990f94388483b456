// Any other signed-in path (spec §2): the navigation only, an empty content area.
import { PageTitle } from "../features/brand";
export default function EmptyShellPage() {
  return (
    <div className="empty-shell">
      <PageTitle />
    </div>
  );
}
