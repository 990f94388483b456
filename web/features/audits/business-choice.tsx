// Whose business a rank tool works on (issue 19): the signed-in user's own (from Business Settings) or, for admins
// outside a view-as, any prospect. The same choice and the same "details needed" note on both rank tools.
import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import { useAuth } from "../../lib/auth";
import { useViewAs } from "../../lib/view-as";
import { profileQuery } from "../profile";
import type { RankTarget } from "../rank";
import { Alert } from "../../design/alert";
import { ProspectPicker, SETTINGS_PATH, missingForOwnAudit } from "./audit-tool";
import { Segmented } from "../../design/segmented";
import { ToolPageHeader } from "../../design/page-header";

/** `initial`: a prospect chosen already (a tool opened from the prospect's report or card); admins only. */
export function useBusinessChoice(initial: { id: string; name: string } | null = null) {
  const { isAdmin, profile: ownProfile } = useAuth();
  const viewAs = useViewAs();
  const operator = isAdmin && !viewAs;
  const start = operator ? initial : null;
  const [whose, setWhose] = useState<"own" | "prospect">(start ? "prospect" : "own");
  const [prospect, setProspect] = useState<{ id: string; name: string } | null>(start);
  const profile = useQuery({ ...profileQuery(viewAs?.viewingUserId ?? null), enabled: Boolean(viewAs) });
  const business = viewAs ? profile.data?.profile : ownProfile;
  const missing = whose === "own" ? missingForOwnAudit(business) : [];
  const target: RankTarget | null = whose === "prospect" ? (prospect ? { prospectId: prospect.id } : null) : missing.length ? null : { own: true };
  const name = whose === "prospect" ? (prospect?.name ?? "") : (business?.company_name ?? "");
  const loading = whose === "own" && Boolean(viewAs) && profile.isPending;
  return { operator, whose, setWhose, prospect, setProspect, target, name, missing, loading, readOnly: Boolean(viewAs) };
}

export type BusinessChoice = ReturnType<typeof useBusinessChoice>;

/** Admins: my business or a prospect. Nothing for everyone else. */
export function BusinessPicker({ choice, onChange }: { choice: BusinessChoice; onChange?: () => void }) {
  if (!choice.operator) return null;
  return (
    <div className="audit-block">
      <Segmented
        label="Whose business"
        value={choice.whose}
        onChange={(v) => {
          choice.setWhose(v);
          onChange?.();
        }}
        options={[
          { value: "own", label: "My business" },
          { value: "prospect", label: "A prospect" },
        ]}
      />
      {choice.whose === "prospect" ? (
        <ProspectPicker
          value={choice.prospect?.id ?? null}
          onChange={(id, name) => {
            choice.setProspect({ id, name });
            onChange?.();
          }}
        />
      ) : null}
    </div>
  );
}

/** Why the user's own business cannot be looked up yet. */
export function MissingDetails({ missing, what }: { missing: string[]; what: string }) {
  return (
    <Alert tone="warning" title="Your business details are needed">
      <p>
        {what} Add {missing.join(" and ")} in <Link to={SETTINGS_PATH}>Business Settings</Link>, then come back.
      </p>
    </Alert>
  );
}

/**
 * A tool page about one business (the rank tools, citations, AI Visibility): its head, the picker for an admin, then
 * the tool. The page's <title> goes in children (React puts it in the document head).
 */
export function BusinessToolPage({
  title,
  subtitle,
  choice,
  onChange,
  children,
}: {
  title: string;
  subtitle: string;
  choice: BusinessChoice;
  onChange?: () => void;
  children: ReactNode;
}) {
  return (
    <div className="audit-tool">
      <ToolPageHeader title={title} subtitle={subtitle} />
      <BusinessPicker choice={choice} onChange={onChange} />
      {children}
    </div>
  );
}
