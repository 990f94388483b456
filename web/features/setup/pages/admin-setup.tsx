// /admin/setup: the Set-up checklist (issue 26): which outside services this deployment has, what each unlocks, and how
// to configure the missing ones. Set-up wording lives here, never on customers' screens.
import { useQuery } from "@tanstack/react-query";
import { RetryAlert } from "../../../design/alert";
import { LoadingScreen } from "../../../app/route-guards";
import { SetupChecklist } from "../setup-checklist";
import { adminSetupQuery } from "../queries";
import "../setup.css";
import { PageHead } from "../../brand";

export default function AdminSetupPage() {
  const query = useQuery(adminSetupQuery());
  const missing = query.data?.providers.filter((p) => !p.configured).length ?? 0;
  let body;
  if (query.isPending) body = <LoadingScreen />;
  else if (query.isError) body = <RetryAlert message={query.error.message} onRetry={() => void query.refetch()} />;
  else body = <SetupChecklist providers={query.data.providers} origin={window.location.origin} />;
  return (
    <>
      <PageHead
        eyebrow="Admin"
        title="Set-up"
        subtitle={
          query.data
            ? missing === 0
              ? "Every service is set up."
              : `${missing} of ${query.data.providers.length} services ${missing === 1 ? "is" : "are"} not set up. Customers are told what they can't do; the steps are here.`
            : "Which outside services this deployment has, and how to set up the rest."
        }
      />
      {body}
    </>
  );
}
