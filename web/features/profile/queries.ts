// Server state of /api/profile: the signed-in user's own profile (admin status comes from it), the
// subject's business profile (the viewed user's while viewing as), and the form and logo writes.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useViewAs } from "../../lib/view-as";
import { API_TIMEOUT_MS, uploadFile, type ProfileResponse } from "../../lib/api";
import { api, unwrap, type RpcInit } from "../../lib/rpc";
import type { ProfileUpdateInput } from "../../../worker/features/profile/rules/profile";
import { useAuth } from "../../lib/auth";

const timed = { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit };

/** The profile the page shows: the viewed user's while an admin views as them (X-View-As), else one's own. */
export function profileQuery(viewAsId: string | null) {
  return queryOptions({
    queryKey: ["profile", viewAsId ?? "self"] as const,
    queryFn: () => unwrap(api.api.profile.$get(undefined, timed)),
  });
}

/** After a write: the page's copy, and the auth context's own profile (sidebar logo, admin state). */
function useProfileSaved() {
  const client = useQueryClient();
  const { reloadProfile } = useAuth();
  return (data: ProfileResponse) => {
    client.setQueryData(profileQuery(null).queryKey, data);
    reloadProfile();
  };
}

export function useSaveProfile() {
  const saved = useProfileSaved();
  return useMutation({
    mutationFn: (input: ProfileUpdateInput) => unwrap(api.api.profile.$put({ json: input }, timed)),
    onSuccess: saved,
  });
}

export function useUploadLogo() {
  const saved = useProfileSaved();
  return useMutation({
    mutationFn: (file: File) => uploadFile<ProfileResponse>("/api/profile/logo", file),
    onSuccess: saved,
  });
}

export function useRemoveLogo() {
  const saved = useProfileSaved();
  return useMutation({
    mutationFn: () => unwrap(api.api.profile.logo.$delete(undefined, timed)),
    onSuccess: saved,
  });
}

/** The business the tools work for: the viewed user's while an admin views as them, else one's own (issue 26). */
export function useBusinessProfile(): ProfileResponse["profile"] | null {
  const { profile } = useAuth();
  const viewAs = useViewAs();
  const viewed = useQuery({ ...profileQuery(viewAs?.viewingUserId ?? null), enabled: Boolean(viewAs) });
  return (viewAs ? viewed.data?.profile : profile) ?? null;
}
