// The eleven placeholder tool routes of spec §2: they only say 'This tool will be implemented soon'.
import { HammerIcon } from "../components/icons";

export default function ToolPlaceholderPage() {
  return (
    <section className="card placeholder">
      <title>Coming soon · Porchlight</title>
      <span className="placeholder-icon">
        <HammerIcon />
      </span>
      <p className="placeholder-title">This tool will be implemented soon</p>
    </section>
  );
}
