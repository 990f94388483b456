// The admin Set-up checklist (issue 26): each outside service, whether it is configured, what it unlocks, what
// customers get without it, and how to set it up (open while it is missing). Built on the integration card.
import type { ProviderStatus } from "../../../worker/features/setup/rules/setup";
import { Badge } from "../../design/badge";
import { CheckCircleIcon, AlertTriangleIcon } from "../../design/icons";
import "./setup.css";
import { IntegrationCard } from "../integrations";

export function SetupChecklist({ providers, origin }: { providers: readonly ProviderStatus[]; origin: string }) {
  return (
    <ul className="setup-checklist" aria-label="Services">
      {providers.map((p) => (
        <li key={p.id}>
          <IntegrationCard
            icon={p.configured ? CheckCircleIcon : AlertTriangleIcon}
            title={p.name}
            description={p.unlocks}
            aside={<Badge tone={p.configured ? "success" : "warning"}>{p.configured ? "Set up" : "Not set up"}</Badge>}
          >
            {p.configured ? null : <p className="muted">Without it: {p.without}</p>}
            <details className="setup-steps" open={!p.configured}>
              <summary>How to set it up</summary>
              <ol>
                {p.howTo.map((step) => (
                  <li key={step}>{step.replace("<origin>", origin)}</li>
                ))}
              </ol>
            </details>
          </IntegrationCard>
        </li>
      ))}
    </ul>
  );
}
