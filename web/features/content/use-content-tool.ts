// One content tool's page state: the profile it writes for, the item shown (a fresh result or one reopened from
// 'Recent'), generating, and the failure in words. Every generator page of the content suite uses it.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { ContentItem, ContentTool } from "../../../worker/features/content/rules/content";
import { PROFILE_REQUIRED_MESSAGE } from "../../../worker/features/content/rules/facebook-post";
import { useEditContent, useGenerateContent } from "./queries";
import { profileQuery } from "../profile";
import { useViewAs } from "../../lib/view-as";

export function useContentTool<R>(tool: ContentTool) {
  const viewAs = useViewAs();
  const viewAsId = viewAs?.viewingUserId ?? null;
  const profile = useQuery(profileQuery(viewAsId));
  const generate = useGenerateContent<R>(tool);
  const edit = useEditContent<R>();
  const [shown, setShown] = useState<ContentItem<R> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const p = profile.data?.profile ?? null;
  const hasProfile = Boolean(p?.company_name?.trim());

  async function run(input: object) {
    setError(null);
    // A click before the profile has loaded waits for it rather than calling the profile missing.
    const loaded = profile.data ?? (await profile.refetch()).data;
    if (!loaded?.profile?.company_name?.trim()) {
      setError(PROFILE_REQUIRED_MESSAGE);
      return;
    }
    try {
      setShown(await generate.mutateAsync(input));
    } catch (err) {
      setError(`Failed to generate: ${err instanceof Error && err.message ? err.message : "Unknown error"}`);
    }
  }

  /** Saves an edited result; true when it was kept. */
  async function save(result: R): Promise<boolean> {
    if (!shown) return false;
    try {
      setShown(await edit.mutateAsync({ id: shown.id, result }));
      return true;
    } catch {
      return false;
    }
  }

  return {
    viewAsId,
    readOnly: Boolean(viewAs),
    profile,
    business: p,
    hasProfile,
    shown,
    setShown,
    error,
    run,
    pending: generate.isPending,
    save,
    saving: edit.isPending,
    saveError: edit.error ? `Failed to save: ${edit.error.message}` : null,
  };
}

export type ContentToolState<R> = ReturnType<typeof useContentTool<R>>;
