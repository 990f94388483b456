// The current plan beside the sidebar's Subscription link ('Free', 'Self Service · Monthly' …); nothing until known.
import { useQuery } from "@tanstack/react-query";
import { planLabel } from "../../../worker/features/billing/rules/billing";
import { useAuth } from "../../lib/auth";
import { useViewAs } from "../../lib/view-as";
import { billingQuery } from "./queries";
import { Badge } from "../../design/badge";

export function PlanBadge() {
  const { user } = useAuth();
  const viewAs = useViewAs();
  const { data } = useQuery(billingQuery(user?.id, viewAs?.viewingUserId ?? null));
  if (!data) return null;
  const label = planLabel(data.subscription);
  return (
    <span data-testid="sidebar-plan" title={`Current plan: ${label}`}>
      <Badge tone={data.subscription?.active ? "success" : "soon"}>{label}</Badge>
    </span>
  );
}
