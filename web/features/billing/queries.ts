// Server state of billing: the checkout links and the current subscription (page and sidebar share it).
import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../lib/rpc";

/** `viewingAs`: the user an admin is viewing as (the server answers for that user). */
export function billingQuery(userId: string | undefined, viewingAs: string | null = null) {
  return queryOptions({
    queryKey: ["billing", userId, viewingAs],
    queryFn: () => unwrap(api.api.billing.$get()),
    enabled: Boolean(userId),
  });
}
