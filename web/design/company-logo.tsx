// The business's stored logo, or its initial when there is none (or the image fails): sidebar, post preview, settings.
import { useState } from "react";

export function CompanyLogo({ url, name, className = "company-logo" }: { url: string | null | undefined; name: string; className?: string }) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (url && failedUrl !== url) {
    return <img className={className} src={url} alt={`${name} logo`} onError={() => setFailedUrl(url)} />;
  }
  return (
    <span className={`${className} is-initial`} aria-hidden="true">
      {name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}
