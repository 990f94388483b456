// Stand-in for pages a later issue builds; routes.tsx swaps it for the real page in one line.
import { Brand } from "../components/brand";
import { SparklesIcon } from "../components/icons";
import { Placeholder } from "../components/placeholder";

export function ComingLater({ title, standalone = false }: { title: string; standalone?: boolean }) {
  const body = (
    <Placeholder icon={SparklesIcon} title={title} heading="h1">
      <title>{`${title} · Porchlight`}</title>
      <p className="placeholder-text">We're putting the finishing touches on this page.</p>
    </Placeholder>
  );
  if (!standalone) return body;
  return (
    <div className="public-frame">
      <header className="public-frame-head">
        <Brand />
      </header>
      <main className="main-inner">{body}</main>
    </div>
  );
}
