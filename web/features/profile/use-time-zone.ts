// The business's time zone (issue 26): its profile's, else the browser's. Times shown to a business use it.
import { useQuery } from "@tanstack/react-query";
import { profileQuery } from "./queries";
import { browserTimeZone } from "../../lib/format-date";
import { useViewAs } from "../../lib/view-as";

export function useBusinessTimeZone(): string {
  const viewAs = useViewAs();
  const profile = useQuery(profileQuery(viewAs?.viewingUserId ?? null));
  return profile.data?.profile?.time_zone ?? browserTimeZone();
}
