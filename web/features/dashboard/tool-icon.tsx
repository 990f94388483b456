// The icon of each tool, shared by the sidebar and the dashboard cards.
import type { ComponentType } from "react";
import { CalendarIcon, CheckCircleIcon, FileTextIcon, MapPinIcon, MegaphoneIcon, PenIcon, SearchIcon, SparklesIcon, StarIcon, StoreIcon, ThumbsUpIcon, TrendingUpIcon, VideoIcon } from "../../design/icons";

const TOOL_ICONS: Record<string, ComponentType<{ size?: "sm" | "md" }>> = {
  "/tools/gmb-post-scheduler": CalendarIcon,
  "/tools/gmb-post-generator": FileTextIcon,
  "/tools/facebook-post-generator": ThumbsUpIcon,
  "/tools/social-plan": CalendarIcon,
  "/tools/social-post-generator": PenIcon,
  "/tools/video-script-generator": VideoIcon,
  "/tools/google-results": SearchIcon,
  "/tools/google-ads-analyzer": StoreIcon,
  "/tools/local-search-audit": CheckCircleIcon,
  "/tools/gbp-audit": MapPinIcon,
  "/tools/local-search-grid": MapPinIcon,
  "/tools/local-rank-tracker": TrendingUpIcon,
  "/tools/ai-visibility": SparklesIcon,
  "/tools/reviews": StarIcon,
};

export function ToolIcon({ path, size = "md" }: { path: string; size?: "sm" | "md" }) {
  const Icon = TOOL_ICONS[path] ?? MegaphoneIcon;
  return <Icon size={size} />;
}
